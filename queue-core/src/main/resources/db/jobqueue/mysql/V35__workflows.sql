-- Workflows, as on PostgreSQL (see the script of the same version there).
ALTER TABLE jobqueue_job ADD COLUMN has_dependents BOOLEAN NOT NULL DEFAULT FALSE;

-- MariaDB keeps a column's CHECK with the column, and MODIFY replaces it. MySQL 8 keeps it as a table constraint,
-- which MODIFY would leave in place beside the new one: it is dropped first, by its generated name.
SET @jobqueue_old_check = (
    SELECT tc.CONSTRAINT_NAME
    FROM information_schema.TABLE_CONSTRAINTS tc
    JOIN information_schema.CHECK_CONSTRAINTS cc
      ON cc.CONSTRAINT_SCHEMA = tc.CONSTRAINT_SCHEMA AND cc.CONSTRAINT_NAME = tc.CONSTRAINT_NAME
    WHERE tc.TABLE_SCHEMA = DATABASE() AND tc.TABLE_NAME = 'jobqueue_job' AND tc.CONSTRAINT_TYPE = 'CHECK'
      AND cc.CHECK_CLAUSE LIKE '%blocked%' AND VERSION() NOT LIKE '%MariaDB%'
    LIMIT 1);
SET @jobqueue_drop_check = IF(@jobqueue_old_check IS NULL, 'DO 0',
    CONCAT('ALTER TABLE jobqueue_job DROP CHECK `', @jobqueue_old_check, '`'));
PREPARE jobqueue_drop_check FROM @jobqueue_drop_check;
EXECUTE jobqueue_drop_check;
DEALLOCATE PREPARE jobqueue_drop_check;

-- A waiting job is unfinished and holds its unique key.
ALTER TABLE jobqueue_job
    MODIFY state VARCHAR(16) NOT NULL
        CHECK (state IN ('waiting', 'blocked', 'ready', 'running', 'succeeded', 'dead', 'cancelled')),
    MODIFY unfinished_unique_key BINARY(32) AS (CASE WHEN state IN ('waiting', 'blocked', 'ready', 'running')
                                                     THEN UNHEX(SHA2(unique_key, 256)) END) STORED;

CREATE TABLE jobqueue_job_dependency (
    job_id     BIGINT  NOT NULL,
    depends_on BIGINT  NOT NULL,
    required   BOOLEAN NOT NULL,
    PRIMARY KEY (job_id, depends_on)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE INDEX jobqueue_job_dependency_on_idx ON jobqueue_job_dependency (depends_on);

UPDATE jobqueue_schema_version SET version = 35;
