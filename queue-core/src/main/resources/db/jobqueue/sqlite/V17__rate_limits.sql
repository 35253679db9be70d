-- Rate limits on concurrency keys, as on PostgreSQL (V17 there): the period of a key's rate, in milliseconds.
ALTER TABLE jobqueue_job ADD COLUMN concurrency_rate_millis INTEGER CHECK (concurrency_rate_millis >= 1);

-- A key's jobs by start, for the count of recent starts: keyed rows only.
CREATE INDEX jobqueue_job_key_started_idx ON jobqueue_job (concurrency_key, started_at) WHERE concurrency_key IS NOT NULL;
