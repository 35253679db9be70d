-- The job's error history, as on PostgreSQL (see its V3): one entry per failed attempt, oldest first,
-- {"attempt", "at", "worker", "message"}, the newest ten kept, each message cut to 2,000 characters.
-- JSON text in this STRICT table, checked like the payload and the result.
ALTER TABLE jobqueue_job ADD COLUMN errors TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(errors));
