//! Deterministic embeddings from static token vectors: a text is split into WordPiece
//! tokens (all-MiniLM-L6-v2's uncased vocabulary), function words and punctuation are
//! dropped, and the vectors of the remaining tokens are summed and L2-normalised.
//!
//! The vectors ship with the binary (`models/assets/offline-embeddings/`, 7.5 MiB):
//! all-MiniLM-L6-v2's input token embeddings, centred, projected on their first 256
//! principal components, each token weighted by the squared norm of its centred
//! embedding (specific tokens outweigh generic ones) and quantised to int8 —
//! `tools/distill-offline-embeddings.py` makes them. They carry what the model learnt
//! about words: "dog" lands near "puppy", "mountain" near "summit", so a question can
//! find a passage it shares no word with, which feature hashing could not do. There is
//! no network and no model run: embedding is a table lookup per token.
//!
//! A vector has `dimensions` components: the first 256 principal components (fewer
//! when fewer are asked for), then zeros. Text without a single content token gets one
//! fixed unit vector, never the zero vector. The same text gives the same vector on
//! every machine.

use std::collections::HashSet;
use std::sync::LazyLock;

use super::wordpiece::WordPiece;

const VECTORS: &[u8] = include_bytes!("../../assets/offline-embeddings/vectors.bin");
pub(super) const TOKENIZER: &[u8] =
    include_bytes!("../../assets/offline-embeddings/tokenizer.json");
const MAGIC: &[u8] = b"COSMOSV1";

/// Words that say nothing about what a text is about (as the retrieval terms drop them).
const FUNCTION_WORDS: &str = "a about above after again against all am an and any are as at \
    be because been before being below between both but by can could did do does doing down \
    during each few for from further had has have having he her here hers herself him \
    himself his how i if in into is it its itself me more most my myself no nor not of off on \
    once only or other ought our ours ourselves out over own same she should so some such \
    than that the their theirs them themselves then there these they this those through to \
    too under until up very was we were what when where which while who whom why will with \
    would you your yours yourself yourselves s t d ll m re ve";

/// The token vectors and the tokenizer, loaded on first use.
struct Table {
    tokenizer: WordPiece,
    dimensions: usize,
    scales: Vec<f32>,
    values: &'static [u8],
    /// Tokens that carry no content (special tokens, punctuation, function words).
    skipped: Vec<bool>,
}

static TABLE: LazyLock<Table> = LazyLock::new(Table::load);

impl Table {
    fn load() -> Self {
        assert_eq!(
            &VECTORS[..8],
            MAGIC,
            "offline-embeddings/vectors.bin: bad header"
        );
        let word = |at: usize| {
            u32::from_le_bytes(VECTORS[at..at + 4].try_into().expect("4 bytes")) as usize
        };
        let (vocab, dimensions) = (word(8), word(12));
        let scales_end = 16 + 4 * dimensions;
        let scales = VECTORS[16..scales_end]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        let values = &VECTORS[scales_end..];
        assert_eq!(values.len(), vocab * dimensions, "offline-embeddings: size");
        let tokenizer =
            WordPiece::from_json(TOKENIZER).expect("offline-embeddings/tokenizer.json loads");
        let function: HashSet<&str> = FUNCTION_WORDS.split_whitespace().collect();
        let mut skipped = vec![true; vocab];
        for (token, id) in tokenizer.vocab() {
            let bare = token.trim_start_matches("##");
            let content = bare.chars().any(char::is_alphanumeric)
                && !(token.starts_with('[') && token.ends_with(']'))
                && !function.contains(token);
            if let Some(s) = skipped.get_mut(id as usize) {
                *s = !content;
            }
        }
        Self {
            tokenizer,
            dimensions,
            scales,
            values,
            skipped,
        }
    }

    fn row(&self, id: usize) -> impl Iterator<Item = f32> + '_ {
        let row = &self.values[id * self.dimensions..(id + 1) * self.dimensions];
        row.iter()
            .zip(&self.scales)
            .map(|(v, s)| f32::from(*v as i8) * s)
    }
}

pub fn embed(text: &str, dimensions: usize) -> Vec<f32> {
    let table = &*TABLE;
    let mut vector = vec![0.0f32; dimensions];
    if dimensions == 0 {
        return vector;
    }
    let used = dimensions.min(table.dimensions);
    for id in table.tokenizer.encode(text) {
        let id = id as usize;
        if table.skipped.get(id).copied().unwrap_or(true) {
            continue;
        }
        for (x, v) in vector[..used].iter_mut().zip(table.row(id)) {
            *x += v;
        }
    }
    let norm = vector.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        vector.iter_mut().for_each(|x| *x /= norm);
    } else {
        // No content: one fixed unit vector (the last component), never the zero vector.
        vector[dimensions - 1] = 1.0;
    }
    vector
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cosine(a: &[f32], b: &[f32]) -> f32 {
        a.iter().zip(b).map(|(x, y)| x * y).sum()
    }

    #[test]
    fn vectors_are_unit_length_and_stable() {
        for text in [
            "The hiring plan for Berlin",
            "",
            "!!!",
            "ünïcödé wörds",
            "the of and",
        ] {
            for dims in [384, 256, 16] {
                let v = embed(text, dims);
                assert_eq!(v.len(), dims);
                let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
                assert!((norm - 1.0).abs() < 1e-5, "{text:?}: {norm}");
                assert_eq!(v, embed(text, dims));
            }
        }
        let v = embed("The hiring plan for Berlin", 384);
        assert!(
            v[256..].iter().all(|x| *x == 0.0),
            "256 components, then zeros"
        );
    }

    #[test]
    fn shared_words_mean_closer_vectors() {
        let a = embed(
            "Sarah is drafting the hiring plan for the Berlin launch",
            384,
        );
        let b = embed("The Berlin launch depends on the hiring plan", 384);
        let c = embed("My cat likes sleeping on the warm windowsill", 384);
        assert!(
            cosine(&a, &b) > cosine(&a, &c) + 0.2,
            "{} vs {}",
            cosine(&a, &b),
            cosine(&a, &c)
        );
        let plural = embed("budgets", 384);
        assert!(cosine(&plural, &embed("budget", 384)) > cosine(&plural, &embed("garden", 384)));
    }

    #[test]
    fn related_words_are_close_without_sharing_letters() {
        let dog = embed("We adopted a puppy from the shelter", 384);
        let question = embed("What kind of dog did they get?", 384);
        let unrelated = embed("What kind of car did they get?", 384);
        assert!(
            cosine(&dog, &question) > cosine(&dog, &unrelated),
            "{} vs {}",
            cosine(&dog, &question),
            cosine(&dog, &unrelated)
        );
    }
}
