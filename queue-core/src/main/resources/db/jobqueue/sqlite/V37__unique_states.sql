-- Unique jobs that also hold their key in finished states, as on PostgreSQL (see the script of the same version
-- there). The predicate is TransitionSql.holdsUniqueKey word for word, which the enqueue's ON CONFLICT repeats.
ALTER TABLE jobqueue_job ADD COLUMN unique_states INTEGER;

DROP INDEX jobqueue_job_kind_unique_key_idx;
CREATE UNIQUE INDEX jobqueue_job_kind_unique_key_idx ON jobqueue_job (kind, unique_key)
    WHERE unique_key IS NOT NULL AND (state IN ('waiting', 'blocked', 'ready', 'running') OR (unique_states & CASE state WHEN 'succeeded' THEN 1 WHEN 'dead' THEN 2 WHEN 'cancelled' THEN 4 ELSE 0 END) <> 0);

UPDATE jobqueue_schema_version SET version = 37;
