-- The reaper's index, keyed as before but partial on the expiry itself rather than on the state.
-- Running rows are exactly the rows with an expiry (the claim sets it, every way out of running clears
-- it), so it holds the same rows. But a predicate of state = 'running' let the planner pick this index
-- for any statement that asks for running rows: the batched completion and the heartbeat then scanned
-- every running row and every dead entry left since the last vacuum, once per batch, instead of looking
-- their few rows up by id. Once the table's statistics say running rows are rare (any ANALYZE), that is
-- the plan it chose, and a 1,000,000-job soak ran at a fraction of its rate. The reaper's condition
-- lease_expires_at < now() implies the new predicate, so the reaper still uses the index; nothing else can.
DROP INDEX jobqueue_job_lease_idx;
CREATE INDEX jobqueue_job_lease_idx ON jobqueue_job (lease_expires_at) WHERE lease_expires_at IS NOT NULL;
