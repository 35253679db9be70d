-- A kind's limits, declared by the nodes that serve it, as on PostgreSQL (see the script of the same version there).
CREATE TABLE jobqueue_kind (
    kind                  VARCHAR(255) NOT NULL PRIMARY KEY,
    concurrency_key_limit INT          NOT NULL,
    dead_job_blocks_key   BOOLEAN      NOT NULL,
    cluster_concurrency   INT          NOT NULL,
    rate_starts           INT          NOT NULL,
    rate_period_millis    BIGINT,
    declared_by           VARCHAR(255) NOT NULL,
    declared_at           DATETIME(6)  NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

UPDATE jobqueue_schema_version SET version = 30;
