UPDATE sources SET participants =
   (SELECT json_group_array(value) FROM json_each(sources.participants) WHERE value <> $1),
   updated_at = $2
WHERE entity_key IN (SELECT source_key FROM source_participants WHERE user_id = $1)
