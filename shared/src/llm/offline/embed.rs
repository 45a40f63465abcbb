//! Deterministic embeddings by signed feature hashing: lower-case words (stopwords
//! down-weighted), word bigrams and character trigrams, hashed with 64-bit FNV-1a into
//! a fixed number of dimensions and L2-normalised. Texts that share words point the
//! same way; the same text gives the same vector on every machine and Rust version.

use super::text;

const WORD: f32 = 1.0;
const STOPWORD: f32 = 0.25;
const BIGRAM: f32 = 0.7;
const STOP_BIGRAM: f32 = 0.2;
/// Spread over a word's trigrams, so long words do not outweigh short ones.
const TRIGRAMS: f32 = 0.5;

pub fn embed(text: &str, dimensions: usize) -> Vec<f32> {
    let mut vector = vec![0.0f32; dimensions];
    if dimensions == 0 {
        return vector;
    }
    let masked = text::mask_urls(text);
    let words: Vec<String> = text::tokens(&masked)
        .iter()
        .map(|t| text::norm(t.text))
        .collect();
    for (i, word) in words.iter().enumerate() {
        let stop = text::is_stopword(word);
        add(
            &mut vector,
            &format!("w:{word}"),
            if stop { STOPWORD } else { WORD },
        );
        if let Some(next) = words.get(i + 1) {
            let weight = if stop || text::is_stopword(next) {
                STOP_BIGRAM
            } else {
                BIGRAM
            };
            add(&mut vector, &format!("b:{word} {next}"), weight);
        }
        if !stop {
            let padded: Vec<char> = format!("<{word}>").chars().collect();
            let count = padded.len().saturating_sub(2).max(1);
            let weight = TRIGRAMS / (count as f32).sqrt();
            for tri in padded.windows(3) {
                add(
                    &mut vector,
                    &format!("c:{}", tri.iter().collect::<String>()),
                    weight,
                );
            }
        }
    }
    let norm = vector.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        vector.iter_mut().for_each(|x| *x /= norm);
    } else {
        // No words: one fixed unit vector, never the zero vector.
        vector[(fnv1a(b"<empty>") % dimensions as u64) as usize] = 1.0;
    }
    vector
}

fn add(vector: &mut [f32], feature: &str, weight: f32) {
    let hash = fnv1a(feature.as_bytes());
    let index = (hash % vector.len() as u64) as usize;
    let sign = if hash >> 63 == 1 { -1.0 } else { 1.0 };
    vector[index] += sign * weight;
}

/// 64-bit FNV-1a: fixed, so vectors stay comparable across builds.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cosine(a: &[f32], b: &[f32]) -> f32 {
        a.iter().zip(b).map(|(x, y)| x * y).sum()
    }

    #[test]
    fn vectors_are_unit_length_and_stable() {
        for text in ["The hiring plan for Berlin", "", "!!!", "ünïcödé wörds"] {
            let v = embed(text, 64);
            assert_eq!(v.len(), 64);
            let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
            assert!((norm - 1.0).abs() < 1e-5, "{text:?}: {norm}");
            assert_eq!(v, embed(text, 64));
        }
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c, "FNV-1a reference value");
    }

    #[test]
    fn shared_words_mean_closer_vectors() {
        let a = embed(
            "Sarah is drafting the hiring plan for the Berlin launch",
            256,
        );
        let b = embed("The Berlin launch depends on the hiring plan", 256);
        let c = embed("My cat likes sleeping on the warm windowsill", 256);
        assert!(
            cosine(&a, &b) > cosine(&a, &c) + 0.2,
            "{} vs {}",
            cosine(&a, &b),
            cosine(&a, &c)
        );
        let plural = embed("budgets", 256);
        assert!(cosine(&plural, &embed("budget", 256)) > cosine(&plural, &embed("garden", 256)));
    }
}
