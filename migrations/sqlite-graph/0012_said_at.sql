-- When a note or fact was said, beside when it was noted: a chat of 2023 back-filled
-- today was said in 2023. A note taken from a Source was said at the Source's event
-- time (`started_at`, else when it arrived) unless its transcript dated the turn; a
-- consolidation insight at the latest event time of the Sources it came from; a fact
-- at the latest event time of the Sources it cites, else when it was told. Existing
-- rows are filled in here by those rules (a turn's own time is not known for them).
ALTER TABLE notes ADD COLUMN said_at INTEGER;
UPDATE notes SET said_at = coalesce(
    (SELECT coalesce(s.started_at, s.created_at) FROM sources s
     WHERE s.entity_key = notes.source_id),
    (SELECT max(coalesce(s.started_at, s.created_at))
     FROM derived_from df JOIN sources s ON s.entity_key = df.source_key
     WHERE notes.source_id IS NULL AND df.entity_key = notes.owner_key
       AND (df.note_id = notes.note_id OR (df.note_id IS NULL AND notes.added_by = 'cosmo'))),
    date_added);

ALTER TABLE facts ADD COLUMN said_at INTEGER;
UPDATE facts SET said_at = coalesce(
    (SELECT max(coalesce(s.started_at, s.created_at))
     FROM fact_sources fs JOIN sources s ON s.entity_key = fs.source_key
     WHERE fs.fact_id = facts.fact_id),
    valid_from);
