//! BERT's uncased WordPiece tokenizer, as all-MiniLM-L6-v2's `tokenizer.json` describes
//! it, written out so the offline model does not need the `tokenizers` crate (a fifth of
//! the embedded default's dependencies, and a C++ build). The steps and their order are
//! that file's:
//!
//! 1. The special tokens (`[CLS]`, `[SEP]`, …) are cut out of the text as written.
//! 2. Normalisation: control characters, NUL and U+FFFD dropped, whitespace made a space;
//!    a space put around each CJK ideograph; accents stripped (canonical decomposition,
//!    non-spacing marks dropped); lowercased.
//! 3. Words: split at whitespace, each punctuation character a word of its own.
//! 4. Each word split greedily into the longest pieces in the vocabulary, a piece after
//!    the first written with `##`; a word with a part no piece matches, or longer than
//!    100 characters, is `[UNK]`.
//!
//! With the `minilm` feature (the tests have it) a unit test holds the ids to the
//! `tokenizers` crate's on the same file.

use std::collections::HashMap;

use unicode_categories::UnicodeCategories;
use unicode_normalization::UnicodeNormalization;

const CONTINUATION: &str = "##";
const UNKNOWN: &str = "[UNK]";
const MAX_WORD_CHARS: usize = 100;

/// A vocabulary and its special tokens, read from a `tokenizer.json`.
#[derive(Debug)]
pub struct WordPiece {
    vocab: HashMap<String, u32>,
    specials: Vec<(String, u32)>,
    unknown: u32,
}

#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("tokenizer.json is not JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("tokenizer.json: {0}")]
    Shape(&'static str),
}

impl WordPiece {
    /// Reads `model.vocab` and `added_tokens` of a WordPiece `tokenizer.json`.
    pub fn from_json(bytes: &[u8]) -> Result<Self, LoadError> {
        #[derive(serde::Deserialize)]
        struct File {
            model: Model,
            #[serde(default)]
            added_tokens: Vec<Added>,
        }
        #[derive(serde::Deserialize)]
        struct Model {
            vocab: HashMap<String, u32>,
        }
        #[derive(serde::Deserialize)]
        struct Added {
            id: u32,
            content: String,
        }
        let file: File = serde_json::from_slice(bytes)?;
        let unknown = *file
            .model
            .vocab
            .get(UNKNOWN)
            .ok_or(LoadError::Shape("the vocabulary has no [UNK]"))?;
        let mut specials: Vec<(String, u32)> = file
            .added_tokens
            .into_iter()
            .filter(|a| !a.content.is_empty())
            .map(|a| (a.content, a.id))
            .collect();
        // The longest first, so one special token is never cut out of another.
        specials.sort_by_key(|(content, _)| std::cmp::Reverse(content.len()));
        Ok(Self {
            vocab: file.model.vocab,
            specials,
            unknown,
        })
    }

    /// Every token of the vocabulary and its id, special tokens included.
    pub fn vocab(&self) -> impl Iterator<Item = (&str, u32)> {
        self.vocab.iter().map(|(token, id)| (token.as_str(), *id))
    }

    /// The ids of `text`'s tokens, without `[CLS]` and `[SEP]` around them.
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut ids = Vec::new();
        let mut rest = text;
        while let Some((at, content, id)) = self.next_special(rest) {
            self.encode_plain(&rest[..at], &mut ids);
            ids.push(id);
            rest = &rest[at + content.len()..];
        }
        self.encode_plain(rest, &mut ids);
        ids
    }

    /// The first special token in `text`: where it starts, its text and its id.
    fn next_special(&self, text: &str) -> Option<(usize, &str, u32)> {
        self.specials
            .iter()
            .filter_map(|(content, id)| text.find(content.as_str()).map(|at| (at, content, *id)))
            .min_by_key(|(at, content, _)| (*at, std::cmp::Reverse(content.len())))
            .map(|(at, content, id)| (at, content.as_str(), id))
    }

    fn encode_plain(&self, text: &str, ids: &mut Vec<u32>) {
        let normalized = normalize(text);
        for word in words(&normalized) {
            self.encode_word(word, ids);
        }
    }

    fn encode_word(&self, word: &str, ids: &mut Vec<u32>) {
        if word.chars().count() > MAX_WORD_CHARS {
            ids.push(self.unknown);
            return;
        }
        let first = ids.len();
        let mut piece = String::new();
        let mut start = 0;
        while start < word.len() {
            let mut end = word.len();
            let found = loop {
                if end <= start {
                    break None;
                }
                piece.clear();
                if start > 0 {
                    piece.push_str(CONTINUATION);
                }
                piece.push_str(&word[start..end]);
                if let Some(id) = self.vocab.get(&piece) {
                    break Some(*id);
                }
                end -= word[start..end]
                    .chars()
                    .next_back()
                    .map_or(1, char::len_utf8);
            };
            let Some(id) = found else {
                ids.truncate(first);
                ids.push(self.unknown);
                return;
            };
            ids.push(id);
            start = end;
        }
    }
}

