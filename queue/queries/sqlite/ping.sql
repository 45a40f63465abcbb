SELECT count(*) FROM Jobs WHERE 0
