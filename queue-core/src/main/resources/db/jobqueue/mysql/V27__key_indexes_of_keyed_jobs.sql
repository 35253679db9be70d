-- The key indexes of V26 held an entry of every job, keyed or not, with its state or its start time in it: every
-- claim and every finish of an unkeyed job rewrote both entries, and left the old ones for the purge, for nothing.
-- PostgreSQL's key indexes are partial (WHERE concurrency_key IS NOT NULL); MySQL has no partial index, so these
-- columns are the state and the start time of keyed jobs only, NULL for the others: an unkeyed job's entries,
-- (NULL, NULL, id) and (NULL, NULL), never change. A key's queries name them (MysqlPromotions, MysqlExplain); for
-- concurrency_key = :key they are the row's state and start time.
--
-- The search's index (queue, state, id) goes: every search names its states (state IN (...)), so the index
-- (state, queue, id) reaches the same rows in the same order, and each change of state wrote both.
--
-- One statement, so the table is copied once (the stored columns are computed for every row). A stored column is
-- added by copying the table (MariaDB 10.11 refuses ALGORITHM=INPLACE and LOCK=NONE for it), which lets reads on
-- but blocks writes, enqueues and claims too, until it is done: on a table of millions of finished jobs, prune
-- them first or migrate at a quiet time.
ALTER TABLE jobqueue_job
    ADD COLUMN key_state VARCHAR(16) AS (CASE WHEN concurrency_key IS NOT NULL THEN state END) STORED,
    ADD COLUMN key_started_at DATETIME(6) AS (CASE WHEN concurrency_key IS NOT NULL THEN started_at END) STORED,
    DROP INDEX jobqueue_job_key_idx,
    DROP INDEX jobqueue_job_key_started_idx,
    DROP INDEX jobqueue_job_queue_state_idx,
    ADD INDEX jobqueue_job_key_idx (concurrency_key, key_state, id),
    ADD INDEX jobqueue_job_key_started_idx (concurrency_key, key_started_at);

UPDATE jobqueue_schema_version SET version = 27;
