-- The reaper's index, partial on the expiry rather than on the state, as on PostgreSQL (see its V2):
-- the same rows, since only running rows have an expiry, but an index that only a statement asking for
-- an expiry can use, never one that merely asks for running rows. The reaper's lease_expires_at < …
-- implies lease_expires_at IS NOT NULL, so it keeps the index.
DROP INDEX jobqueue_job_lease_idx;
CREATE INDEX jobqueue_job_lease_idx ON jobqueue_job (lease_expires_at) WHERE lease_expires_at IS NOT NULL;
