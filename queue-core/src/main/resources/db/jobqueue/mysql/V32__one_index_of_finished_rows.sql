-- PostgreSQL and SQLite merge their two partial indexes of finished rows into one. MySQL's indexes are not partial
-- and its own ((queue, state, id), (state, queue, id), (finished_at)) stay: nothing in its schema changes. The
-- version is recorded as 32 on every database (JobSchema.VERSION).
UPDATE jobqueue_schema_version SET version = 32;
