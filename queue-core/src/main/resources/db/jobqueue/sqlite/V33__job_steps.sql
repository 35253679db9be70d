-- The finished steps of resumable jobs, as on PostgreSQL (see the script of the same version there). recorded_at is
-- INTEGER milliseconds since the epoch, like the job table's times. A trigger deletes a job's steps with it, whoever
-- deletes it: SQLite locks no rows, so nothing here waits as on the servers, and a foreign key's cascade would need
-- PRAGMA foreign_keys on every connection, the application's own included.
CREATE TABLE jobqueue_job_step (
    job_id      INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    attempt     INTEGER NOT NULL,
    result      TEXT CHECK (result IS NULL OR json_valid(result)),
    recorded_at INTEGER NOT NULL,
    PRIMARY KEY (job_id, name)
) STRICT;

CREATE TRIGGER jobqueue_job_step_deleted_with_job AFTER DELETE ON jobqueue_job
BEGIN
    DELETE FROM jobqueue_job_step WHERE job_id = OLD.id;
END;

UPDATE jobqueue_schema_version SET version = 33;
