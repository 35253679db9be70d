-- The lease index (lease_expires_at) served the reaper's read only, every reaper-interval on the maintenance node,
-- while every claim, finish and heartbeat of every job rewrote its entry: InnoDB has no partial index that could
-- hold the running rows alone, and a heartbeat moves the expiry of each job it keeps. The reaper now reads the
-- running rows through the state index, (state, queue, id), whose 'running' range holds as many rows as there are
-- running jobs, a few hundred, and sorts them by expiry. Dropping a secondary index is done in place, without
-- copying the table or blocking writes.
ALTER TABLE jobqueue_job DROP INDEX jobqueue_job_lease_idx;

UPDATE jobqueue_schema_version SET version = 28;
