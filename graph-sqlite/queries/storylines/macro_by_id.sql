SELECT * FROM macros WHERE macro_id = $1
