//! The Prometheus text exposition format, parsed into samples (name, labels, value) so
//! tests ask for a series by its labels instead of grepping the text.

use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    pub name: String,
    pub labels: BTreeMap<String, String>,
    pub value: f64,
}

/// One scrape: every sample, and each metric family's `# TYPE`.
#[derive(Debug, Clone, Default)]
pub struct Scrape {
    pub samples: Vec<Sample>,
    pub types: BTreeMap<String, String>,
}

impl Scrape {
    /// Parses a scrape; panics on a line that is not the text format.
    pub fn parse(text: &str) -> Self {
        let mut scrape = Self::default();
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            if let Some(rest) = line.strip_prefix("# TYPE ") {
                let mut parts = rest.split_whitespace();
                if let (Some(name), Some(kind)) = (parts.next(), parts.next()) {
                    scrape.types.insert(name.to_owned(), kind.to_owned());
                }
            } else if !line.starts_with('#') {
                scrape.samples.push(
                    sample(line).unwrap_or_else(|| panic!("not a Prometheus sample: {line:?}")),
                );
            }
        }
        scrape
    }

    /// The samples of `name` whose labels include every `(label, value)` of `labels`.
    pub fn series<'a>(
        &'a self,
        name: &'a str,
        labels: &'a [(&'a str, &'a str)],
    ) -> impl Iterator<Item = &'a Sample> + 'a {
        self.samples.iter().filter(move |s| {
            s.name == name
                && labels
                    .iter()
                    .all(|(k, v)| s.labels.get(*k).map(String::as_str) == Some(*v))
        })
    }

    /// The sum of the matching samples' values; `None` if none matches.
    pub fn value(&self, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
        self.series(name, labels)
            .map(|s| s.value)
            .fold(None, |sum, v| Some(sum.unwrap_or(0.0) + v))
    }
}

/// `name{label="value",…} value [timestamp]`.
fn sample(line: &str) -> Option<Sample> {
    let name_end = line.find(['{', ' ']).unwrap_or(line.len());
    let name = line[..name_end].to_owned();
    let mut rest = &line[name_end..];
    let mut labels = BTreeMap::new();
    if let Some(inner) = rest.strip_prefix('{') {
        let mut chars = inner.char_indices();
        let mut key = String::new();
        loop {
            let (i, c) = chars.next()?;
            match c {
                '}' => {
                    rest = &inner[i + 1..];
                    break;
                }
                ',' | ' ' => {}
                '=' => {
                    if chars.next()?.1 != '"' {
                        return None;
                    }
                    let mut value = String::new();
                    loop {
                        match chars.next()?.1 {
                            '"' => break,
                            '\\' => match chars.next()?.1 {
                                'n' => value.push('\n'),
                                other => value.push(other),
                            },
                            other => value.push(other),
                        }
                    }
                    labels.insert(std::mem::take(&mut key), value);
                }
                other => key.push(other),
            }
        }
    }
    let value = rest.split_whitespace().next()?;
    let value = match value {
        "+Inf" => f64::INFINITY,
        "-Inf" => f64::NEG_INFINITY,
        v => v.parse().ok()?,
    };
    (!name.is_empty()).then_some(Sample {
        name,
        labels,
        value,
    })
}

/// Fetches and parses `url` (a `/metrics` endpoint), asserting 200 and the text format.
pub async fn scrape(url: &str) -> Scrape {
    let resp = cosmo_shared::http::client()
        .get(url)
        .send()
        .await
        .unwrap_or_else(|e| panic!("{url}: {e}"));
    assert_eq!(resp.status(), reqwest::StatusCode::OK, "{url}");
    let content_type = resp
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    assert!(
        content_type.starts_with("text/plain"),
        "{url} answers {content_type}"
    );
    Scrape::parse(&resp.text().await.expect("body"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_labels_and_types_are_read() {
        let s = Scrape::parse(
            "# HELP x_total Things.\n# TYPE x_total counter\n\
             x_total{route=\"/a/{key}\",status=\"202\"} 3\n\
             x_total{route=\"/b\",status=\"202\"} 2\n\
             y{quote=\"a\\\"b,c\"} 1.5\nz 7 1700000000\nh_bucket{le=\"+Inf\"} 4\n",
        );
        assert_eq!(s.types["x_total"], "counter");
        assert_eq!(s.value("x_total", &[("route", "/a/{key}")]), Some(3.0));
        assert_eq!(s.value("x_total", &[("status", "202")]), Some(5.0));
        assert_eq!(s.value("x_total", &[("status", "404")]), None);
        assert_eq!(s.value("y", &[("quote", "a\"b,c")]), Some(1.5));
        assert_eq!(s.value("z", &[]), Some(7.0));
        assert_eq!(s.value("h_bucket", &[("le", "+Inf")]), Some(4.0));
    }
}
