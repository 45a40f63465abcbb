//! Email cleanup: headers plus the body the sender actually wrote — HTML flattened to
//! text, quoted replies, signatures and sign-off blocks removed.

use std::sync::LazyLock;

use regex::Regex;

use super::{collapse_blank_lines, collapse_spaces};
use cosmo_core::domain::raw::Email;

/// `From:`, `To:` (if any), `Subject:` (if any), a blank line, then the cleaned body.
pub fn render(email: &Email) -> String {
    let mut out = vec![format!("From: {}", collapse_spaces(&email.from))];
    if !email.to.is_empty() {
        out.push(format!(
            "To: {}",
            email
                .to
                .iter()
                .map(|t| collapse_spaces(t))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let subject = collapse_spaces(&email.subject);
    if !subject.is_empty() {
        out.push(format!("Subject: {subject}"));
    }
    let body = clean_body(&email.body);
    if !body.is_empty() {
        out.push(String::new());
        out.push(body);
    }
    out.join("\n")
}

/// `Alice Smith <alice@x>` → `Alice Smith`; `"Smith, Alice" <a@x>` → `Alice Smith`;
/// a bare address → its local part.
pub fn sender_name(from: &str) -> String {
    let from = from.trim();
    let (display, address) = match from.find('<') {
        Some(i) => (&from[..i], from[i + 1..].trim_end_matches('>')),
        None => ("", from),
    };
    let display = collapse_spaces(display.trim().trim_matches(|c| c == '"' || c == '\''));
    if !display.is_empty() && !display.contains('@') {
        return match display.split_once(',') {
            Some((last, first)) if !first.trim().is_empty() => {
                format!("{} {}", first.trim(), last.trim())
            }
            _ => display,
        };
    }
    let address = if address.trim().is_empty() {
        display.as_str()
    } else {
        address
    };
    let address = address.trim().trim_start_matches("mailto:");
    address
        .split('@')
        .next()
        .unwrap_or(address)
        .trim()
        .to_owned()
}

/// The body only: no HTML, quoted replies, signatures or sign-off block.
pub fn clean_body(body: &str) -> String {
    let text = body.replace("\r\n", "\n").replace('\r', "\n");
    let text = if HTML_TAG.is_match(&text) {
        strip_html(&text)
    } else {
        text
    };
    let lines: Vec<String> = text.lines().map(|l| l.trim_end().to_owned()).collect();
    let lines = cut_quoted_reply(lines);
    let lines = cut_signature(lines);
    let lines: Vec<String> = lines.iter().map(|l| collapse_spaces(l)).collect();
    collapse_blank_lines(&lines)
}

static HTML_TAG: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)</?(html|head|body|div|p|br|span|table|tbody|tr|td|th|a|b|i|u|strong|em|ul|ol|li",
        r"|h[1-6]|blockquote|font|img|meta|style|hr|center|pre|code)\b[^>]*>",
    ))
    .unwrap()
});

fn strip_html(html: &str) -> String {
    static DROP: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(concat!(
            r"(?is)<!--.*?-->",
            r"|<(script|style|head|title)\b[^>]*>.*?</(script|style|head|title)\s*>",
            r"|<blockquote\b[^>]*>.*?</blockquote\s*>",
        ))
        .unwrap()
    });
    static BREAK: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)<br\s*/?>|</(p|div|li|tr|h[1-6]|table|ul|ol|pre)\s*>|<hr\b[^>]*>").unwrap()
    });
    static TAG: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"<[^>]*>").unwrap());
    // Line breaks in HTML source are just whitespace; only tags break lines.
    let text = DROP.replace_all(html, "").replace(['\n', '\t'], " ");
    let text = BREAK.replace_all(&text, "\n");
    decode_entities(&TAG.replace_all(&text, ""))
}

