//! Full-text search from memory: per user and kind of memory, an inverted index of the
//! searched text (a Source's summary, content and keywords; a node's name and
//! description; a Storyline's or Macro's description; a fact's text and value) that
//! ranks by BM25 over that user's memories alone.
//!
//! Why not FTS5's own ranking: an FTS5 query scores every row that shares a word with
//! it (hundreds of milliseconds when a user has 10⁵ Sources and the query's words are
//! common), and its statistics (how rare a word is, how long a document is on average)
//! are those of every user's rows in the file. Here a query reads only the user's
//! postings of its words, and a word's weight is how rare it is among that user's
//! memories: another tenant's writing changes nothing in a user's ranking.
//!
//! **Words and score** are [`cosmo_core::graph::text_rank`]'s, shared with the Neo4j store:
//! BM25 over the user's memories of the kind, column-weighted word frequencies.
//!
//! **In step and bounded** by the cache it lives in (`cache/`). An erased memory's
//! key and its words are dropped from memory at once (a word no other memory holds
//! leaves the vocabulary); what remains until the next compaction is the numbers of
//! its postings. A user whose text would not fit the budget is searched through FTS5
//! (`None` from [`TextIndex::search`]).

mod rows;
#[cfg(test)]
mod tests;

use std::collections::HashMap;

use cosmo_core::domain::{Hit, SearchScope, Target};
use cosmo_core::graph::GraphResult;
use cosmo_core::graph::text_rank::{avg_len, idf, norm, query_words, term_score};
use sqlx::SqlitePool;
use sqlx::sqlite::SqliteRow;

use self::rows::Entry;
pub(super) use self::rows::rows_sql;
use super::cache::{Cache, Filter, Part, best_first};

/// A memory's place in its part beyond its postings: key, filter fields, term list.
const DOC_BYTES: usize = 96;
/// A posting (8 bytes) and the term id in its memory's list (4).
const POSTING_BYTES: usize = 12;

struct Doc {
    /// Emptied when the memory is replaced or deleted.
    key: String,
    visibility: i64,
    at: i64,
    len: u32,
    /// Its words' ids.
    terms: Vec<u32>,
    live: bool,
}

#[derive(Default)]
struct Term {
    word: Box<str>,
    /// Live memories holding it.
    df: u32,
    /// (memory, weighted frequency); may name memories no longer live.
    postings: Vec<(u32, f32)>,
}

/// One user's memories of one kind.
#[derive(Default)]
pub(super) struct Postings {
    docs: Vec<Doc>,
    /// Key → its live memory.
    by_key: HashMap<String, u32>,
    terms: Vec<Term>,
    vocabulary: HashMap<Box<str>, u32>,
    /// Term ids no word holds now, for reuse.
    free: Vec<u32>,
    live: usize,
    total_len: u64,
    /// Postings of memories no longer live (dropped by compaction).
    dead_postings: usize,
    postings: usize,
}

impl Postings {
    fn remove(&mut self, key: &str) {
        let Some(id) = self.by_key.remove(key) else {
            return;
        };
        let doc = &mut self.docs[id as usize];
        doc.live = false;
        doc.key = String::new();
        self.live -= 1;
        self.total_len -= u64::from(doc.len);
        self.dead_postings += doc.terms.len();
        for tid in std::mem::take(&mut doc.terms) {
            let term = &mut self.terms[tid as usize];
            term.df -= 1;
            if term.df == 0 {
                // The word leaves memory with the last memory that held it.
                self.vocabulary.remove(&term.word);
                self.postings -= term.postings.len();
                self.dead_postings -= term.postings.len();
                *term = Term::default();
                self.free.push(tid);
            }
        }
    }

