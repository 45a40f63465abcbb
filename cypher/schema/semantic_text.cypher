// `name` is a Person's display name and a Concept's or Entity's normalised name;
// `display_name` the latter's display name. The English analyzer stems (Porter), as the
// SQLite store's FTS5 tokenizer does.
CREATE FULLTEXT INDEX semantic_text IF NOT EXISTS
FOR (n:Person|Concept|Entity) ON EACH [n.name, n.display_name, n.description]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}
