-- A job cancelled while it ran keeps its worker's lease until the worker writes that the handler exited, or the
-- reaper lets go of the lease once it expired (the node died), and while the lease is on it the job holds its slot
-- of its concurrency key (Transition.Facts#holdsSlot, docs/decisions/046). The holders' index takes such rows in;
-- its predicate is word for word Transition.Sql.INTEGER_COLUMNS' holdsSlot, which the promotion's count repeats so
-- that the planner uses it. SqlitePromotions promotes in Java, so nothing else changes.
CREATE INDEX jobqueue_job_key_holder_idx ON jobqueue_job (concurrency_key)
    WHERE concurrency_key IS NOT NULL AND (state IN ('ready', 'running') OR (state = 'dead' AND concurrency_dead_holds = 1) OR (state = 'cancelled' AND lease_expires_at IS NOT NULL));
DROP INDEX jobqueue_job_key_slot_idx;

-- Version 30 is another change's; this one is recorded as 31 on every database (JobSchema.VERSION).
UPDATE jobqueue_schema_version SET version = 31;
