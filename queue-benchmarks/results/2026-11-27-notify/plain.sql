BEGIN;
INSERT INTO jobqueue_job (queue, kind, payload, payload_version, state, priority, run_at, max_attempts, created_at) VALUES ('default', 'k', '{}', 1, 'ready', 5, statement_timestamp(), 3, statement_timestamp());
END;
