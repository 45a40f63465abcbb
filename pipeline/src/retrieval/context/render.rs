//! A context as markdown, XML or JSON, by section. What was said is grouped by origin
//! (a Source, an insight), oldest first, each origin's statements in their order:
//!
//! ```markdown
//! ## What was said
//! - 8 May 2023 · conversation · <key>:
//!   Caroline: I went to a support group yesterday (7 May 2023).
//!   Melanie: That's amazing!
//! ```

use serde_json::json;

use super::Kept;
use super::fit::Section;
use super::said::Pool;
use cosmo_shared::domain::input::read::ContextFormat;

/// One rendered entry of a section: a line, or an origin with its statements.
enum Entry<'a> {
    Line(&'a str),
    Group(&'a str, Vec<&'a str>),
}

fn sections<'a>(kept: &'a Kept, pool: &'a Pool) -> Vec<(Section, Vec<Entry<'a>>)> {
    let mut out: Vec<(Section, Vec<Entry<'a>>)> = Vec::new();
    let mut items: Vec<_> = kept.items.iter().collect();
    items.sort_by_key(|i| i.section);
    let mut groups: Vec<usize> = kept
        .statements
        .iter()
        .map(|&s| pool.statements[s].group)
        .collect();
    groups.sort_by(|a, b| {
        let (ga, gb) = (&pool.groups[*a], &pool.groups[*b]);
        (ga.when, &ga.header).cmp(&(gb.when, &gb.header))
    });
    groups.dedup();
    let said: Vec<Entry<'a>> = groups
        .into_iter()
        .map(|g| {
            let mut lines: Vec<&crate::retrieval::context::said::Statement> = kept
                .statements
                .iter()
                .map(|&s| &pool.statements[s])
                .filter(|s| s.group == g)
                .collect();
            lines.sort_by_key(|s| s.order);
            Entry::Group(
                &pool.groups[g].header,
                lines.into_iter().map(|s| s.text.as_str()).collect(),
            )
        })
        .collect();
    let mut said = Some(said);
    for section in [
        Section::Profile,
        Section::Facts,
        Section::Said,
        Section::Entities,
        Section::Storylines,
        Section::Episodes,
        Section::Recent,
    ] {
        let entries: Vec<Entry<'a>> = if section == Section::Said {
            said.take().unwrap_or_default()
        } else {
            items
                .iter()
                .filter(|i| i.section == section)
                .map(|i| Entry::Line(&i.text))
                .collect()
        };
        if !entries.is_empty() {
            out.push((section, entries));
        }
    }
    out
}

pub(super) fn render(format: ContextFormat, kept: &Kept, pool: &Pool) -> String {
    let sections = sections(kept, pool);
    match format {
        ContextFormat::Markdown => {
            let mut s = String::new();
            for (section, entries) in sections {
                if !s.is_empty() {
                    s.push('\n');
                }
                s.push_str(&format!("## {}\n", section.title()));
                for e in entries {
                    match e {
                        Entry::Line(l) => s.push_str(&format!("- {}\n", l.replace('\n', " "))),
                        Entry::Group(header, lines) => {
                            s.push_str(&format!("- {header}:\n"));
                            for l in lines {
                                s.push_str(&format!("  {}\n", l.replace('\n', " ")));
                            }
                        }
                    }
                }
            }
            s
        }
        ContextFormat::Xml => {
            if sections.is_empty() {
                return String::new();
            }
            let mut s = String::from("<memory>\n");
            for (section, entries) in sections {
                s.push_str(&format!("  <{}>\n", section.tag()));
                for e in entries {
                    match e {
                        Entry::Line(l) => {
                            s.push_str(&format!("    <item>{}</item>\n", xml_escape(l)));
                        }
                        Entry::Group(header, lines) => {
                            s.push_str(&format!("    <item>{}:", xml_escape(header)));
                            for l in lines {
                                s.push_str(&format!("\n      {}", xml_escape(l)));
                            }
                            s.push_str("</item>\n");
                        }
                    }
                }
                s.push_str(&format!("  </{}>\n", section.tag()));
            }
            s.push_str("</memory>\n");
            s
        }
        ContextFormat::Json => {
            if sections.is_empty() {
                return String::new();
            }
            let mut obj = serde_json::Map::new();
            for (section, entries) in sections {
                let values: Vec<String> = entries
                    .into_iter()
                    .map(|e| match e {
                        Entry::Line(l) => l.to_owned(),
                        Entry::Group(header, lines) => format!("{header}:\n{}", lines.join("\n")),
                    })
                    .collect();
                obj.insert(section.tag().to_owned(), json!(values));
            }
            serde_json::Value::Object(obj).to_string()
        }
    }
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
