//! The arena's slots and the scan over their 8-bit codes: quantisation, the sign
//! prefilter, and the dot products (plain, and AVX2 where the CPU has it).

use super::Partition;
use crate::search::cache::{Filter, best_first};

/// Where a memory's vectors are in its partition's arena.
pub(super) struct Slot {
    pub(super) key: String,
    pub(super) visibility: i64,
    pub(super) at: i64,
    pub(super) dims: usize,
    /// Its first vector's place in `scales` (its codes start at `first × dims` bytes
    /// into `codes` only when every vector has the same length: hence `offset`).
    pub(super) first: usize,
    pub(super) offset: usize,
    /// Its first vector's signs in `signs`.
    pub(super) signs_at: usize,
    pub(super) count: usize,
    /// False once replaced or deleted (its space is reclaimed by compaction).
    pub(super) live: bool,
}

impl Slot {
    /// The best 8-bit cosine of its vectors and the query: `None` when its own vector
    /// cannot be scored (another length, zero).
    #[inline(always)]
    pub(super) fn best(
        &self,
        dot: impl Dot,
        codes: &[i8],
        scales: &[f32],
        query: &[i8],
        query_scale: f32,
    ) -> Option<f32> {
        if self.dims != query.len() || scales[self.first] == 0.0 {
            return None;
        }
        let codes = &codes[self.offset..self.offset + self.count * self.dims];
        // A plain loop, not iterator adapters: a closure would be compiled apart from
        // the scan, without the vector instructions `dot` is written in.
        let mut best: Option<f32> = None;
        for (codes, s) in codes
            .chunks_exact(self.dims)
            .zip(&scales[self.first..self.first + self.count])
        {
            if *s != 0.0 {
                let score = dot.dot(codes, query) as f32 * s * query_scale;
                best = Some(best.map_or(score, |b| b.max(score)));
            }
        }
        best
    }

    /// How many signs its best-agreeing vector shares with the query's: a coarse
    /// cosine, from an eighth of the bytes its 8-bit codes take. `None` as for
    /// [`Slot::best`].
    #[inline(always)]
    pub(super) fn agreement(
        &self,
        signs: &[u64],
        scales: &[f32],
        dims: usize,
        query: &[u64],
    ) -> Option<u32> {
        if self.dims != dims || scales[self.first] == 0.0 {
            return None;
        }
        let words = query.len();
        let mut best = 0;
        for (j, vector) in signs[self.signs_at..self.signs_at + self.count * words]
            .chunks_exact(words)
            .enumerate()
        {
            if scales[self.first + j] == 0.0 {
                continue;
            }
            let mut same = 0;
            for (a, b) in vector.iter().zip(query) {
                same += (!(a ^ b)).count_ones();
            }
            best = best.max(same);
        }
        Some(best)
    }
}

/// `v` normalised to length 1, as 8-bit codes and the scale that turns a code dot
/// product back into a cosine (0 for a zero or non-finite vector).
pub(super) fn quantise(v: &[f32]) -> (Vec<i8>, f32) {
    let norm = v
        .iter()
        .map(|x| f64::from(*x) * f64::from(*x))
        .sum::<f64>()
        .sqrt();
    let peak = v.iter().fold(0.0f64, |m, x| m.max(f64::from(x.abs())));
    if !(norm > 0.0 && norm.is_finite() && peak > 0.0) {
        return (vec![0; v.len()], 0.0);
    }
    let step = peak / norm / 127.0;
    let codes = v
        .iter()
        .map(|x| (f64::from(*x) / norm / step).round().clamp(-127.0, 127.0) as i8)
        .collect();
    (codes, step as f32)
}

/// How many memories the sign prefilter hands to the 8-bit scores for a shortlist of
/// `size` among `live` memories: all of them while there are few; then at least 16 a
/// place on the shortlist, and at least one in 32 of the memories (the share of
/// near-ties at the cut grows with the count). The top 50 of 10⁵ memories come from a
/// pool of 3,125.
pub(super) fn prefilter_pool(size: usize, live: usize) -> usize {
    size.saturating_mul(16).max(live / 32)
}

/// 64-bit words a vector of `dims` dimensions takes as signs.
pub(super) fn sign_words(dims: usize) -> usize {
    dims.div_ceil(64)
}

/// A code vector's signs, one bit a dimension (1: positive), [`sign_words`] words.
pub(super) fn signs(codes: &[i8]) -> Vec<u64> {
    codes
        .chunks(64)
        .map(|c| {
            c.iter()
                .enumerate()
                .fold(0u64, |w, (i, x)| w | (u64::from(*x > 0) << i))
        })
        .collect()
}

/// The dot product of two code vectors of one length (codes are within ±127).
pub(super) trait Dot: Copy {
    fn dot(self, a: &[i8], b: &[i8]) -> i32;
}

