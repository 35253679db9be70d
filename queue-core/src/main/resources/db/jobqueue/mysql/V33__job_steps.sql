-- The finished steps of resumable jobs, as on PostgreSQL (see the script of the same version there, and why there
-- is no foreign key: InnoDB's check would lock the job's row as PostgreSQL's does).
CREATE TABLE jobqueue_job_step (
    job_id      BIGINT       NOT NULL,
    name        VARCHAR(200) NOT NULL,
    attempt     INT          NOT NULL,
    result      LONGTEXT     CHECK (result IS NULL OR JSON_VALID(result)),
    recorded_at DATETIME(6)  NOT NULL,
    PRIMARY KEY (job_id, name)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

UPDATE jobqueue_schema_version SET version = 33;
