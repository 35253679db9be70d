-- How many times handlers snoozed this job (ended an attempt with "run me again later" without failing).
-- Counted apart from attempts, which a snooze gives back, so that the cap on snoozes can stop a job that
-- snoozes for ever.
ALTER TABLE jobqueue_job ADD COLUMN snoozes INTEGER NOT NULL DEFAULT 0;