/// BERT's normalisation of uncased text (step 2 above).
fn normalize(text: &str) -> String {
    let mut cleaned = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\0' || c == '\u{fffd}' || is_control(c) {
            continue;
        }
        if is_cjk_ideograph(c) {
            cleaned.extend([' ', c, ' ']);
        } else if is_whitespace(c) {
            cleaned.push(' ');
        } else {
            cleaned.push(c);
        }
    }
    cleaned
        .nfd()
        .filter(|c| !c.is_mark_nonspacing())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The words of normalised text (step 3): whitespace separates, punctuation stands alone.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(char::is_whitespace).flat_map(|chunk| {
        let mut pieces = Vec::new();
        let mut start = 0;
        for (at, c) in chunk.char_indices() {
            if is_punctuation(c) {
                if start < at {
                    pieces.push(&chunk[start..at]);
                }
                pieces.push(&chunk[at..at + c.len_utf8()]);
                start = at + c.len_utf8();
            }
        }
        if start < chunk.len() {
            pieces.push(&chunk[start..]);
        }
        pieces
    })
}

fn is_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r') || c.is_whitespace()
}

fn is_control(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r') && c.is_other()
}

fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation() || c.is_punctuation()
}

fn is_cjk_ideograph(c: char) -> bool {
    matches!(
        c as u32,
        0x4E00..=0x9FFF
            | 0x3400..=0x4DBF
            | 0x20000..=0x2A6DF
            | 0x2A700..=0x2B73F
            | 0x2B740..=0x2B81F
            | 0x2B920..=0x2CEAF
            | 0xF900..=0xFAFF
            | 0x2F800..=0x2FA1F
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> WordPiece {
        WordPiece::from_json(super::super::embed::TOKENIZER).expect("tokenizer.json loads")
    }

    fn tokens(text: &str) -> Vec<String> {
        let table = table();
        let names: HashMap<u32, &str> = table.vocab().map(|(t, id)| (id, t)).collect();
        table
            .encode(text)
            .into_iter()
            .map(|id| names[&id].to_owned())
            .collect()
    }

    #[test]
    fn words_are_lowercased_split_at_punctuation_and_into_known_pieces() {
        assert_eq!(
            tokens("Hey friend!  How's Zürich?"),
            ["hey", "friend", "!", "how", "'", "s", "zurich", "?"]
        );
        assert_eq!(tokens("unaffable"), ["una", "##ffa", "##ble"]);
        assert_eq!(tokens("x[SEP]y"), ["x", "[SEP]", "y"]);
        assert_eq!(tokens(&"a".repeat(101)), ["[UNK]"]);
        assert_eq!(tokens("東京"), ["東", "京"]);
        assert!(tokens("\u{0}\u{fffd}\u{7}").is_empty());
    }

    /// The texts the parity test tokenizes both ways: the forms a user's memories take
    /// (prose, chat turns, e-mail, code, numbers) and the edges of each step.
    #[cfg(feature = "minilm")]
    fn samples() -> Vec<String> {
        let mut texts: Vec<String> = [
            "The hiring plan for Berlin is due on 2024-05-03, says Sarah.",
            "I'm SO excited!!! 🎉🎉 Can't wait — see you @ 10:30am?",
            "naïve café résumé Ångström façade coöperate",
            "Ünïcödé wörds, ΑΘΗΝΑ, Москва, 東京都, 서울, العربية, हिन्दी",
            "fn main() { println!(\"{}\", x?); } // a_b-c.d/e\\f",
            "tabs\tand\nnewlines\r\nand\u{a0}nbsp and\u{2003}em space",
            "zero\u{200b}width and soft\u{ad}hyphen and \u{feff}bom",
            "[CLS] literal [SEP] tokens [MASK] and [UNK] and [PAD]",
            "[cls] lowercase is not special; [SEP[SEP]] nested",
            "ﬁ ligature, ½ fraction, ℌ, ① circled, Ⅻ numeral, ｆｕｌｌｗｉｄｔｈ",
            "antidisestablishmentarianism supercalifragilisticexpialidocious",
            "e-mail: priya.k@example.com, https://example.com/a?b=c&d=e#f",
            "$1,234.56 — 15% off; 3×4=12 ≤ 20 ± 1°C",
            "’curly’ “quotes” «guillemets» ‹single› „low“ ‚low‘",
            "a\u{301} e\u{308} combining marks, \u{1f468}\u{200d}\u{1f469}\u{200d}\u{1f467} family",
        ]
        .into_iter()
        .map(str::to_owned)
        .collect();
        texts.push("x".repeat(100));
        texts.push(format!("{}é", "y".repeat(99)));
        texts.push("word ".repeat(500));
        // Every character of the first planes once, in runs of 64: the tables of each
        // step (categories, decomposition, case) meet every character they know.
        let chars: Vec<char> = (0u32..0x3_0000).filter_map(char::from_u32).collect();
        texts.extend(chars.chunks(64).map(|run| run.iter().collect::<String>()));
        texts
    }

    #[cfg(feature = "minilm")]
    #[test]
    fn ids_are_the_tokenizers_crates() {
        let ours = table();
        let mut theirs =
            tokenizers::Tokenizer::from_bytes(super::super::embed::TOKENIZER).expect("loads");
        theirs.with_padding(None);
        theirs.with_truncation(None).expect("truncation off");
        let mut differ = Vec::new();
        for text in samples() {
            let expected = theirs.encode(text.as_str(), false).expect("encodes");
            if ours.encode(&text) != expected.get_ids() {
                differ.push(text);
            }
        }
        assert!(
            differ.is_empty(),
            "{} of the texts tokenize otherwise, e.g. {:?}",
            differ.len(),
            differ.iter().take(3).collect::<Vec<_>>()
        );
    }
}
