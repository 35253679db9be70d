-- A succeeded completion, the queue's hottest write, changes an indexed column (state), so its new row version gets
-- an entry in every index whose predicate it meets. Of the finished rows' indexes it met two: (finished_at) for the
-- pruner and the per-minute counts, (queue, state, id) for the console's search and counts. One index now serves
-- them all, by (queue, state, finished_at): the counts per queue and state are ranges of it, as before; the pruner
-- and the per-minute counts walk the queues by a loose scan and each (queue, state) by finished time; one queue's
-- jobs of a finished state are a range of it (cancelled and dead, the rare states) or the primary key walked newest
-- first (succeeded, most of a table that keeps finished jobs), which the planner chooses by its statistics.
-- Built and dropped CONCURRENTLY, so this migration runs outside a transaction (its .conf file).
CREATE INDEX CONCURRENTLY IF NOT EXISTS jobqueue_job_queue_finished_idx ON jobqueue_job (queue, state, finished_at)
    WHERE state IN ('succeeded', 'cancelled', 'dead');

DROP INDEX CONCURRENTLY IF EXISTS jobqueue_job_finished_queue_idx;

DROP INDEX CONCURRENTLY IF EXISTS jobqueue_job_finished_idx;

UPDATE jobqueue_schema_version SET version = 32;
