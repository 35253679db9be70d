-- The search and the counts of finished jobs, which make up most of the table, read these two indexes; both hold
-- finished rows only, so a job gets its entries once, when it finishes, and the claim's and the completion's
-- statements before that never touch them. (state, id): one state's jobs newest first, from a cursor down, as the
-- search pages through them. (queue, state, id): the same within a queue, and the counts per queue and state,
-- which walk at most JobCounts.FINISHED_CAP of its entries each, index only.
-- Built CONCURRENTLY, so this migration runs outside a transaction (its .conf file): enqueues, claims and
-- completions go on while the indexes are built over a table that may hold millions of rows.
CREATE INDEX CONCURRENTLY IF NOT EXISTS jobqueue_job_finished_state_idx ON jobqueue_job (state, id)
    WHERE state IN ('succeeded', 'cancelled', 'dead');

CREATE INDEX CONCURRENTLY IF NOT EXISTS jobqueue_job_finished_queue_idx ON jobqueue_job (queue, state, id)
    WHERE state IN ('succeeded', 'cancelled', 'dead');

UPDATE jobqueue_schema_version SET version = 26;