/// Decodes the common named entities and numeric character references.
pub(crate) fn decode_entities(text: &str) -> String {
    static NUMERIC: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"&#(x[0-9a-fA-F]{1,6}|[0-9]{1,7});").unwrap());
    let text = NUMERIC.replace_all(text, |caps: &regex::Captures<'_>| {
        let code = &caps[1];
        let value = match code.strip_prefix('x') {
            Some(hex) => u32::from_str_radix(hex, 16).ok(),
            None => code.parse().ok(),
        };
        match value.and_then(char::from_u32) {
            Some('\u{a0}') => " ".to_owned(),
            Some(c) => c.to_string(),
            None => caps[0].to_owned(),
        }
    });
    // `&amp;` last, so `&amp;lt;` stays the literal text `&lt;`.
    text.replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
        .replace('\u{a0}', " ")
}

/// Drops `>`-quoted lines and everything from a reply header onwards.
fn cut_quoted_reply(lines: Vec<String>) -> Vec<String> {
    static ON_WROTE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?i)^\s*on\s.+\bwrote:\s*$").unwrap());
    static ORIGINAL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^\s*-{2,}\s*(original message|reply message)\s*-{2,}\s*$").unwrap()
    });
    static FROM_SENT: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?i)^\s*\*?from:\*?\s.+").unwrap());
    static SENT: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?i)\b(sent|date):\*?\s").unwrap());
    let is_reply_header = |i: usize| {
        let line = &lines[i];
        let next = lines.get(i + 1).map(|l| l.trim()).unwrap_or("");
        ON_WROTE.is_match(line)
            || (line.trim_start().to_lowercase().starts_with("on ")
                && next.to_lowercase().ends_with("wrote:"))
            || ORIGINAL.is_match(line)
            || (FROM_SENT.is_match(line)
                && (SENT.is_match(line)
                    || lines[i + 1..]
                        .iter()
                        .take(3)
                        .any(|l| SENT.is_match(l.trim_start()))))
            || (line.trim().len() >= 10
                && line.trim().chars().all(|c| c == '_')
                && FROM_SENT.is_match(next))
    };
    let end = (0..lines.len())
        .find(|&i| is_reply_header(i))
        .unwrap_or(lines.len());
    lines
        .into_iter()
        .take(end)
        .filter(|l| !l.trim_start().starts_with('>'))
        .collect()
}

