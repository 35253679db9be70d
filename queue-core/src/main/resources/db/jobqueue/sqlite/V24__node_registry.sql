-- The node registry, as on PostgreSQL (see the script of the same version there). queues and kinds are JSON text;
-- the times are INTEGER milliseconds since the epoch, like the job table's.
CREATE TABLE jobqueue_node (
    name         TEXT    PRIMARY KEY,
    host         TEXT    NOT NULL,
    version      TEXT    NOT NULL,
    queues       TEXT    NOT NULL,
    kinds        TEXT    NOT NULL,
    started_at   INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL
) STRICT;

UPDATE jobqueue_schema_version SET version = 24;