    fn insert(&mut self, key: String, entry: Entry) {
        let id = u32::try_from(self.docs.len()).expect("fewer than 2³² memories a user");
        let mut terms = Vec::with_capacity(entry.words.len());
        for (word, frequency) in entry.words {
            let tid = match self.vocabulary.get(word.as_str()) {
                Some(tid) => *tid,
                None => {
                    let word: Box<str> = word.into();
                    let tid = match self.free.pop() {
                        Some(tid) => tid,
                        None => {
                            self.terms.push(Term::default());
                            u32::try_from(self.terms.len() - 1).expect("fewer than 2³² words")
                        }
                    };
                    self.terms[tid as usize].word = word.clone();
                    self.vocabulary.insert(word, tid);
                    tid
                }
            };
            let term = &mut self.terms[tid as usize];
            term.df += 1;
            term.postings.push((id, frequency));
            terms.push(tid);
        }
        self.postings += terms.len();
        self.live += 1;
        self.total_len += u64::from(entry.len);
        self.by_key.insert(key.clone(), id);
        self.docs.push(Doc {
            key,
            visibility: entry.visibility,
            at: entry.at,
            len: entry.len,
            terms,
            live: true,
        });
    }

    /// Drops replaced and deleted memories and their postings, renumbering the rest.
    fn compact(&mut self) {
        let mut new_id = vec![u32::MAX; self.docs.len()];
        let mut next = 0u32;
        for (old, doc) in self.docs.iter().enumerate() {
            if doc.live {
                new_id[old] = next;
                next += 1;
            }
        }
        self.docs.retain(|d| d.live);
        for (i, doc) in self.docs.iter().enumerate() {
            self.by_key.insert(doc.key.clone(), i as u32);
        }
        for term in &mut self.terms {
            term.postings.retain_mut(|(doc, _)| {
                *doc = new_id[*doc as usize];
                *doc != u32::MAX
            });
        }
        self.postings -= self.dead_postings;
        self.dead_postings = 0;
        Part::shrink(self);
    }

    /// The best `limit` memories within `filter` for the query words (each one word or
    /// the parts of one), best first, ties by key; only memories matching a word.
    fn search(&self, filter: &Filter, query: &[Vec<String>], limit: usize) -> Vec<(String, f64)> {
        if self.live == 0 || limit == 0 {
            return Vec::new();
        }
        let n = self.live as f64;
        let avg = avg_len(n, self.total_len);
        // Each memory's length part of the BM25 denominator, once per query (postings
        // of common words name most memories).
        let norm: Vec<f32> = self.docs.iter().map(|d| norm(d.len, avg)).collect();
        let mut score = vec![0.0f32; self.docs.len()];
        let mut seen: Vec<Vec<u32>> = Vec::new();
        for parts in query {
            let Some(ids) = parts
                .iter()
                .map(|w| self.vocabulary.get(w.as_str()).copied())
                .collect::<Option<Vec<u32>>>()
                .filter(|ids| !ids.is_empty())
            else {
                continue;
            };
            if seen.contains(&ids) {
                continue;
            }
            if let [tid] = ids[..] {
                // One word: its live memories are counted as they change. Postings of
                // memories no longer live add to scores never read (below).
                let term = &self.terms[tid as usize];
                let idf = idf(n, f64::from(term.df));
                for &(doc, f) in &term.postings {
                    score[doc as usize] += term_score(idf, f, norm[doc as usize]);
                }
            } else {
                self.score_compound(&ids, n, &norm, &mut score);
            }
            seen.push(ids);
        }
        let mut found: Vec<(f32, u32)> = score
            .iter()
            .enumerate()
            .filter(|(i, s)| {
                let d = &self.docs[*i];
                **s > 0.0 && d.live && filter.admits(d.visibility, d.at)
            })
            .map(|(i, s)| (*s, i as u32))
            .collect();
        best_first(&mut found, limit, |i| self.docs[i as usize].key.as_str());
        found
            .into_iter()
            .map(|(s, i)| (self.docs[i as usize].key.clone(), f64::from(s)))
            .collect()
    }

    /// Adds the scores of a word made of several (`ids`): the live memories holding
    /// every part, with the least frequency among them.
    fn score_compound(&self, ids: &[u32], n: f64, norm: &[f32], score: &mut [f32]) {
        let rarest = *ids
            .iter()
            .min_by_key(|t| self.terms[**t as usize].df)
            .expect("not empty");
        let mut matched = Vec::new();
        for &(doc, frequency) in &self.terms[rarest as usize].postings {
            if !self.docs[doc as usize].live {
                continue;
            }
            let f = ids
                .iter()
                .filter(|t| **t != rarest)
                .try_fold(frequency, |f, &other| {
                    self.frequency(other, doc).map(|g| f.min(g))
                });
            if let Some(f) = f {
                matched.push((doc, f));
            }
        }
        let idf = idf(n, matched.len() as f64);
        for (doc, f) in matched {
            score[doc as usize] += term_score(idf, f, norm[doc as usize]);
        }
    }

