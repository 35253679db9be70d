-- Paused queues and kinds, as on PostgreSQL (see the script of the same version there). changed_at is
-- INTEGER milliseconds since the epoch, like the job table's times; paused is 0 or 1.
CREATE TABLE jobqueue_pause (
    scope      TEXT    NOT NULL CHECK (scope IN ('queue', 'kind')),
    name       TEXT    NOT NULL,
    paused     INTEGER NOT NULL CHECK (paused IN (0, 1)),
    changed_at INTEGER NOT NULL,
    PRIMARY KEY (scope, name)
) STRICT, WITHOUT ROWID;
