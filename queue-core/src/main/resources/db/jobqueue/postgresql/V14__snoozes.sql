-- How many times handlers snoozed this job (ended an attempt with "run me again later" without failing).
-- Counted apart from attempts, which a snooze gives back, so that the cap on snoozes can stop a job that
-- snoozes for ever. A constant default: PostgreSQL adds the column without rewriting the table.
ALTER TABLE jobqueue_job ADD COLUMN snoozes integer NOT NULL DEFAULT 0;
