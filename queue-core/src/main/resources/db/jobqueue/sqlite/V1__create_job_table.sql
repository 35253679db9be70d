-- The one table of the queue, as on PostgreSQL. Every object jobqueue creates starts with jobqueue_.
-- STRICT makes SQLite enforce the column types, so a time can never be stored as text that sorts
-- differently from the numbers around it.
-- Times are INTEGER milliseconds since the Unix epoch, read from the database's clock
-- (unixepoch('subsec')): integers order and compare exactly, and cost nothing to index.
-- AUTOINCREMENT keeps a pruned job's id from being handed out again: a lease names its job by id,
-- and an id reused by a new job could let a stale lease's write match it.
CREATE TABLE jobqueue_job (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    queue            TEXT    NOT NULL,
    kind             TEXT    NOT NULL,
    payload          TEXT    NOT NULL CHECK (json_valid(payload)),
    state            TEXT    NOT NULL CHECK (state IN ('ready', 'running', 'succeeded', 'dead', 'cancelled')),
    priority         INTEGER NOT NULL DEFAULT 5 CHECK (priority BETWEEN 0 AND 9),
    run_at           INTEGER NOT NULL,
    attempt          INTEGER NOT NULL DEFAULT 0,
    max_attempts     INTEGER NOT NULL CHECK (max_attempts >= 1),
    -- Who holds the job while it runs, until when, and the fencing token of that claim: it grows by
    -- one at every claim, and every write about a running job names it.
    lease_owner      TEXT,
    lease_expires_at INTEGER,
    lease_token      INTEGER NOT NULL DEFAULT 0,
    unique_key       TEXT,
    last_error       TEXT,
    result           TEXT CHECK (result IS NULL OR json_valid(result)),
    created_at       INTEGER NOT NULL,
    started_at       INTEGER,
    finished_at      INTEGER
) STRICT;

-- The claim scans this index in its ORDER BY; being partial, it holds only ready rows and stays
-- small however many finished rows the table keeps.
CREATE INDEX jobqueue_job_ready_idx ON jobqueue_job (queue, priority, run_at, id) WHERE state = 'ready';

-- The reaper's scan: running rows by lease expiry.
CREATE INDEX jobqueue_job_lease_idx ON jobqueue_job (lease_expires_at) WHERE state = 'running';

-- At most one unfinished job per unique key; a finished job frees its key.
CREATE UNIQUE INDEX jobqueue_job_unique_key_idx ON jobqueue_job (unique_key)
    WHERE unique_key IS NOT NULL AND state IN ('ready', 'running');

-- The pruner's scan: finished rows by age.
CREATE INDEX jobqueue_job_finished_idx ON jobqueue_job (finished_at) WHERE state IN ('succeeded', 'cancelled', 'dead');
