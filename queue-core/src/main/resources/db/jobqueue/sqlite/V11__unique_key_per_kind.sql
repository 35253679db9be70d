-- Unique keys are scoped by kind, as on PostgreSQL (see its script of the same version): at most one
-- unfinished job per (kind, unique_key); the enqueue's ON CONFLICT names these columns and this predicate.
CREATE UNIQUE INDEX jobqueue_job_kind_unique_key_idx ON jobqueue_job (kind, unique_key)
    WHERE unique_key IS NOT NULL AND state IN ('ready', 'running');
DROP INDEX jobqueue_job_unique_key_idx;
