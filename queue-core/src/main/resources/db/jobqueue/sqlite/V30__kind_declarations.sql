-- A kind's limits, declared by the nodes that serve it, as on PostgreSQL (see the script of the same version there).
-- dead_job_blocks_key is 0 or 1; declared_at is INTEGER milliseconds since the epoch, like the job table's times.
CREATE TABLE jobqueue_kind (
    kind                  TEXT    PRIMARY KEY,
    concurrency_key_limit INTEGER NOT NULL,
    dead_job_blocks_key   INTEGER NOT NULL,
    cluster_concurrency   INTEGER NOT NULL,
    rate_starts           INTEGER NOT NULL,
    rate_period_millis    INTEGER,
    declared_by           TEXT    NOT NULL,
    declared_at           INTEGER NOT NULL
) STRICT;

UPDATE jobqueue_schema_version SET version = 30;
