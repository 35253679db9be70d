-- Version 27 changed MySQL's key indexes only (db/jobqueue/mysql/V27): SQLite's are partial already. The version
-- is one for every database (JobSchema.VERSION), so it is recorded here too.
UPDATE jobqueue_schema_version SET version = 27;
