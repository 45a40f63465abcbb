//! A context's items as markdown, XML or JSON, grouped by section.

use serde_json::json;

use super::Item;
use super::fit::Section;
use cosmo_shared::domain::input::read::ContextFormat;

fn sections<'a>(items: &'a [&'a Item]) -> Vec<(Section, Vec<&'a str>)> {
    let mut out: Vec<(Section, Vec<&str>)> = Vec::new();
    let mut sorted: Vec<&&Item> = items.iter().collect();
    sorted.sort_by_key(|i| i.section);
    for i in sorted {
        match out.last_mut() {
            Some((s, lines)) if *s == i.section => lines.push(&i.text),
            _ => out.push((i.section, vec![&i.text])),
        }
    }
    out
}

pub(super) fn render(format: ContextFormat, items: &[&Item]) -> String {
    let sections = sections(items);
    match format {
        ContextFormat::Markdown => {
            let mut s = String::new();
            for (section, lines) in sections {
                if !s.is_empty() {
                    s.push('\n');
                }
                s.push_str(&format!("## {}\n", section.title()));
                for l in lines {
                    s.push_str(&format!("- {}\n", l.replace('\n', " ")));
                }
            }
            s
        }
        ContextFormat::Xml => {
            if sections.is_empty() {
                return String::new();
            }
            let mut s = String::from("<memory>\n");
            for (section, lines) in sections {
                s.push_str(&format!("  <{}>\n", section.tag()));
                for l in lines {
                    s.push_str(&format!("    <item>{}</item>\n", xml_escape(l)));
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
            for (section, lines) in sections {
                obj.insert(section.tag().to_owned(), json!(lines));
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
