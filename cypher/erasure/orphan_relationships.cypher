// Of these semantic links, those no Source supports any more: an empty provenance, and
// (for links written before provenance was kept) no note taken from a Source.
MATCH ()-[r:RELATES]->()
WHERE r.rel_key IN $rel_keys
  AND size(coalesce(r.source_keys, [])) = 0
  AND none(source IN coalesce(r.note_source_ids, []) WHERE source <> '')
RETURN collect(r.rel_key) AS keys
