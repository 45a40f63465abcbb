-- Full-text search reads each user's text from memory too (`graph/sqlite/search/texts.rs`),
-- kept in step through the same change log as the vectors (`search_vector_log`, now the
-- log of every change to what search reads). Inserts and deletes of memories, and
-- changes of vectors, visibility and time, are already logged through `search_docs`;
-- these log changes of the searched text, for the owner and, for a Source, each
-- participant, in the transaction of the change.

CREATE TRIGGER sources_text_log AFTER UPDATE OF summary, content, keywords ON sources
WHEN old.summary IS NOT new.summary OR old.content IS NOT new.content
  OR old.keywords IS NOT new.keywords BEGIN
    INSERT INTO search_vector_log (user_id, target, key)
        SELECT new.user_id, 'source', new.entity_key
        UNION SELECT p.user_id, 'source', new.entity_key FROM source_participants p
              WHERE p.source_key = new.entity_key;
END;

CREATE TRIGGER nodes_text_log AFTER UPDATE OF name, description ON nodes
WHEN old.name IS NOT new.name OR old.description IS NOT new.description BEGIN
    INSERT INTO search_vector_log (user_id, target, key)
        VALUES (new.user_id, 'node', new.entity_key);
END;

CREATE TRIGGER storylines_text_log AFTER UPDATE OF description ON storylines
WHEN old.description IS NOT new.description BEGIN
    INSERT INTO search_vector_log (user_id, target, key)
        VALUES (new.user_id, 'storyline', new.storyline_id);
END;

CREATE TRIGGER macros_text_log AFTER UPDATE OF description ON macros
WHEN old.description IS NOT new.description BEGIN
    INSERT INTO search_vector_log (user_id, target, key)
        VALUES (new.user_id, 'macro', new.macro_id);
END;

CREATE TRIGGER facts_text_log AFTER UPDATE OF text, value ON facts
WHEN old.text IS NOT new.text OR old.value IS NOT new.value BEGIN
    INSERT INTO search_vector_log (user_id, target, key)
        VALUES (new.user_id, 'fact', new.fact_id);
END;
