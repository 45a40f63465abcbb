//! Just enough of RFC 5322 / MIME to import `.eml` files: unfolded headers with
//! encoded words (RFC 2047) decoded, the date, and the body — the first `text/plain`
//! part of a multipart message (else the first `text/html` part), with its
//! quoted-printable or base64 transfer encoding undone. Charsets other than UTF-8,
//! US-ASCII and Latin-1 are read as UTF-8 (invalid bytes replaced).

use chrono::{DateTime, Utc};
use serde_json::{Map, Value, json};

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Email {
    pub from: String,
    pub to: String,
    pub cc: String,
    pub subject: String,
    pub date: Option<DateTime<Utc>>,
    /// `Message-ID` and `Date`, as written.
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Email {
    /// The `raw_content` of an `email` Source.
    pub fn raw_content(&self) -> Value {
        let mut raw = Map::new();
        raw.insert("from".into(), json!(self.from));
        raw.insert("body".into(), json!(self.body));
        for (key, value) in [
            ("subject", &self.subject),
            ("to", &self.to),
            ("cc", &self.cc),
        ] {
            if !value.is_empty() {
                raw.insert(key.into(), json!(value));
            }
        }
        if !self.headers.is_empty() {
            let headers: Map<String, Value> = self
                .headers
                .iter()
                .map(|(k, v)| (k.clone(), json!(v)))
                .collect();
            raw.insert("headers".into(), Value::Object(headers));
        }
        Value::Object(raw)
    }
}

pub fn parse(bytes: &[u8]) -> Email {
    let (headers, body) = split_message(bytes);
    let get = |name: &str| header(&headers, name).map(decode_words).unwrap_or_default();
    let date_header = header(&headers, "date").map(str::to_owned);
    let mut kept = Vec::new();
    for name in ["Message-ID", "Date"] {
        if let Some(v) = header(&headers, name) {
            kept.push((name.to_owned(), v.to_owned()));
        }
    }
    Email {
        from: get("from"),
        to: get("to"),
        cc: get("cc"),
        subject: get("subject"),
        date: date_header.as_deref().and_then(parse_date),
        headers: kept,
        body: text_body(&headers, body)
            .unwrap_or_default()
            .trim()
            .to_owned(),
    }
}

type Headers = Vec<(String, String)>;

/// Headers (unfolded, names lower-cased) and the raw body after the blank line.
fn split_message(bytes: &[u8]) -> (Headers, &[u8]) {
    let mut headers: Headers = Vec::new();
    let mut rest = bytes;
    loop {
        let (line, next) = match rest.iter().position(|b| *b == b'\n') {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &rest[rest.len()..]),
        };
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        rest = next;
        if line.is_empty() {
            break;
        }
        let text = latin1_or_utf8(line);
        if line[0] == b' ' || line[0] == b'\t' {
            if let Some((_, value)) = headers.last_mut() {
                value.push(' ');
                value.push_str(text.trim());
            }
        } else if let Some((name, value)) = text.split_once(':') {
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
        }
        if rest.is_empty() {
            break;
        }
    }
    (headers, rest)
}

fn header<'a>(headers: &'a Headers, name: &str) -> Option<&'a str> {
    let name = name.to_ascii_lowercase();
    headers
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v.as_str())
}

/// A header parameter, e.g. `boundary` or `charset` of a `Content-Type`.
fn param(value: &str, name: &str) -> Option<String> {
    value.split(';').skip(1).find_map(|p| {
        let (k, v) = p.split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case(name)
            .then(|| v.trim().trim_matches('"').to_owned())
    })
}

/// The readable body of a part with these headers: text/plain preferred, else HTML.
fn text_body(headers: &Headers, body: &[u8]) -> Option<String> {
    let content_type = header(headers, "content-type").unwrap_or("text/plain");
    let mime = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    if mime.starts_with("multipart/") {
        let boundary = param(content_type, "boundary")?;
        let parts = multipart(body, &boundary);
        let pick = |want: &str| {
            parts.iter().find_map(|part| {
                let (h, b) = split_message(part);
                let ct = header(&h, "content-type").unwrap_or("text/plain");
                let is_want = ct.to_ascii_lowercase().starts_with(want);
                let nested = ct.to_ascii_lowercase().starts_with("multipart/");
                (is_want || nested).then(|| text_body(&h, b)).flatten()
            })
        };
        return pick("text/plain").or_else(|| pick("text/html"));
    }
    if !mime.starts_with("text/") {
        return None;
    }
    let encoding = header(headers, "content-transfer-encoding")
        .unwrap_or("")
        .to_ascii_lowercase();
    let bytes = match encoding.as_str() {
        "base64" => cosmo_api::base64::decode(&String::from_utf8_lossy(body))?,
        "quoted-printable" => quoted_printable(body, false),
        _ => body.to_vec(),
    };
    Some(charset(&bytes, param(content_type, "charset").as_deref()))
}

