-- Whether a graceful shutdown has given this job's attempt back (0 or 1). It does so once per job: a job
-- whose handler is interrupted at every deploy must still use up its attempts and reach dead.
ALTER TABLE jobqueue_job ADD COLUMN attempt_given_back INTEGER NOT NULL DEFAULT 0 CHECK (attempt_given_back IN (0, 1));
