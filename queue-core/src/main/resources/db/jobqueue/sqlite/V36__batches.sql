-- Batches, as on PostgreSQL (see the script of the same version there). The trigger that deletes a job's steps and
-- dependencies with it deletes its batch row too.
CREATE TABLE jobqueue_batch (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    total       INTEGER NOT NULL CHECK (total >= 1),
    created_at  INTEGER NOT NULL,
    finished_at INTEGER,
    succeeded   INTEGER,
    dead        INTEGER,
    cancelled   INTEGER
) STRICT;

CREATE INDEX jobqueue_batch_unfinished_idx ON jobqueue_batch (id) WHERE finished_at IS NULL;

CREATE TABLE jobqueue_batch_job (
    job_id   INTEGER PRIMARY KEY,
    batch_id INTEGER NOT NULL,
    role     TEXT    NOT NULL CHECK (role IN ('member', 'on_finish', 'on_failure'))
) STRICT;

CREATE INDEX jobqueue_batch_job_batch_idx ON jobqueue_batch_job (batch_id, role, job_id);

DROP TRIGGER jobqueue_job_deleted;

CREATE TRIGGER jobqueue_job_deleted AFTER DELETE ON jobqueue_job
BEGIN
    DELETE FROM jobqueue_job_step WHERE job_id = OLD.id;
    DELETE FROM jobqueue_job_dependency WHERE job_id = OLD.id;
    DELETE FROM jobqueue_batch_job WHERE job_id = OLD.id;
END;

UPDATE jobqueue_schema_version SET version = 36;
