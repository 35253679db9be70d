-- The cost of one promotion of 500 keys, each with a free slot, over 20,000 waiting jobs of 1,000 keys of limit 1.
-- Run with psql on a database the benchmark's jar has migrated; each promotion is rolled back, so all three
-- promote the same 500 jobs.
TRUNCATE jobqueue_job;
INSERT INTO jobqueue_job (queue, kind, payload, state, max_attempts, concurrency_key, concurrency_limit)
SELECT 'default', 'bench', to_jsonb(g), 'blocked', 20, 'key-' || (g % 1000), 1 FROM generate_series(0, 19999) g;
ANALYZE jobqueue_job;
\timing on
BEGIN;
SELECT count(*) FROM jobqueue_promote(ARRAY(SELECT 'key-' || g FROM generate_series(0, 499) g));
ROLLBACK;
BEGIN;
SELECT count(*) FROM jobqueue_promote(ARRAY(SELECT 'key-' || g FROM generate_series(0, 499) g));
ROLLBACK;
BEGIN;
SELECT count(*) FROM jobqueue_promote(ARRAY(SELECT 'key-' || g FROM generate_series(0, 499) g));
ROLLBACK;
