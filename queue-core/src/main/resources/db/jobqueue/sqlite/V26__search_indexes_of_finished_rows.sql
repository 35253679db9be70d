-- As on PostgreSQL: the search and the counts of finished jobs read these two partial indexes of finished rows.
-- (state, id): one state's jobs newest first, from a cursor down. (queue, state, id): the counts per queue and state,
-- each a walk of at most JobCounts.FINISHED_CAP entries, and the loose scan that lists the queues.
CREATE INDEX jobqueue_job_finished_state_idx ON jobqueue_job (state, id)
    WHERE state IN ('succeeded', 'cancelled', 'dead');

CREATE INDEX jobqueue_job_finished_queue_idx ON jobqueue_job (queue, state, id)
    WHERE state IN ('succeeded', 'cancelled', 'dead');

UPDATE jobqueue_schema_version SET version = 26;
