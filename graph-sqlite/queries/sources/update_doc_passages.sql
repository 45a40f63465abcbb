UPDATE search_docs SET passages = $2 WHERE target = 'source' AND key = $1
