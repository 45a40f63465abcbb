DELETE FROM source_passages WHERE source_key = $1
