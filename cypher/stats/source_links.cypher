// memory_stats: the links between the user's own Sources (`precedes`: temporal,
// `caused`: causal), found from the Sources through the `user_id` index.
MATCH (s:Source)-[l:precedes|caused]->(:Source)
WHERE s.user_id = $user_id
RETURN CASE type(l) WHEN 'caused' THEN 'causal' ELSE 'temporal' END AS kind,
       count(l) AS links
