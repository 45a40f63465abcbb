//! Slack thread cleanup: chronological `[ts] user: text` lines with Slack's angle-bracket
//! markup turned back into readable text.

use std::cmp::Ordering;
use std::sync::LazyLock;

use regex::Regex;

use super::collapse_spaces;
use super::email::decode_entities;
use cosmo_core::domain::raw::{SlackMessage, SlackThread};

/// `#channel`, then one line per non-empty message, oldest first.
pub fn render(thread: &SlackThread) -> String {
    let channel = collapse_spaces(&thread.channel);
    let mut out = vec![format!("#{}", channel.trim_start_matches('#'))];
    for message in chronological(&thread.messages) {
        let text = clean_markup(&message.text);
        if text.is_empty() {
            continue;
        }
        let user = collapse_spaces(&message.user);
        match message
            .ts
            .as_deref()
            .map(str::trim)
            .filter(|ts| !ts.is_empty())
        {
            Some(ts) => out.push(format!("[{ts}] {user}: {text}")),
            None => out.push(format!("{user}: {text}")),
        }
    }
    out.join("\n")
}

/// Sorted by numeric `ts` when every message has one; otherwise as posted.
fn chronological(messages: &[SlackMessage]) -> Vec<&SlackMessage> {
    let mut ordered: Vec<&SlackMessage> = messages.iter().collect();
    let stamps: Option<Vec<f64>> = messages
        .iter()
        .map(|m| {
            m.ts.as_deref()
                .and_then(|ts| ts.trim().parse::<f64>().ok())
                .filter(|v| v.is_finite())
        })
        .collect();
    if let Some(stamps) = stamps {
        let mut indexed: Vec<(f64, &SlackMessage)> = stamps.into_iter().zip(messages).collect();
        // Stable: messages with equal stamps keep their posted order.
        indexed.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(Ordering::Equal));
        ordered = indexed.into_iter().map(|(_, m)| m).collect();
    }
    ordered
}

/// `<@U1|alice>` → `@alice`, `<#C1|general>` → `#general`, `<!here>` → `@here`,
/// `<https://x|label>` → `label (https://x)`, `<https://x>` → `https://x`; entities
/// decoded; the message on one line.
pub fn clean_markup(text: &str) -> String {
    static MARKUP: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"<([^<>|]*)(?:\|([^<>]*))?>").unwrap());
    let replaced = MARKUP.replace_all(text, |caps: &regex::Captures<'_>| {
        let target = caps[1].trim();
        let label = caps
            .get(2)
            .map(|m| m.as_str().trim())
            .filter(|l| !l.is_empty());
        if let Some(id) = target.strip_prefix('@') {
            format!("@{}", label.unwrap_or(id))
        } else if let Some(id) = target.strip_prefix('#') {
            format!("#{}", label.unwrap_or(id))
        } else if let Some(special) = target.strip_prefix('!') {
            let name = special.split('^').next().unwrap_or(special);
            label.map_or_else(|| format!("@{name}"), str::to_owned)
        } else if let Some(address) = target.strip_prefix("mailto:") {
            label.unwrap_or(address).to_owned()
        } else {
            match label {
                Some(label) if label != target => format!("{label} ({target})"),
                _ => target.to_owned(),
            }
        }
    });
    collapse_spaces(&decode_entities(&replaced))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cleanup;
    use cosmo_core::domain::raw::RawContent;

    fn msg(user: &str, text: &str, ts: Option<&str>) -> SlackMessage {
        SlackMessage {
            user: user.into(),
            text: text.into(),
            ts: ts.map(str::to_owned),
        }
    }

    #[test]
    fn messages_are_sorted_by_ts_and_markup_is_cleaned() {
        let thread = SlackThread {
            channel: "eng-launch".into(),
            messages: vec![
                msg(
                    "bob",
                    "Sure <@U123|alice>, see <https://x.io/doc|the doc>",
                    Some("1700000100.000200"),
                ),
                msg(
                    "alice",
                    "Can someone review\nthe <https://x.io/pr/1>?",
                    Some("1700000000.000100"),
                ),
                msg("carol", "  ", Some("1700000200.0")),
                msg(
                    "carol",
                    "<!here> Q3 &amp; Q4 in <#C42|general>",
                    Some("1700000300.0"),
                ),
            ],
        };
        assert_eq!(
            render(&thread),
            "#eng-launch\n\
             [1700000000.000100] alice: Can someone review the https://x.io/pr/1?\n\
             [1700000100.000200] bob: Sure @alice, see the doc (https://x.io/doc)\n\
             [1700000300.0] carol: @here Q3 & Q4 in #general"
        );
        let raw = RawContent::Slack(thread);
        assert_eq!(cleanup::speakers(&raw), vec!["bob", "alice", "carol"]);
    }

    #[test]
    fn order_is_kept_when_a_ts_is_missing() {
        let thread = SlackThread {
            channel: "#random".into(),
            messages: vec![msg("b", "second?", Some("20")), msg("a", "first?", None)],
        };
        assert_eq!(render(&thread), "#random\n[20] b: second?\na: first?");
    }

    #[test]
    fn markup_variants() {
        assert_eq!(clean_markup("<@U999>"), "@U999");
        assert_eq!(clean_markup("<mailto:a@b.com|a@b.com>"), "a@b.com");
        assert_eq!(clean_markup("<https://a.b|https://a.b>"), "https://a.b");
        assert_eq!(clean_markup("5 &lt; 7"), "5 < 7");
    }
}
