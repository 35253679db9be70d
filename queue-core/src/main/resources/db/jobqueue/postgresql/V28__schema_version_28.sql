-- Version 28 dropped MySQL's lease index only (db/jobqueue/mysql/V28): PostgreSQL's is partial (rows with an expiry).
-- The version is one for every database (JobSchema.VERSION), so it is recorded here too.
UPDATE jobqueue_schema_version SET version = 28;
