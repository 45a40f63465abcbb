// Exception to "values only as parameters": the manual documents OPTIONS as a map
// literal, so {dimensions} is replaced, before the statement is sent, by the configured
// embedding dimension (models.embedding_dimensions, checked to be an integer in 1..=4096).
// It comes from configuration, never from input. See cypher/README.md.
CREATE VECTOR INDEX fact_embedding IF NOT EXISTS
FOR (f:Fact) ON (f.embedding)
OPTIONS {indexConfig: {
  `vector.dimensions`: {dimensions},
  `vector.similarity_function`: 'cosine'
}}
