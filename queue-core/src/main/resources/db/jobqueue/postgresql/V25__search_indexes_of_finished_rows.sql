-- The search and the counts of finished jobs, which make up most of the table, read these two partial indexes.
-- A completion is the queue's hottest write, and an update that changes an indexed column (state): its new row
-- version gets an entry in every index whose predicate it meets. So a succeeded completion, the common one, meets
-- one of them only: (queue, state, id) over every finished row, for one queue's jobs of a state newest first, from
-- a cursor down, and for the counts per queue and state, which walk at most JobCounts.FINISHED_CAP of its entries
-- each, index only. (state, id) holds the rare finished states only, cancelled and dead: their jobs across all
-- queues newest first. Succeeded jobs across all queues need no index: they are most of a table that keeps
-- finished jobs, and a walk of the primary key newest first meets a page of them within a few pages.
-- Built CONCURRENTLY, so this migration runs outside a transaction (its .conf file): enqueues, claims and
-- completions go on while the indexes are built over a table that may hold millions of rows.
CREATE INDEX CONCURRENTLY IF NOT EXISTS jobqueue_job_finished_queue_idx ON jobqueue_job (queue, state, id)
    WHERE state IN ('succeeded', 'cancelled', 'dead');

CREATE INDEX CONCURRENTLY IF NOT EXISTS jobqueue_job_cancelled_dead_idx ON jobqueue_job (state, id)
    WHERE state IN ('cancelled', 'dead');

UPDATE jobqueue_schema_version SET version = 25;