/// Written plainly for the compiler to vectorise: each product fits 16 bits
/// (|127 × 127| < 2¹⁵), which lets it use 16-bit multiplies on every CPU.
#[derive(Clone, Copy)]
pub(super) struct PlainDot;

impl Dot for PlainDot {
    #[inline(always)]
    fn dot(self, a: &[i8], b: &[i8]) -> i32 {
        a.iter()
            .zip(b)
            .map(|(x, y)| i32::from(i16::from(*x) * i16::from(*y)))
            .sum()
    }
}

/// AVX2, 32 codes a step: `|a| × (b with a's sign)` multiplies unsigned by signed bytes
/// and adds neighbouring products in 16 bits (at most 2 × 127² < 2¹⁵: no saturation),
/// then pairs of those into 32 bits: half the instructions of what the compiler makes
/// of [`PlainDot`], which widens every byte first (the scan gained less: it mostly
/// waits for memory).
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(super) struct Avx2Dot(pub(super) pulp::x86::V3);

#[cfg(target_arch = "x86_64")]
impl Dot for Avx2Dot {
    #[inline(always)]
    fn dot(self, a: &[i8], b: &[i8]) -> i32 {
        use std::arch::x86_64::__m256i;
        let (avx, avx2) = (self.0.avx, self.0.avx2);
        let ones = avx._mm256_set1_epi16(1);
        let mut sum = avx._mm256_setzero_si256();
        let (a_blocks, a_rest) = a.as_chunks::<32>();
        let (b_blocks, b_rest) = b.as_chunks::<32>();
        for (x, y) in a_blocks.iter().zip(b_blocks) {
            let x: __m256i = pulp::cast(*x);
            let y: __m256i = pulp::cast(*y);
            let pairs =
                avx2._mm256_maddubs_epi16(avx2._mm256_sign_epi8(x, x), avx2._mm256_sign_epi8(y, x));
            sum = avx2._mm256_add_epi32(sum, avx2._mm256_madd_epi16(pairs, ones));
        }
        let lanes: [i32; 8] = pulp::cast(sum);
        lanes.iter().sum::<i32>() + PlainDot.dot(a_rest, b_rest)
    }
}

/// The 8-bit scan of a partition, as a [`pulp::WithSimd`] so that its loop is compiled
/// inside the function `dispatch` enables the CPU's vector instructions for (a closure
/// would be compiled apart, for the baseline instruction set).
pub(super) struct Scan<'a, D> {
    pub(super) part: &'a Partition,
    pub(super) filter: &'a Filter,
    pub(super) query: &'a [i8],
    pub(super) scale: f32,
    pub(super) size: usize,
    pub(super) dot: D,
}

impl<D: Dot> pulp::WithSimd for Scan<'_, D> {
    type Output = Vec<(f32, usize)>;

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _: S) -> Self::Output {
        let Scan {
            part,
            filter,
            query,
            scale,
            size,
            dot,
        } = self;
        let admitted = |slot: &Slot| slot.live && filter.admits(slot.visibility, slot.at);
        // Many memories: those whose signs agree best with the query's are scored.
        let pool = prefilter_pool(size, part.index.len());
        let pooled: Option<Vec<usize>> = (pool < part.index.len()).then(|| {
            let query_signs = signs(query);
            let mut agree: Vec<(u32, usize)> = Vec::with_capacity(part.index.len());
            for (i, slot) in part.slots.iter().enumerate() {
                if !admitted(slot) {
                    continue;
                }
                if let Some(a) =
                    slot.agreement(&part.signs, &part.scales, query.len(), &query_signs)
                {
                    agree.push((a, i));
                }
            }
            if agree.len() > pool {
                agree.select_nth_unstable_by(pool - 1, |a, b| b.0.cmp(&a.0));
                agree.truncate(pool);
            }
            // In arena order: the 8-bit codes are read forwards.
            let mut pooled: Vec<usize> = agree.into_iter().map(|(_, i)| i).collect();
            pooled.sort_unstable();
            pooled
        });
        let candidates: Box<dyn Iterator<Item = usize>> = match &pooled {
            Some(pooled) => Box::new(pooled.iter().copied()),
            None => Box::new(0..part.slots.len()),
        };
        let mut top: Vec<(f32, usize)> = Vec::with_capacity(2 * size + 1);
        let mut bar = f32::NEG_INFINITY;
        for i in candidates {
            let slot = &part.slots[i];
            if !admitted(slot) {
                continue;
            }
            let Some(score) = slot.best(dot, &part.codes, &part.scales, query, scale) else {
                continue;
            };
            if score < bar {
                continue;
            }
            top.push((score, i));
            // Keep the best `size`; re-cut when twice as many have gathered.
            if top.len() >= 2 * size {
                best_first(&mut top, size, |i| part.slots[i].key.as_str());
                bar = top.last().map_or(f32::NEG_INFINITY, |t| t.0);
            }
        }
        top
    }
}
