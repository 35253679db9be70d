-- Unique keys are scoped by kind: at most one unfinished job per (kind, unique_key). One key used to span
-- every kind and queue, so a job of one kind was silently turned away because a job of another kind held
-- the same key. The enqueue's ON CONFLICT names these columns and this predicate.
-- The new index is built before the old one is dropped, under another name, so that no moment passes
-- without a unique index that the enqueue's ON CONFLICT can arbitrate on. The old index is stricter than
-- the new one, so rows that satisfied it satisfy this one. Building it reads the whole table once and holds
-- off writes meanwhile (CONCURRENTLY cannot run inside Flyway's transaction); it holds the unfinished keyed
-- rows only, so it stays as small as the old one.
CREATE UNIQUE INDEX jobqueue_job_kind_unique_key_idx ON jobqueue_job (kind, unique_key)
    WHERE unique_key IS NOT NULL AND state IN ('ready', 'running');
DROP INDEX jobqueue_job_unique_key_idx;
