-- The ready index's size and the table's vacuum statistics.
SELECT pg_relation_size('jobqueue_job_ready_idx') / 8192 AS ready_idx_pages,
       pg_relation_size('jobqueue_job') / 8192 AS table_pages,
       n_live_tup, n_dead_tup, vacuum_count, autovacuum_count
FROM pg_stat_user_tables WHERE relname = 'jobqueue_job';
