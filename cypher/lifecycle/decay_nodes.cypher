// Decay, set-based: one page of memories (`$ids`, element ids from `decay_page_*`, in key
// order) decayed to `$as_of` by this statement, which does the arithmetic of
// `lifecycle::decay` (cosmo-core) itself; the graph contract suite holds it to that
// function. Each memory is write-locked before its lifecycle is read (the marker is
// removed at once; the lock lasts until commit), so an access or a pin committed meanwhile
// is seen or waits, never lost. Pinned memories are untouched; `keep_forever` ones go
// back to salience 1; the others decay from the latest of creation, last decay and last
// access, and are archived when their salience falls under `$archive_below` or, for
// `ephemeral` ones, `$ephemeral_seconds` after creation. Times are DATETIME to the
// microsecond; days are counted from whole microseconds, as the Rust function counts them.
// Returns how many memories changed and, for the ones archived, what their events need.
UNWIND $ids AS eid
MATCH (x)
WHERE elementId(x) = eid
SET x.just_locked = true
REMOVE x.just_locked
WITH x
WHERE NOT coalesce(x.pinned, false)
WITH x,
     $as_of AS t,
     x.ttl_policy = 'keep_forever' AS keep,
     x.created_at AS created,
     coalesce(x.last_decayed_at, x.created_at) AS decayed,
     coalesce(x.last_accessed_at, x.created_at) AS accessed
WITH x, t, keep,
     CASE WHEN created >= decayed AND created >= accessed THEN created
          WHEN decayed >= accessed THEN decayed
          ELSE accessed END AS since
WITH x, t, keep, since,
     NOT keep AND t > since AS decays,
     x.ttl_policy = 'ephemeral' AND t >= x.created_at + duration({seconds: $ephemeral_seconds}) AS expired
WITH x, t, keep, decays, expired,
     CASE WHEN decays
          THEN toFloat(((t.epochSeconds - since.epochSeconds) * 1000000000
                        + (t.nanosecond - since.nanosecond)) / 1000) / 1000000.0 / 86400.0
          ELSE 0.0 END AS days,
     $base_rate / (1.0 + (toFloat(CASE WHEN x.recall_frequency > 0 THEN x.recall_frequency ELSE 0 END)
                          ^ x.decay_gradient)) AS base
WITH x, t, keep, decays, expired, days,
     CASE WHEN x.state = 'candidate' AND x.confidence >= $confident_candidate THEN 0.0
          WHEN x.state = 'candidate'
            THEN base * (1.0 + (1.0 - CASE WHEN x.confidence < 0.0 THEN 0.0
                                           WHEN x.confidence > 1.0 THEN 1.0
                                           ELSE x.confidence END) * 2.0)
          ELSE base END AS rate
WITH x, t, keep, decays, expired,
     CASE WHEN decays THEN x.salience * exp(-rate * days) END AS product
WITH x, t, keep, decays, expired,
     CASE WHEN keep THEN 1.0
          WHEN NOT decays THEN x.salience
          WHEN product < 0.0 THEN 0.0
          WHEN product > 1.0 THEN 1.0
          ELSE product END AS salience
WITH x, t, keep, decays, salience,
     NOT keep AND x.state <> 'archived' AND (expired OR salience < $archive_below) AS archive,
     CASE WHEN expired THEN 'ttl_expired' ELSE 'decayed' END AS reason
WHERE CASE WHEN keep THEN x.salience <> 1.0 ELSE decays OR archive END
WITH x, t, x.state AS previous, decays, salience, archive, reason
SET x.salience = salience,
    x.last_decayed_at = CASE WHEN decays THEN t ELSE x.last_decayed_at END,
    x.state = CASE WHEN archive THEN 'archived' ELSE x.state END,
    x.updated_at = t
WITH count(*) AS changed,
     collect(CASE WHEN archive
                  THEN {id: elementId(x), user_id: x.user_id, state: previous, reason: reason}
             END) AS archived
RETURN changed, archived