/// The parts between `--boundary` lines.
fn multipart<'a>(body: &'a [u8], boundary: &str) -> Vec<&'a [u8]> {
    let marker = format!("--{boundary}");
    let mut parts = Vec::new();
    let mut start: Option<usize> = None;
    let mut pos = 0;
    while pos < body.len() {
        let end = body[pos..]
            .iter()
            .position(|b| *b == b'\n')
            .map_or(body.len(), |i| pos + i + 1);
        let line = &body[pos..end];
        let trimmed = line.trim_ascii_end();
        if trimmed.starts_with(marker.as_bytes()) {
            if let Some(s) = start {
                parts.push(&body[s..pos]);
            }
            if trimmed.ends_with(b"--") && trimmed.len() == marker.len() + 2 {
                return parts;
            }
            start = Some(end);
        }
        pos = end;
    }
    if let Some(s) = start {
        parts.push(&body[s..]);
    }
    parts
}

/// Quoted-printable (RFC 2045); in headers (`q_encoding`) `_` is a space.
fn quoted_printable(bytes: &[u8], q_encoding: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'=' if bytes.get(i + 1) == Some(&b'\n') => i += 2,
            b'=' if bytes.get(i + 1) == Some(&b'\r') && bytes.get(i + 2) == Some(&b'\n') => i += 3,
            b'=' if i + 2 < bytes.len() => {
                match std::str::from_utf8(&bytes[i + 1..i + 3])
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                {
                    Some(b) => {
                        out.push(b);
                        i += 3;
                    }
                    None => {
                        out.push(b'=');
                        i += 1;
                    }
                }
            }
            b'_' if q_encoding => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    out
}

fn charset(bytes: &[u8], charset: Option<&str>) -> String {
    match charset.map(str::to_ascii_lowercase).as_deref() {
        Some("iso-8859-1" | "latin1" | "latin-1" | "windows-1252" | "cp1252") => {
            bytes.iter().map(|b| char::from(*b)).collect()
        }
        _ => String::from_utf8_lossy(bytes).into_owned(),
    }
}

fn latin1_or_utf8(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_owned(),
        Err(_) => bytes.iter().map(|b| char::from(*b)).collect(),
    }
}

/// Decodes RFC 2047 encoded words (`=?utf-8?B?…?=`, `=?iso-8859-1?Q?…?=`); the space
/// between two encoded words is dropped.
fn decode_words(value: &str) -> String {
    let mut out = String::new();
    let mut rest = value;
    let mut after_word = false;
    while let Some(start) = rest.find("=?") {
        let decoded = rest[start + 2..].splitn(3, '?').collect::<Vec<_>>();
        let word = match decoded.as_slice() {
            [cs, enc, tail] => tail.find("?=").map(|end| (*cs, *enc, &tail[..end])),
            _ => None,
        };
        let Some((cs, enc, text)) = word else {
            break;
        };
        let between = &rest[..start];
        if !(after_word && between.trim().is_empty()) {
            out.push_str(between);
        }
        let bytes = match enc.to_ascii_uppercase().as_str() {
            "B" => cosmo_api::base64::decode(text).unwrap_or_else(|| text.as_bytes().to_vec()),
            _ => quoted_printable(text.as_bytes(), true),
        };
        out.push_str(&charset(&bytes, Some(cs)));
        let consumed = start + 2 + cs.len() + 1 + enc.len() + 1 + text.len() + 2;
        rest = &rest[consumed..];
        after_word = true;
    }
    out.push_str(rest);
    out
}

/// An RFC 2822 date, with a trailing `(zone name)` comment allowed.
fn parse_date(value: &str) -> Option<DateTime<Utc>> {
    let value = match value.find('(') {
        Some(i) => value[..i].trim(),
        None => value.trim(),
    };
    DateTime::parse_from_rfc2822(value)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_email_keeps_headers_date_and_body() {
        let mail = parse(
            b"From: Sarah Chen <sarah@acme.example>\r\nTo: alex@example.com\r\nSubject: Acme\r\n  security review\r\nDate: Tue, 3 Nov 2026 09:30:00 +0100 (CET)\r\nMessage-ID: <1@acme>\r\n\r\nHi Alex,\r\n\r\nthe review is due.\r\n",
        );
        assert_eq!(mail.from, "Sarah Chen <sarah@acme.example>");
        assert_eq!(mail.subject, "Acme security review");
        assert_eq!(
            mail.date.map(|d| d.to_rfc3339()).as_deref(),
            Some("2026-11-03T08:30:00+00:00")
        );
        assert_eq!(mail.body, "Hi Alex,\r\n\r\nthe review is due.");
        assert_eq!(mail.raw_content()["headers"]["Message-ID"], "<1@acme>");
    }

    #[test]
    fn multipart_bodies_and_encoded_words_are_decoded() {
        let mail = parse(
            b"From: =?UTF-8?B?SsO8cmdlbg==?= <j@x>\nSubject: =?iso-8859-1?Q?Caf=E9_?= =?utf-8?Q?plan?=\nContent-Type: multipart/alternative; boundary=\"b1\"\n\n--b1\nContent-Type: text/html\n\n<p>html</p>\n--b1\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\nCaf=C3=A9 at n=\noon\n--b1--\n",
        );
        assert_eq!(mail.from, "J\u{fc}rgen <j@x>");
        assert_eq!(mail.subject, "Caf\u{e9} plan");
        assert_eq!(mail.body, "Caf\u{e9} at noon");
    }

    #[test]
    fn base64_parts_decode() {
        let mail = parse(
            b"From: a@b\nContent-Type: text/plain\nContent-Transfer-Encoding: base64\n\nSGVsbG8g\nd29ybGQ=\n",
        );
        assert_eq!(mail.body, "Hello world");
    }
}
