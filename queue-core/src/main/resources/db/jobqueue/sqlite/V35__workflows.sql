-- Workflows, as on PostgreSQL (see the script of the same version there): the new state 'waiting', has_dependents,
-- and the table of dependencies. SQLite cannot change a table's CHECK, so the table is built again, as in V15, with
-- the wider one and the new column, its rows copied over with their ids and its AUTOINCREMENT counter carried over.
-- The steps' trigger goes first, so that the old table's drop cannot fire it, and comes back on the new table.
DROP TRIGGER jobqueue_job_step_deleted_with_job;

CREATE TABLE jobqueue_job_v35 (
    id                      INTEGER PRIMARY KEY AUTOINCREMENT,
    queue                   TEXT    NOT NULL,
    kind                    TEXT    NOT NULL,
    payload                 TEXT    NOT NULL CHECK (json_valid(payload)),
    state                   TEXT    NOT NULL
                            CHECK (state IN ('waiting', 'blocked', 'ready', 'running', 'succeeded', 'dead', 'cancelled')),
    priority                INTEGER NOT NULL DEFAULT 5 CHECK (priority BETWEEN 0 AND 9),
    run_at                  INTEGER NOT NULL,
    attempt                 INTEGER NOT NULL DEFAULT 0,
    max_attempts            INTEGER NOT NULL CHECK (max_attempts >= 1),
    lease_owner             TEXT,
    lease_expires_at        INTEGER,
    lease_token             INTEGER NOT NULL DEFAULT 0,
    unique_key              TEXT,
    last_error              TEXT,
    result                  TEXT CHECK (result IS NULL OR json_valid(result)),
    created_at              INTEGER NOT NULL,
    started_at              INTEGER,
    finished_at             INTEGER,
    errors                  TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(errors)),
    attempt_given_back      INTEGER NOT NULL DEFAULT 0 CHECK (attempt_given_back IN (0, 1)),
    claim_confirmed         INTEGER NOT NULL DEFAULT 1 CHECK (claim_confirmed IN (0, 1)),
    unconfirmed_reaps       INTEGER NOT NULL DEFAULT 0,
    payload_version         INTEGER NOT NULL DEFAULT 1 CHECK (payload_version >= 1),
    snoozes                 INTEGER NOT NULL DEFAULT 0,
    concurrency_key         TEXT,
    concurrency_limit       INTEGER CHECK (concurrency_limit >= 1),
    concurrency_dead_holds  INTEGER NOT NULL DEFAULT 0 CHECK (concurrency_dead_holds IN (0, 1)),
    concurrency_rate_millis INTEGER CHECK (concurrency_rate_millis >= 1),
    trace_context           TEXT,
    has_dependents          INTEGER NOT NULL DEFAULT 0 CHECK (has_dependents IN (0, 1))
) STRICT;

INSERT INTO jobqueue_job_v35 (id, queue, kind, payload, state, priority, run_at, attempt, max_attempts, lease_owner,
                              lease_expires_at, lease_token, unique_key, last_error, result, created_at, started_at,
                              finished_at, errors, attempt_given_back, claim_confirmed, unconfirmed_reaps,
                              payload_version, snoozes, concurrency_key, concurrency_limit, concurrency_dead_holds,
                              concurrency_rate_millis, trace_context)
SELECT id, queue, kind, payload, state, priority, run_at, attempt, max_attempts, lease_owner, lease_expires_at,
       lease_token, unique_key, last_error, result, created_at, started_at, finished_at, errors, attempt_given_back,
       claim_confirmed, unconfirmed_reaps, payload_version, snoozes, concurrency_key, concurrency_limit,
       concurrency_dead_holds, concurrency_rate_millis, trace_context
FROM jobqueue_job;

DELETE FROM sqlite_sequence WHERE name = 'jobqueue_job_v35';
INSERT INTO sqlite_sequence (name, seq) SELECT 'jobqueue_job_v35', seq FROM sqlite_sequence WHERE name = 'jobqueue_job';

DROP TABLE jobqueue_job;
ALTER TABLE jobqueue_job_v35 RENAME TO jobqueue_job;

CREATE INDEX jobqueue_job_ready_idx ON jobqueue_job (queue, priority, run_at, id) WHERE state = 'ready';
CREATE INDEX jobqueue_job_lease_idx ON jobqueue_job (lease_expires_at) WHERE lease_expires_at IS NOT NULL;
CREATE UNIQUE INDEX jobqueue_job_kind_unique_key_idx ON jobqueue_job (kind, unique_key)
    WHERE unique_key IS NOT NULL AND state IN ('waiting', 'blocked', 'ready', 'running');
CREATE INDEX jobqueue_job_blocked_idx ON jobqueue_job (concurrency_key, id) WHERE state = 'blocked';
CREATE INDEX jobqueue_job_key_started_idx ON jobqueue_job (concurrency_key, started_at) WHERE concurrency_key IS NOT NULL;
CREATE INDEX jobqueue_job_cancelled_dead_idx ON jobqueue_job (state, id)
    WHERE state IN ('cancelled', 'dead');
CREATE INDEX jobqueue_job_key_holder_idx ON jobqueue_job (concurrency_key)
    WHERE concurrency_key IS NOT NULL AND (state IN ('ready', 'running') OR (state = 'dead' AND concurrency_dead_holds = 1) OR (state = 'cancelled' AND lease_expires_at IS NOT NULL));
CREATE INDEX jobqueue_job_queue_finished_idx ON jobqueue_job (queue, state, finished_at)
    WHERE state IN ('succeeded', 'cancelled', 'dead');
CREATE INDEX jobqueue_job_waiting_idx ON jobqueue_job (id) WHERE state = 'waiting';

CREATE TABLE jobqueue_job_dependency (
    job_id     INTEGER NOT NULL,
    depends_on INTEGER NOT NULL,
    required   INTEGER NOT NULL CHECK (required IN (0, 1)),
    PRIMARY KEY (job_id, depends_on)
) STRICT;

CREATE INDEX jobqueue_job_dependency_on_idx ON jobqueue_job_dependency (depends_on);

-- A trigger deletes a job's steps and dependencies with it, whoever deletes it, as V33 says for the steps.
CREATE TRIGGER jobqueue_job_deleted AFTER DELETE ON jobqueue_job
BEGIN
    DELETE FROM jobqueue_job_step WHERE job_id = OLD.id;
    DELETE FROM jobqueue_job_dependency WHERE job_id = OLD.id;
END;

UPDATE jobqueue_schema_version SET version = 35;
