//! The vectors vector search reads, held in memory: per user and kind of memory, every
//! vector that user's search may score (a memory's own, and a Source's passages),
//! normalised and quantised to 8 bits (384 bytes for a 384-d vector, a quarter of the
//! stored `f32`s), and as signs (a bit a dimension). A search scans them for its
//! candidates, then scores those exactly from the stored vectors, so it returns what a
//! scan of the stored vectors returns as long as the exact top `limit` is among the
//! [`shortlist`] best by the 8-bit scores (quantisation moves a cosine by about 0.002).
//! Among many memories the 8-bit scores are computed only for the pool whose signs
//! agree best with the query's ([`prefilter_pool`]): reading the codes of every memory
//! is what a search waits for (memory, not arithmetic, is the limit), and the signs
//! are an eighth of them. What that costs in recall is measured by `cosmo-bench
//! explore` (the top 50 against exact search).
//!
//! Kept in step with every write, and bounded, by the cache it lives in (`cache/`):
//! a user whose vectors alone would not fit the budget is searched by streaming the
//! stored vectors instead (`None` from [`VectorIndex::shortlist`]).

use std::collections::{BinaryHeap, HashMap};

use sqlx::sqlite::SqliteRow;
use sqlx::{Row, SqlitePool};

use super::cache::{Cache, Filter, Part, best_first};
use super::{Scored, best_passage, cosine_bytes};
use crate::domain::{Hit, SearchScope, Target};
use crate::graph::GraphResult;

/// Every stored vector of a user's memories of one kind, whatever their state and time
/// (`$1` user); with `keys`, only those among `$2` (a JSON array).
macro_rules! user_docs {
    (source $(, $keys:literal)?) => {
        concat!(
            "SELECT d.key, d.visibility, d.at, d.embedding, d.passages FROM search_docs d
             JOIN source_participants p ON p.source_key = d.key AND p.user_id = $1
             WHERE d.target = 'source' AND d.embedding IS NOT NULL"
            $(, $keys)?
        )
    };
    ($target:literal $(, $keys:literal)?) => {
        concat!(
            "SELECT d.key, d.visibility, d.at, d.embedding, d.passages FROM search_docs d
             WHERE d.user_id = $1 AND d.target = '",
            $target,
            "' AND d.embedding IS NOT NULL"
            $(, $keys)?
        )
    };
}

/// `user_docs!` for `target`, of every memory (`false`) or of the keys in `$2` (`true`).
fn docs_sql(target: Target, some: bool) -> &'static str {
    macro_rules! both {
        ($($t:tt)+) => {
            if some {
                user_docs!($($t)+, " AND d.key IN (SELECT value FROM json_each($2))")
            } else {
                user_docs!($($t)+)
            }
        };
    }
    match target {
        Target::Source => both!(source),
        Target::Node => both!("node"),
        Target::Storyline => both!("storyline"),
        Target::Macro => both!("macro"),
        Target::Fact => both!("fact"),
    }
}

/// How many candidates the 8-bit scan hands to exact scoring for a search of `limit`.
pub(super) fn shortlist(limit: usize) -> usize {
    limit.saturating_mul(2).saturating_add(16)
}

/// One memory's vectors as read from its row: its own first, then its passages', each
/// normalised and quantised (`codes`, `dims` bytes a vector; `scales[i]` turns vector
/// i's code dot products back into a cosine, 0 for a zero vector, never a candidate).
pub(super) struct Entry {
    visibility: i64,
    at: i64,
    dims: usize,
    codes: Vec<i8>,
    scales: Vec<f32>,
    /// Each vector's signs, [`sign_words`] words a vector.
    signs: Vec<u64>,
}

