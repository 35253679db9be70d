-- Unique jobs that also hold their key in finished states (Unique.alsoFinished): unique_states names those states,
-- one bit each (TransitionSql.FINISHED_HOLDING_STATES: succeeded 1, dead 2, cancelled 4). Null, as every older row
-- and every job without such states has it, leaves the index's predicate as it was: unfinished jobs only.
-- The predicate is TransitionSql.holdsUniqueKey word for word (UniqueStatesMigrationTest checks it), which the
-- enqueue's ON CONFLICT repeats. Runs outside a transaction (its .conf file): the index is built CONCURRENTLY.
ALTER TABLE jobqueue_job ADD COLUMN IF NOT EXISTS unique_states integer;

-- The new index is built before the old one is dropped, as in V35, so that the enqueue's ON CONFLICT always has an
-- index to arbitrate on: the old predicate implies the new one, so the older nodes' conflict clause infers it too.
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS jobqueue_job_kind_unique_key_v37_idx ON jobqueue_job (kind, unique_key)
    WHERE unique_key IS NOT NULL AND (state IN ('waiting', 'blocked', 'ready', 'running') OR (unique_states & CASE state WHEN 'succeeded' THEN 1 WHEN 'dead' THEN 2 WHEN 'cancelled' THEN 4 ELSE 0 END) <> 0);
DROP INDEX CONCURRENTLY IF EXISTS jobqueue_job_kind_unique_key_idx;
ALTER INDEX jobqueue_job_kind_unique_key_v37_idx RENAME TO jobqueue_job_kind_unique_key_idx;

UPDATE jobqueue_schema_version SET version = 37;
