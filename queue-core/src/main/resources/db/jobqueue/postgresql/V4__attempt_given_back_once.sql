-- Whether a graceful shutdown has given this job's attempt back. It does so once per job: a job whose
-- handler is interrupted at every deploy must still use up its attempts and reach dead, not run forever.
-- A constant default: PostgreSQL adds the column without rewriting the table.
ALTER TABLE jobqueue_job ADD COLUMN attempt_given_back boolean NOT NULL DEFAULT false;