impl Entry {
    /// From a stored row; `None` when its own vector is unreadable (as the exact scan
    /// skips it). Passages count only when they are whole vectors of its length.
    fn from_row(row: &SqliteRow) -> sqlx::Result<Option<(String, Entry)>> {
        let own: &[u8] = row.try_get("embedding")?;
        if own.is_empty() || !own.len().is_multiple_of(4) {
            return Ok(None);
        }
        let dims = own.len() / 4;
        let passages: Option<&[u8]> = row.try_get("passages")?;
        let passages = passages.filter(|p| p.len().is_multiple_of(dims * 4));
        let mut entry = Entry {
            visibility: row.try_get("visibility")?,
            at: row.try_get("at")?,
            dims,
            codes: Vec::new(),
            scales: Vec::new(),
            signs: Vec::new(),
        };
        for vector in
            std::iter::once(own).chain(passages.into_iter().flat_map(|p| p.chunks_exact(dims * 4)))
        {
            let values: Vec<f32> = vector
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            let (codes, scale) = quantise(&values);
            entry.signs.extend(signs(&codes));
            entry.codes.extend(codes);
            entry.scales.push(scale);
        }
        Ok(Some((row.try_get("key")?, entry)))
    }
}

/// Where a memory's vectors are in its partition's arena.
struct Slot {
    key: String,
    visibility: i64,
    at: i64,
    dims: usize,
    /// Its first vector's place in `scales` (its codes start at `first × dims` bytes
    /// into `codes` only when every vector has the same length: hence `offset`).
    first: usize,
    offset: usize,
    /// Its first vector's signs in `signs`.
    signs_at: usize,
    count: usize,
    /// False once replaced or deleted (its space is reclaimed by compaction).
    live: bool,
}

