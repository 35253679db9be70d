-- Version 29 added MySQL's key locks only (db/jobqueue/mysql/V29): SQLite has one writer.
-- The version is one for every database (JobSchema.VERSION), so it is recorded here too.
UPDATE jobqueue_schema_version SET version = 29;
