-- Concurrency keys (docs/architecture.md, "Concurrency keys"): a job enqueued with a key waits in the new state
-- 'blocked', outside the claim's index, until a slot of its key is free. SQLite cannot change a table's CHECK,
-- so the table is built again with the wider one and the three new columns, and its rows copied over with
-- their ids. The AUTOINCREMENT counter is carried over too: the copy alone would set it to the highest id
-- left in the table, and the ids of pruned jobs above it would be handed out again.
CREATE TABLE jobqueue_job_v15 (
    id                     INTEGER PRIMARY KEY AUTOINCREMENT,
    queue                  TEXT    NOT NULL,
    kind                   TEXT    NOT NULL,
    payload                TEXT    NOT NULL CHECK (json_valid(payload)),
    state                  TEXT    NOT NULL
                                   CHECK (state IN ('blocked', 'ready', 'running', 'succeeded', 'dead', 'cancelled')),
    priority               INTEGER NOT NULL DEFAULT 5 CHECK (priority BETWEEN 0 AND 9),
    run_at                 INTEGER NOT NULL,
    attempt                INTEGER NOT NULL DEFAULT 0,
    max_attempts           INTEGER NOT NULL CHECK (max_attempts >= 1),
    lease_owner            TEXT,
    lease_expires_at       INTEGER,
    lease_token            INTEGER NOT NULL DEFAULT 0,
    unique_key             TEXT,
    last_error             TEXT,
    result                 TEXT CHECK (result IS NULL OR json_valid(result)),
    created_at             INTEGER NOT NULL,
    started_at             INTEGER,
    finished_at            INTEGER,
    errors                 TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(errors)),
    attempt_given_back     INTEGER NOT NULL DEFAULT 0 CHECK (attempt_given_back IN (0, 1)),
    claim_confirmed        INTEGER NOT NULL DEFAULT 1 CHECK (claim_confirmed IN (0, 1)),
    unconfirmed_reaps      INTEGER NOT NULL DEFAULT 0,
    payload_version        INTEGER NOT NULL DEFAULT 1 CHECK (payload_version >= 1),
    snoozes                INTEGER NOT NULL DEFAULT 0,
    concurrency_key        TEXT,
    concurrency_limit      INTEGER CHECK (concurrency_limit >= 1),
    concurrency_dead_holds INTEGER NOT NULL DEFAULT 0 CHECK (concurrency_dead_holds IN (0, 1))
) STRICT;

INSERT INTO jobqueue_job_v15 (id, queue, kind, payload, state, priority, run_at, attempt, max_attempts, lease_owner,
                              lease_expires_at, lease_token, unique_key, last_error, result, created_at, started_at,
                              finished_at, errors, attempt_given_back, claim_confirmed, unconfirmed_reaps,
                              payload_version, snoozes)
SELECT id, queue, kind, payload, state, priority, run_at, attempt, max_attempts, lease_owner, lease_expires_at,
       lease_token, unique_key, last_error, result, created_at, started_at, finished_at, errors, attempt_given_back,
       claim_confirmed, unconfirmed_reaps, payload_version, snoozes
FROM jobqueue_job;

DELETE FROM sqlite_sequence WHERE name = 'jobqueue_job_v15';
INSERT INTO sqlite_sequence (name, seq) SELECT 'jobqueue_job_v15', seq FROM sqlite_sequence WHERE name = 'jobqueue_job';

DROP TABLE jobqueue_job;
ALTER TABLE jobqueue_job_v15 RENAME TO jobqueue_job;

CREATE INDEX jobqueue_job_ready_idx ON jobqueue_job (queue, priority, run_at, id) WHERE state = 'ready';
CREATE INDEX jobqueue_job_lease_idx ON jobqueue_job (lease_expires_at) WHERE lease_expires_at IS NOT NULL;
CREATE INDEX jobqueue_job_finished_idx ON jobqueue_job (finished_at) WHERE state IN ('succeeded', 'cancelled', 'dead');
-- A blocked job is unfinished and holds its unique key like a ready one.
CREATE UNIQUE INDEX jobqueue_job_kind_unique_key_idx ON jobqueue_job (kind, unique_key)
    WHERE unique_key IS NOT NULL AND state IN ('blocked', 'ready', 'running');
-- A key's waiting jobs in enqueue order: the promotion takes the first ones.
CREATE INDEX jobqueue_job_blocked_idx ON jobqueue_job (concurrency_key, id) WHERE state = 'blocked';
-- A key's jobs holding a slot: the promotion counts them.
CREATE INDEX jobqueue_job_key_slot_idx ON jobqueue_job (concurrency_key)
    WHERE concurrency_key IS NOT NULL AND (state IN ('ready', 'running') OR (state = 'dead' AND concurrency_dead_holds = 1));