impl Slot {
    /// The best 8-bit cosine of its vectors and the query: `None` when its own vector
    /// cannot be scored (another length, zero).
    #[inline(always)]
    fn best(
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
    fn agreement(&self, signs: &[u64], scales: &[f32], dims: usize, query: &[u64]) -> Option<u32> {
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
fn quantise(v: &[f32]) -> (Vec<i8>, f32) {
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
fn prefilter_pool(size: usize, live: usize) -> usize {
    size.saturating_mul(16).max(live / 32)
}

/// 64-bit words a vector of `dims` dimensions takes as signs.
fn sign_words(dims: usize) -> usize {
    dims.div_ceil(64)
}

/// A code vector's signs, one bit a dimension (1: positive), [`sign_words`] words.
fn signs(codes: &[i8]) -> Vec<u64> {
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
trait Dot: Copy {
    fn dot(self, a: &[i8], b: &[i8]) -> i32;
}

/// Written plainly for the compiler to vectorise: each product fits 16 bits
/// (|127 × 127| < 2¹⁵), which lets it use 16-bit multiplies on every CPU.
#[derive(Clone, Copy)]
struct PlainDot;

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
struct Avx2Dot(pulp::x86::V3);

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

/// A slot, its key (twice: in the slot and in the index) and its index entry, about.
const SLOT_BYTES: usize = 320;

/// One user's memories of one kind: their vectors in one arena, scanned in order.
#[derive(Default)]
pub(super) struct Partition {
    slots: Vec<Slot>,
    /// Key → its live slot.
    index: HashMap<String, usize>,
    codes: Vec<i8>,
    scales: Vec<f32>,
    signs: Vec<u64>,
    /// Code bytes of slots no longer live.
    dead: usize,
}

impl Partition {
    /// Memory held: the arena, and each slot with its key and index entry.
    fn bytes(&self) -> usize {
        self.codes.capacity()
            + 4 * self.scales.capacity()
            + 8 * self.signs.capacity()
            + SLOT_BYTES * self.slots.capacity()
    }

    /// Replaces (or, with `None`, removes) the vectors of `key`.
    fn put(&mut self, key: String, entry: Option<Entry>) {
        if let Some(old) = self.index.remove(&key) {
            let slot = &mut self.slots[old];
            slot.live = false;
            self.dead += slot.count * slot.dims;
        }
        if let Some(e) = entry {
            self.index.insert(key.clone(), self.slots.len());
            self.slots.push(Slot {
                key,
                visibility: e.visibility,
                at: e.at,
                dims: e.dims,
                first: self.scales.len(),
                offset: self.codes.len(),
                signs_at: self.signs.len(),
                count: e.scales.len(),
                live: true,
            });
            self.codes.extend(e.codes);
            self.scales.extend(e.scales);
            self.signs.extend(e.signs);
        }
        if self.dead > 64 << 10 && self.dead > self.codes.len() / 4 {
            self.compact();
        }
    }

    /// Drops the space of slots no longer live.
    fn compact(&mut self) {
        let (old_codes, old_scales, old_signs) = (
            std::mem::take(&mut self.codes),
            std::mem::take(&mut self.scales),
            std::mem::take(&mut self.signs),
        );
        self.slots.retain(|s| s.live);
        self.index.clear();
        for (i, slot) in self.slots.iter_mut().enumerate() {
            let codes = &old_codes[slot.offset..slot.offset + slot.count * slot.dims];
            let scales = &old_scales[slot.first..slot.first + slot.count];
            let signs =
                &old_signs[slot.signs_at..slot.signs_at + slot.count * sign_words(slot.dims)];
            slot.offset = self.codes.len();
            slot.first = self.scales.len();
            slot.signs_at = self.signs.len();
            self.codes.extend_from_slice(codes);
            self.scales.extend_from_slice(scales);
            self.signs.extend_from_slice(signs);
            self.index.insert(slot.key.clone(), i);
        }
        self.dead = 0;
        self.shrink();
    }

    /// Gives back the arena's spare capacity (it grows by doubling).
    fn shrink(&mut self) {
        self.codes.shrink_to_fit();
        self.scales.shrink_to_fit();
        self.signs.shrink_to_fit();
        self.slots.shrink_to_fit();
    }

    /// The shortlist by 8-bit scores, best first (ties: by key), among the memories
    /// within `filter`.
    fn shortlist(&self, filter: &Filter, query: &[f32], size: usize) -> Vec<String> {
        let (query, scale) = quantise(query);
        if scale == 0.0 || size == 0 {
            return Vec::new();
        }
        fn scan<'a, D: Dot>(
            part: &'a Partition,
            filter: &'a Filter,
            query: &'a [i8],
            scale: f32,
            size: usize,
            dot: D,
        ) -> Scan<'a, D> {
            Scan {
                part,
                filter,
                query,
                scale,
                size,
                dot,
            }
        }
        // Compiled for the best vector instructions the CPU has, chosen when it runs:
        // AVX2's byte multiplies where there are, else what the compiler makes of the
        // plain loop for the instructions there are.
        #[cfg(target_arch = "x86_64")]
        let mut best = match pulp::x86::V3::try_new() {
            Some(simd) => {
                pulp::Simd::vectorize(simd, scan(self, filter, &query, scale, size, Avx2Dot(simd)))
            }
            None => pulp::Arch::new().dispatch(scan(self, filter, &query, scale, size, PlainDot)),
        };
        #[cfg(not(target_arch = "x86_64"))]
        let mut best =
            pulp::Arch::new().dispatch(scan(self, filter, &query, scale, size, PlainDot));
        best_first(&mut best, size, |i| self.slots[i].key.as_str());
        best.into_iter()
            .map(|(_, i)| self.slots[i].key.clone())
            .collect()
    }
}

/// The 8-bit scan of a partition, as a [`pulp::WithSimd`] so that its loop is compiled
/// inside the function `dispatch` enables the CPU's vector instructions for (a closure
/// would be compiled apart, for the baseline instruction set).
struct Scan<'a, D> {
    part: &'a Partition,
    filter: &'a Filter,
    query: &'a [i8],
    scale: f32,
    size: usize,
    dot: D,
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

impl Part for Partition {
    type Entry = Entry;

    fn rows_sql(target: Target, some: bool) -> &'static str {
        docs_sql(target, some)
    }

    /// A byte a dimension, a bit of sign a dimension, 4 bytes of scale a vector (at
    /// most a sixteenth of the codes for vectors of 16 dimensions and more), and a slot
    /// per memory. (`length` of a blob reads no page of it.)
    fn size_sql(target: Target) -> String {
        format!(
            "SELECT codes + codes / 8 + codes / 16 + rows * {SLOT_BYTES} FROM (
               SELECT coalesce(sum(length(embedding) + coalesce(length(passages), 0)), 0) / 4
                        AS codes,
                      count(*) AS rows
               FROM ({}))",
            docs_sql(target, false)
        )
    }

    fn from_row(_: Target, row: &SqliteRow) -> sqlx::Result<Option<(String, Entry)>> {
        Entry::from_row(row)
    }

    fn put(&mut self, key: String, entry: Option<Entry>) {
        Partition::put(self, key, entry);
    }

    fn bytes(&self) -> usize {
        Partition::bytes(self)
    }

    fn shrink(&mut self) {
        Partition::shrink(self);
    }
}

/// Every user's vectors this process holds.
pub(crate) struct VectorIndex(Cache<Partition>);

impl std::fmt::Debug for VectorIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VectorIndex")
            .field("budget", &self.0.budget())
            .finish_non_exhaustive()
    }
}

