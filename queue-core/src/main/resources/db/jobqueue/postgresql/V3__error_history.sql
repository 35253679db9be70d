-- The job's error history: one entry per failed attempt, oldest first, written by the same statement
-- that records the failure (a retry, a failure, the reaper's lease expiry), so it can never disagree
-- with last_error. Each entry is {"attempt", "at", "worker", "message"}; the statements keep the
-- newest ten and the first 2,000 characters of each message, last_error the latest error in full.
-- A constant default makes this a change of the catalog only: existing rows are not rewritten.
ALTER TABLE jobqueue_job ADD COLUMN errors jsonb NOT NULL DEFAULT '[]';
