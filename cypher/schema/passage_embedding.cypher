// Content passages' vectors, for the over-fetched Source search of users with many
// Sources (`search/vector_source_fetched`). {dimensions}: as in source_embedding.
CREATE VECTOR INDEX passage_embedding IF NOT EXISTS
FOR (p:Passage) ON (p.embedding)
OPTIONS {indexConfig: {
  `vector.dimensions`: {dimensions},
  `vector.similarity_function`: 'cosine'
}}