impl VectorIndex {
    /// An index holding at most `budget` bytes of vectors; 0: none (every search
    /// streams the stored vectors).
    pub(crate) fn new(budget: usize) -> Self {
        Self(Cache::new(budget))
    }

    /// How many times a partition was loaded whole.
    pub(crate) fn loads(&self) -> u64 {
        self.0.loads()
    }

    /// Memory held now, in bytes.
    pub(crate) fn bytes(&self) -> usize {
        self.0.bytes()
    }

    /// The memories to score exactly for `scope`'s user, best first by 8-bit scores;
    /// `None` when that user's vectors do not fit the budget.
    pub(crate) async fn shortlist(
        &self,
        pool: &SqlitePool,
        scope: &SearchScope,
        target: Target,
        query: &[f32],
        size: usize,
    ) -> GraphResult<Option<Vec<String>>> {
        let Some(state) = self.0.read(pool, &scope.user_id, target).await? else {
            return Ok(None);
        };
        let (filter, query) = (Filter::of(scope), query.to_vec());
        // The scan is CPU work: off the async threads.
        let shortlist =
            tokio::task::spawn_blocking(move || state.part.shortlist(&filter, &query, size))
                .await
                .map_err(anyhow::Error::from)?;
        Ok(Some(shortlist))
    }

    /// Drops what the index holds of `user_id` (after erasing the user).
    pub(crate) fn forget_user(&self, user_id: &str) {
        self.0.forget_user(user_id);
    }

    /// Drops what the index holds of `user_id`'s memories of `target`.
    pub(crate) fn forget(&self, user_id: &str, target: Target) {
        self.0.forget(user_id, target);
    }
}

/// Scores one stored row (own vector, then passages) into the bounded heap `top`.
pub(super) fn score_row(
    row: &SqliteRow,
    embedding: &[f32],
    norm: f64,
    limit: usize,
    top: &mut BinaryHeap<Scored>,
) -> sqlx::Result<()> {
    let bytes: &[u8] = row.try_get("embedding")?;
    // Passages are read only when the summary's vector has the query's length: then
    // every passage vector has it too.
    let Some(summary) = cosine_bytes(bytes, embedding, norm) else {
        return Ok(());
    };
    let passages: Option<&[u8]> = row.try_get("passages")?;
    let (score, passage) = match passages.and_then(|p| best_passage(p, embedding, norm)) {
        Some((best, ordinal)) if best > summary => (best, Some(ordinal)),
        _ => (summary, None),
    };
    // The best `limit` by score, ties by key: the same whatever order the rows come in.
    let scored = Scored(score, row.try_get("key")?, passage);
    if top.len() < limit {
        top.push(scored);
    } else if top.peek().is_some_and(|worst| scored < *worst) {
        top.pop();
        top.push(scored);
    }
    Ok(())
}