    /// How often the word `tid` is in memory `doc` (weighted), if it is.
    fn frequency(&self, tid: u32, doc: u32) -> Option<f32> {
        // A memory's own term list is sorted by word, not by id: search the postings,
        // which are in memory order (ids only grow between compactions).
        let postings = &self.terms[tid as usize].postings;
        postings
            .binary_search_by_key(&doc, |p| p.0)
            .ok()
            .map(|i| postings[i].1)
    }
}

impl Part for Postings {
    type Entry = Entry;

    fn rows_sql(target: Target, some: bool) -> &'static str {
        rows_sql(target, some)
    }

    /// About: each word of the text a posting, and a record per memory.
    fn size_sql(target: Target) -> String {
        format!(
            "SELECT coalesce(sum(length(c0) + length(c1) + length(c2)), 0) * {POSTING_BYTES} / 8
                    + count(*) * {DOC_BYTES}
             FROM ({})",
            rows_sql(target, false)
        )
    }

    fn from_row(target: Target, row: &SqliteRow) -> sqlx::Result<Option<(String, Entry)>> {
        Entry::from_row(target, row).map(Some)
    }

    fn put(&mut self, key: String, entry: Option<Entry>) {
        self.remove(&key);
        if let Some(entry) = entry {
            self.insert(key, entry);
        }
        if self.dead_postings > 64 << 10 && self.dead_postings > self.postings / 4 {
            self.compact();
        }
    }

    fn bytes(&self) -> usize {
        self.postings * POSTING_BYTES
            + self.docs.capacity() * DOC_BYTES
            + self.terms.iter().map(|t| t.word.len() + 40).sum::<usize>()
    }

    fn shrink(&mut self) {
        self.docs.shrink_to_fit();
        self.terms.shrink_to_fit();
        for term in &mut self.terms {
            term.postings.shrink_to_fit();
        }
    }
}

/// Every user's text this process holds.
pub(crate) struct TextIndex(Cache<Postings>);

impl std::fmt::Debug for TextIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TextIndex")
            .field("budget", &self.0.budget())
            .finish_non_exhaustive()
    }
}

impl TextIndex {
    /// An index holding at most `budget` bytes; 0: none (every search goes to FTS5).
    pub(crate) fn new(budget: usize) -> Self {
        Self(Cache::new(budget))
    }

    /// How many times a user's text was loaded whole.
    pub(crate) fn loads(&self) -> u64 {
        self.0.loads()
    }

    /// Memory held now, in bytes.
    pub(crate) fn bytes(&self) -> usize {
        self.0.bytes()
    }

    /// The best `limit` memories of `target` in `scope` for the query words, best
    /// first; `None` when the user's text does not fit the budget.
    pub(crate) async fn search(
        &self,
        pool: &SqlitePool,
        scope: &SearchScope,
        target: Target,
        terms: &[String],
        limit: usize,
    ) -> GraphResult<Option<Vec<Hit>>> {
        let Some(state) = self.0.read(pool, &scope.user_id, target).await? else {
            return Ok(None);
        };
        let query = query_words(terms);
        let filter = Filter::of(scope);
        // Scoring is CPU work: off the async threads.
        let found = tokio::task::spawn_blocking(move || state.part.search(&filter, &query, limit))
            .await
            .map_err(anyhow::Error::from)?;
        Ok(Some(
            found
                .into_iter()
                .map(|(key, score)| Hit {
                    key,
                    score,
                    passage: None,
                })
                .collect(),
        ))
    }

    /// Drops what the index holds of `user_id` (after erasing the user).
    pub(crate) fn forget_user(&self, user_id: &str) {
        self.0.forget_user(user_id);
    }
}
