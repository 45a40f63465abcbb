//! The SQL of search: a scope's documents (`docs!`), its vectors (`vector_sql!`), its
//! full-text matches (`text_sql!`) and each target's graph neighbours. Table and column
//! names are literals picked by target: SQL text is never built from input.

/// The documents of a user, of one target, visible in the scope (`$1` user, `$2` highest
/// visibility, `$3`/`$4` time range). A team Source is visible to every participant.
macro_rules! docs {
    (source) => {
        "search_docs d JOIN source_participants p ON p.source_key = d.key AND p.user_id = $1
         WHERE d.target = 'source' AND d.visibility <= $2 AND d.at >= $3 AND d.at < $4"
    };
    ($target:literal) => {
        concat!(
            "search_docs d WHERE d.user_id = $1 AND d.target = '",
            $target,
            "' AND d.visibility <= $2 AND d.at >= $3 AND d.at < $4"
        )
    };
}

/// The scope's vectors; with `KEYS`, only those of the keys in `$5` (a JSON array).
macro_rules! vector_sql {
    ($docs:tt, KEYS) => {
        concat!(
            vector_sql!($docs),
            " AND d.key IN (SELECT value FROM json_each($5))"
        )
    };
    // The user's participations first (CROSS JOIN fixes SQLite's join order): led by
    // `search_docs`, the planner reads every user's Sources.
    (source) => {
        "SELECT d.key, d.embedding, d.passages
         FROM source_participants p CROSS JOIN search_docs d
           ON d.target = 'source' AND d.key = p.source_key
         WHERE p.user_id = $1 AND d.visibility <= $2 AND d.at >= $3 AND d.at < $4
           AND d.embedding IS NOT NULL"
    };
    ($docs:tt) => {
        concat!(
            "SELECT d.key, d.embedding, d.passages FROM ",
            docs!($docs),
            " AND d.embedding IS NOT NULL"
        )
    };
}

/// `$5` is the FTS5 query, `$6` the limit. bm25 is lower-is-better: the score is its
/// negation. Column weights favour names and summaries.
macro_rules! text_sql {
    ($fts:literal, $weights:literal, $($docs:tt)+) => {
        // The match is materialised first: joined directly, the planner may loop over
        // the user's documents and re-run the whole full-text query for each one.
        concat!(
            "WITH m AS MATERIALIZED (SELECT rowid AS doc_id, -bm25(", $fts, $weights,
            ") AS score FROM ", $fts, " WHERE ", $fts, " MATCH $5)
             SELECT d.key, m.score AS score FROM m JOIN ", docs!($($docs)+),
            " AND d.doc_id = m.doc_id
             ORDER BY score DESC, d.key LIMIT $6"
        )
    };
}

/// Scope parameters `$1`–`$4`, seeds as a JSON array in `$5`, limit `$6`.
pub(super) const SOURCE_NEIGHBOURS: &str = concat!(
    "SELECT m.source_key AS key, CAST(count(*) AS REAL) AS score, json_group_array(m.entity_key) AS via
     FROM mentions m JOIN ",
    docs!(source),
    " AND d.key = m.source_key AND m.user_id = $1
       AND m.entity_key IN (SELECT value FROM json_each($5))
     GROUP BY m.source_key ORDER BY score DESC, max(d.at) DESC, m.source_key LIMIT $6"
);

pub(super) const NODE_NEIGHBOURS: &str = concat!(
    "SELECT x.other AS key, CAST(sum(x.strength) AS REAL) AS score, json_group_array(x.seed) AS via
     FROM (SELECT r.to_key AS other, r.from_key AS seed, r.strength FROM relationships r
           WHERE r.user_id = $1 AND r.from_key IN (SELECT value FROM json_each($5))
             AND (r.state <> 'archived' OR $2 >= 1)
           UNION ALL
           SELECT r.from_key, r.to_key, r.strength FROM relationships r
           WHERE r.user_id = $1 AND r.to_key IN (SELECT value FROM json_each($5))
             AND (r.state <> 'archived' OR $2 >= 1)) x
     JOIN ",
    docs!("node"),
    " AND d.key = x.other AND x.other NOT IN (SELECT value FROM json_each($5))
     GROUP BY x.other ORDER BY score DESC, x.other LIMIT $6"
);

pub(super) const STORYLINE_NEIGHBOURS: &str = concat!(
    "SELECT s.storyline_id AS key, 1.0 AS score, json_array(s.anchor_key) AS via
     FROM storylines s JOIN ",
    docs!("storyline"),
    " AND d.key = s.storyline_id AND s.anchor_key IN (SELECT value FROM json_each($5))
     ORDER BY d.at DESC, s.storyline_id LIMIT $6"
);

pub(super) const MACRO_NEIGHBOURS: &str = concat!(
    "SELECT m.macro_id AS key, 1.0 AS score, json_array(m.anchor_key) AS via
     FROM macros m JOIN ",
    docs!("macro"),
    " AND d.key = m.macro_id AND m.anchor_key IN (SELECT value FROM json_each($5))
     ORDER BY d.at DESC, m.macro_id LIMIT $6"
);

pub(super) const FACT_NEIGHBOURS: &str = concat!(
    "SELECT a.fact_id AS key, CAST(count(*) AS REAL) AS score, json_group_array(a.entity_key) AS via
     FROM fact_about a JOIN ",
    docs!("fact"),
    " AND d.key = a.fact_id AND a.entity_key IN (SELECT value FROM json_each($5))
     GROUP BY a.fact_id ORDER BY score DESC, max(d.at) DESC, a.fact_id LIMIT $6"
);