pub(super) fn into_hits(top: BinaryHeap<Scored>) -> Vec<Hit> {
    top.into_sorted_vec()
        .into_iter()
        .map(|Scored(score, key, passage)| Hit {
            key,
            score,
            passage,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantised_cosines_are_close_to_exact_ones() {
        let a: Vec<f32> = (0..384)
            .map(|i| ((i * 37 % 101) as f32 - 50.0) / 7.0)
            .collect();
        let b: Vec<f32> = (0..384)
            .map(|i| ((i * 53 % 97) as f32 - 40.0) / 3.0)
            .collect();
        let exact = {
            let d: f64 = a
                .iter()
                .zip(&b)
                .map(|(x, y)| f64::from(*x) * f64::from(*y))
                .sum();
            let n = |v: &[f32]| v.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
            d / (n(&a) * n(&b))
        };
        let (qa, sa) = quantise(&a);
        let (qb, sb) = quantise(&b);
        let approx = f64::from(PlainDot.dot(&qa, &qb) as f32 * sa * sb);
        assert!((approx - exact).abs() < 0.01, "{approx} vs {exact}");
        let (zero, scale) = quantise(&[0.0; 8]);
        assert_eq!((zero, scale), (vec![0; 8], 0.0));
    }

    /// The AVX2 products equal the plain ones, at the extreme codes (±127 everywhere:
    /// the largest sums of neighbouring products) and for lengths not a multiple of 32.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_dot_products_equal_plain_ones() {
        let Some(simd) = pulp::x86::V3::try_new() else {
            eprintln!("this CPU has no AVX2: nothing to compare");
            return;
        };
        let mut seed = 7u64;
        let mut code = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (((seed >> 33) % 255) as i16 - 127) as i8
        };
        for len in [0, 1, 31, 32, 33, 384, 385, 1000] {
            let a: Vec<i8> = (0..len).map(|_| code()).collect();
            let b: Vec<i8> = (0..len).map(|_| code()).collect();
            assert_eq!(
                Avx2Dot(simd).dot(&a, &b),
                PlainDot.dot(&a, &b),
                "length {len}"
            );
            for (x, y) in [(127, 127), (-127, -127), (127, -127), (-127, 127)] {
                let (a, b) = (vec![x; len], vec![y; len]);
                let want = i32::from(x) * i32::from(y) * len as i32;
                assert_eq!(Avx2Dot(simd).dot(&a, &b), want, "{x}·{y}, length {len}");
                assert_eq!(PlainDot.dot(&a, &b), want);
            }
        }
    }

    /// Among many memories (the sign prefilter at work) the shortlist still holds the
    /// exact top 50: sentences of mixed words embedded by the offline model, questions
    /// of other words, the shortlist of a search of 50 against an exact f32 scan.
    #[test]
    fn the_sign_prefilter_keeps_the_exact_top_50() {
        const WORDS: &[&str] = &[
            "budget",
            "hiking",
            "deadline",
            "dentist",
            "garden",
            "piano",
            "invoice",
            "flight",
            "recipe",
            "server",
            "migration",
            "birthday",
            "contract",
            "vacation",
            "lease",
            "painting",
            "marathon",
            "tax",
            "wedding",
            "launch",
            "sprint",
            "grant",
            "camera",
            "bicycle",
            "therapy",
            "mortgage",
            "novel",
            "concert",
            "kitchen",
            "election",
            "puppy",
            "insurance",
            "database",
            "podcast",
            "harvest",
            "museum",
            "salary",
            "allergy",
            "telescope",
            "festival",
        ];
        let mut seed = 3u64;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        let mut sentence = |len: usize| {
            (0..len)
                .map(|_| WORDS[next(WORDS.len())])
                .collect::<Vec<_>>()
                .join(" ")
        };
        let texts: Vec<String> = (0..6000).map(|_| sentence(6)).collect();
        let vectors: Vec<Vec<f32>> = texts
            .iter()
            .map(|t| crate::llm::offline::embed::embed(t, 384))
            .collect();
        let mut part = Partition::default();
        for (i, v) in vectors.iter().enumerate() {
            let (codes, scale) = quantise(v);
            let entry = Entry {
                visibility: 0,
                at: 0,
                dims: v.len(),
                signs: signs(&codes),
                codes,
                scales: vec![scale],
            };
            part.put(format!("m{i:05}"), Some(entry));
        }
        let filter = Filter {
            visibility: 0,
            since: i64::MIN,
            until: i64::MAX,
        };
        assert!(prefilter_pool(shortlist(50), part.index.len()) < part.index.len());
        let (mut kept, mut wanted) = (0, 0);
        for _ in 0..40 {
            let query = crate::llm::offline::embed::embed(&sentence(3), 384);
            let listed = part.shortlist(&filter, &query, shortlist(50));
            let mut exact: Vec<(f64, usize)> = vectors
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    let dot: f64 = v.iter().zip(&query).map(|(a, b)| f64::from(a * b)).sum();
                    (dot, i)
                })
                .collect();
            exact.sort_by(|a, b| b.0.total_cmp(&a.0));
            for (_, i) in &exact[..50] {
                wanted += 1;
                kept += usize::from(listed.contains(&format!("m{i:05}")));
            }
        }
        let recall = kept as f64 / wanted as f64;
        assert!(recall >= 0.98, "recall of the exact top 50: {recall}");
    }
}
