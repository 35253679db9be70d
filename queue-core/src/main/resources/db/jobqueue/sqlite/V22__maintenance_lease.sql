-- Which runtime runs the maintenance roles, as on PostgreSQL (see the script of the same version there).
-- expires_at is INTEGER milliseconds since the epoch, like the job table's times.
CREATE TABLE jobqueue_maintenance (
    single     INTEGER PRIMARY KEY DEFAULT 1 CHECK (single = 1),
    holder     TEXT    NOT NULL,
    expires_at INTEGER NOT NULL
) STRICT;

UPDATE jobqueue_schema_version SET version = 22;
