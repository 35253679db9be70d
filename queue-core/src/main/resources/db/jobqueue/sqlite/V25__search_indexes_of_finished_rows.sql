-- As on PostgreSQL, where the comment says why: (queue, state, id) over every finished row, for one queue's jobs
-- of a state newest first, the counts per queue and state (each a walk of at most JobCounts.FINISHED_CAP entries)
-- and the loose scan that lists the queues; (state, id) over the rare finished states only, cancelled and dead,
-- so that a succeeded completion writes one entry in these indexes, not two.
CREATE INDEX jobqueue_job_finished_queue_idx ON jobqueue_job (queue, state, id)
    WHERE state IN ('succeeded', 'cancelled', 'dead');

CREATE INDEX jobqueue_job_cancelled_dead_idx ON jobqueue_job (state, id)
    WHERE state IN ('cancelled', 'dead');

UPDATE jobqueue_schema_version SET version = 25;
