-- Whether the worker a claim went to confirmed it, and how often the reaper gave an attempt back
-- because it did not: see the PostgreSQL script of the same version.
ALTER TABLE jobqueue_job ADD COLUMN claim_confirmed INTEGER NOT NULL DEFAULT 1 CHECK (claim_confirmed IN (0, 1));
ALTER TABLE jobqueue_job ADD COLUMN unconfirmed_reaps INTEGER NOT NULL DEFAULT 0;
