-- Recurring jobs, as on PostgreSQL (see the script of the same version there). Times are INTEGER
-- milliseconds since the epoch, like the job table's.
CREATE TABLE jobqueue_schedule (
    name         TEXT    PRIMARY KEY,
    timing       TEXT    NOT NULL,
    next_fire_at INTEGER,
    last_fire_at INTEGER,
    version      INTEGER NOT NULL CHECK (version >= 1),
    updated_at   INTEGER NOT NULL
) STRICT;
