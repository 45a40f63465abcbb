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
//! Kept in step with every write, and bounded, by its cache (`cache/`): a user whose
//! vectors would not fit is searched by streaming them (`None` from [`VectorIndex::shortlist`]).

mod codes;
#[cfg(test)]
mod tests;

use std::collections::{BinaryHeap, HashMap};

use cosmo_core::domain::{Hit, SearchScope, Target};
use cosmo_core::graph::GraphResult;
use sqlx::sqlite::SqliteRow;
use sqlx::{Row, SqlitePool};

use self::codes::{Avx2Dot, Dot, PlainDot, Scan, Slot, quantise, sign_words, signs};
use super::cache::{Cache, Filter, Part, best_first};
use super::{Scored, best_passage, cosine_bytes};

/// Every stored vector of a user's memories of one kind, whatever their state and time
/// (`$1` user); with `keys`, only those among `$2` (a JSON array).
macro_rules! user_docs {
    (source $(, $keys:literal)?) => {
        concat!(
            // The user's participations first (CROSS JOIN fixes the order in SQLite):
            // led by `search_docs`, the planner reads every user's Sources.
            "SELECT d.key, d.visibility, d.at, d.embedding, d.passages
             FROM source_participants p CROSS JOIN search_docs d
               ON d.target = 'source' AND d.key = p.source_key
             WHERE p.user_id = $1 AND d.embedding IS NOT NULL"
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
pub(super) fn docs_sql(target: Target, some: bool) -> &'static str {
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
