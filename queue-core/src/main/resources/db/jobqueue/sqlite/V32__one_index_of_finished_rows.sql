-- A succeeded completion, the queue's hottest write, met two indexes of finished rows: (finished_at) and
-- (queue, state, id). One index by (queue, state, finished_at) takes the place of both, so that it meets one. Its
-- readers take the queues from it by the loose scan the counts made already, then each queue and finished state a
-- range of it: the counts (SqliteTelemetry), the pruner up to each state's retention (SqliteMaintenance), the jobs
-- finished per minute back to the first minute asked for, and the search of one queue's cancelled or dead jobs,
-- few enough to sort by id (SqliteSearch). The search of one queue's succeeded jobs walks the rowid down, as that of
-- every queue's does. The (state, id) index of cancelled and dead rows (V25) stays.
CREATE INDEX jobqueue_job_queue_finished_idx ON jobqueue_job (queue, state, finished_at)
    WHERE state IN ('succeeded', 'cancelled', 'dead');
DROP INDEX jobqueue_job_finished_idx;
DROP INDEX jobqueue_job_finished_queue_idx;

UPDATE jobqueue_schema_version SET version = 32;