/// Drops everything after a `-- ` delimiter, "Sent from my iPhone" lines and a trailing
/// sign-off block ("Best regards,\nName\nTitle") of at most four short lines.
fn cut_signature(lines: Vec<String>) -> Vec<String> {
    static SENT_FROM: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(concat!(
            r"(?i)^\s*(sent from my\s.+|sent from (mail|outlook|yahoo mail|gmail)\b.*",
            r"|get outlook for\s.+|sent via\s.+)$",
        ))
        .unwrap()
    });
    static SIGN_OFF: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(concat!(
            r"(?i)^\s*(best|best regards|kind regards|warm regards|warmest regards|regards",
            r"|many thanks|thanks|thanks again|thanks so much|thank you|thx|cheers|sincerely",
            r"|yours sincerely|yours truly|yours|all the best|talk soon|take care|warmly",
            r"|respectfully|br|love|xoxo)\s*[,.!]*\s*$",
        ))
        .unwrap()
    });
    let end = lines
        .iter()
        .position(|l| l == "-- " || l.trim() == "--")
        .unwrap_or(lines.len());
    let mut lines: Vec<String> = lines
        .into_iter()
        .take(end)
        .filter(|l| !SENT_FROM.is_match(l))
        .collect();
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    let non_blank: Vec<usize> = (0..lines.len())
        .filter(|&i| !lines[i].trim().is_empty())
        .collect();
    let tail = &non_blank[non_blank.len().saturating_sub(4)..];
    if let Some(&start) = tail.iter().find(|&&i| SIGN_OFF.is_match(&lines[i])) {
        let block_is_short = lines[start..]
            .iter()
            .all(|l| l.trim().chars().count() <= 60);
        // Keep a body that is nothing but "Thanks!".
        if block_is_short && non_blank.first().is_some_and(|&first| first < start) {
            lines.truncate(start);
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn email(from: &str, body: &str) -> Email {
        Email {
            from: from.into(),
            to: vec!["bob@example.com".into(), "carol@example.com".into()],
            cc: vec![],
            subject: "Q3  plan".into(),
            body: body.into(),
            headers: vec![],
        }
    }

    #[test]
    fn renders_headers_then_body() {
        let e = email(
            "Alice Smith <alice@example.com>",
            "Hi Bob,\n\nThe plan is ready.\n",
        );
        assert_eq!(
            render(&e),
            "From: Alice Smith <alice@example.com>\nTo: bob@example.com, carol@example.com\n\
             Subject: Q3 plan\n\nHi Bob,\n\nThe plan is ready."
        );
    }

    #[test]
    fn sender_names() {
        assert_eq!(
            sender_name("Alice Smith <alice@example.com>"),
            "Alice Smith"
        );
        assert_eq!(
            sender_name("\"Smith, Alice\" <alice@example.com>"),
            "Alice Smith"
        );
        assert_eq!(sender_name("alice.smith@example.com"), "alice.smith");
        assert_eq!(sender_name("<bob@example.com>"), "bob");
    }

    #[test]
    fn html_is_flattened_and_entities_decoded() {
        let body = "<html><head><style>p{color:red}</style></head><body><p>Hi&nbsp;Bob,</p>\
                    <p>Q3 &amp; Q4 look <b>good</b>: 5 &lt; 7 &quot;ok&quot; it&#39;s fine.\
                    <br>Next line</p>\
                    <blockquote>old stuff</blockquote></body></html>";
        assert_eq!(
            clean_body(body),
            "Hi Bob,\nQ3 & Q4 look good: 5 < 7 \"ok\" it's fine.\nNext line"
        );
    }

    #[test]
    fn quoted_replies_are_removed() {
        let body = "Sounds good, ship it.\n> earlier text\n>> older\nMore from me.\n\n\
                    On Mon, Jan 6, 2025 at 10:00 AM Bob <bob@example.com> wrote:\n\
                    > Can we ship?\nold";
        assert_eq!(clean_body(body), "Sounds good, ship it.\nMore from me.");
        let outlook =
            "Yes.\n\n-----Original Message-----\nFrom: Bob\nSent: Monday\nSubject: x\nold";
        assert_eq!(clean_body(outlook), "Yes.");
        let outlook2 = "Agreed.\n\nFrom: Bob Jones <bob@x.com>\n\
                        Sent: Monday, 6 January 2025 10:00\nTo: Alice\nold";
        assert_eq!(clean_body(outlook2), "Agreed.");
        let wrapped =
            "Fine.\nOn Mon, Jan 6, 2025 at 10:00 AM Bob Jones <bob@example.com>\nwrote:\nold";
        assert_eq!(clean_body(wrapped), "Fine.");
    }

    #[test]
    fn signatures_and_sign_offs_are_removed() {
        let body = "The budget is approved.\n\n\n\nLet's meet Friday.\n\n\
                    Best regards,\nAlice Smith\nHead of Finance";
        assert_eq!(
            clean_body(body),
            "The budget is approved.\n\nLet's meet Friday."
        );
        let dashed = "See attached.\n-- \nAlice Smith | Acme Corp | +1 555 0100\nwww.acme.com";
        assert_eq!(clean_body(dashed), "See attached.");
        let phone = "On my way.\n\nSent from my iPhone";
        assert_eq!(clean_body(phone), "On my way.");
        let cheers = "Works for me.\nCheers,\nBob";
        assert_eq!(clean_body(cheers), "Works for me.");
    }

    #[test]
    fn a_body_that_is_only_thanks_is_kept() {
        assert_eq!(clean_body("Thanks!"), "Thanks!");
    }

    #[test]
    fn a_sign_off_word_early_in_a_long_body_is_kept() {
        let body = "Thanks,\nfor the long report, it covers the Q3 numbers, the hiring plan \
                    and risks.\n\
                    Line two.\nLine three.\nLine four.\nLine five.";
        assert!(clean_body(body).starts_with("Thanks,\nfor the long report"));
    }
}
