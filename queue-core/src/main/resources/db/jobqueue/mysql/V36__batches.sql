-- Batches, as on PostgreSQL (see the script of the same version there).
CREATE TABLE jobqueue_batch (
    id          BIGINT      NOT NULL AUTO_INCREMENT PRIMARY KEY,
    total       INT         NOT NULL CHECK (total >= 1),
    created_at  DATETIME(6) NOT NULL,
    finished_at DATETIME(6),
    succeeded   INT,
    dead        INT,
    cancelled   INT
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- No partial index here: the sweep's walk over unfinished batches reads the NULLs' end of this one.
CREATE INDEX jobqueue_batch_unfinished_idx ON jobqueue_batch (finished_at, id);

CREATE TABLE jobqueue_batch_job (
    job_id   BIGINT      NOT NULL PRIMARY KEY,
    batch_id BIGINT      NOT NULL,
    role     VARCHAR(16) NOT NULL CHECK (role IN ('member', 'on_finish', 'on_failure'))
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE INDEX jobqueue_batch_job_batch_idx ON jobqueue_batch_job (batch_id, role, job_id);

UPDATE jobqueue_schema_version SET version = 36;
