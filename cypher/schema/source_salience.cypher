// consolidate-episodic looks for faded Sources by salience.
CREATE RANGE INDEX source_salience IF NOT EXISTS
FOR (s:Source) ON (s.salience)
