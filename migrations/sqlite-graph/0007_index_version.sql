-- The version of a Source's index: the fingerprint of the embedder that made its
-- summary's vector and its passages' vectors (`<provider>:<model>:<dimensions>`, e.g.
-- `offline:offline-static-v2:384`). Vectors of two embedders are not comparable, so a
-- Source indexed by another embedder than the configured one, or before fingerprints
-- were recorded (NULL: every Source processed before this migration), is stale: the
-- reconciler finds it (`stale_index`) and `process-source` embeds its stored summary
-- and content again (`save_index`), without a new summary.
--
-- The index holds only Sources past `raw` (the scan's own condition, written the same
-- way so the planner can use it) and covers the scan: it seeks the NULL range and the
-- ranges below and above the current fingerprint, so a scan that finds nothing stale
-- reads no row.

ALTER TABLE sources ADD COLUMN embedded_with TEXT;

CREATE INDEX sources_by_index_version
    ON sources (embedded_with, entity_key, user_id, processing_status)
    WHERE processing_status <> 'raw';
