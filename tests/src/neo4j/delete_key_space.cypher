// Test harness only: removes one test's key space (every node whose user id ends with
// the test's unique suffix: Sources, semantic nodes, Extraction records, Storylines,
// Macros) together with their relationships.
MATCH (n)
WHERE n.user_id ENDS WITH $suffix
DETACH DELETE n
