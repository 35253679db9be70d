-- MySQL 8 and MariaDB 10.6+ (10.5 with the compare-and-set claim): the whole schema at version 26, the shape that
-- PostgreSQL and SQLite reached through V1 - V26 (their scripts say why each column and index exists). A new
-- dialect starts at the current version; docs/architecture.md ("MySQL and MariaDB") says what differs.
--
-- Times are DATETIME(6) in UTC, written only from the database's clock (UTC_TIMESTAMP(6)) or from instants the
-- caller gave: DATETIME is never converted by the session's time zone, where TIMESTAMP would be, and it holds the
-- years 0001 - 9999 that EnqueueOptions allows. JSON is LONGTEXT checked by JSON_VALID: MySQL's JSON type
-- rewrites the text (key order, spacing), and a payload is the handler's text, returned as written.
-- utf8mb4_bin: names and keys compare byte for byte, as on the other databases, not case-insensitively.
-- The default of errors is an expression, ('[]'): MySQL allows no literal default on a TEXT column.
CREATE TABLE jobqueue_job (
    id                      BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
    queue                   VARCHAR(255) NOT NULL,
    kind                    VARCHAR(255) NOT NULL,
    payload                 LONGTEXT     NOT NULL CHECK (JSON_VALID(payload)),
    payload_version         INT          NOT NULL DEFAULT 1 CHECK (payload_version >= 1),
    state                   VARCHAR(16)  NOT NULL
                            CHECK (state IN ('blocked', 'ready', 'running', 'succeeded', 'dead', 'cancelled')),
    priority                TINYINT      NOT NULL DEFAULT 5 CHECK (priority BETWEEN 0 AND 9),
    run_at                  DATETIME(6)  NOT NULL,
    attempt                 INT          NOT NULL DEFAULT 0,
    max_attempts            INT          NOT NULL CHECK (max_attempts >= 1),
    -- Who holds the job while it runs, until when, and the fencing token of that claim: it grows by one at every
    -- claim, and every write about a running job names it. lease_expires_at is set on running rows only.
    lease_owner             VARCHAR(255),
    lease_expires_at        DATETIME(6),
    lease_token             BIGINT       NOT NULL DEFAULT 0,
    unique_key              VARCHAR(1024),
    last_error              LONGTEXT,
    result                  LONGTEXT     CHECK (result IS NULL OR JSON_VALID(result)),
    created_at              DATETIME(6)  NOT NULL,
    started_at              DATETIME(6),
    -- Set on finished rows only (succeeded, cancelled, dead): the pruner's index holds just them.
    finished_at             DATETIME(6),
    errors                  LONGTEXT     NOT NULL DEFAULT ('[]') CHECK (JSON_VALID(errors)),
    attempt_given_back      BOOLEAN      NOT NULL DEFAULT FALSE,
    claim_confirmed         BOOLEAN      NOT NULL DEFAULT TRUE,
    unconfirmed_reaps       INT          NOT NULL DEFAULT 0,
    snoozes                 INT          NOT NULL DEFAULT 0,
    concurrency_key         VARCHAR(255),
    concurrency_limit       INT          CHECK (concurrency_limit >= 1),
    concurrency_dead_holds  BOOLEAN      NOT NULL DEFAULT FALSE,
    concurrency_rate_millis BIGINT       CHECK (concurrency_rate_millis >= 1),
    trace_context           TEXT,
    -- MySQL has no partial unique index. This column is the unique key's SHA-256 while the job is unfinished and
    -- NULL once it finished (or when it has no key); a unique index allows any number of NULLs, so the index on
    -- (kind, this) is PostgreSQL's partial one. Hashed, because a key may be 1,024 bytes and an index entry 3,072.
    unfinished_unique_key   BINARY(32) AS (CASE WHEN state IN ('blocked', 'ready', 'running')
                                                THEN UNHEX(SHA2(unique_key, 256)) END) STORED
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- The claim's index. No partial index: state comes right after queue, so the claim's equalities (queue, state =
-- 'ready') reach the ready rows of one queue, in claim order, and never an entry of a finished or running row.
CREATE INDEX jobqueue_job_ready_idx ON jobqueue_job (queue, state, priority, run_at, id);

-- The reaper's scan: only running rows have an expiry, and the range lease_expires_at < now skips the NULLs.
CREATE INDEX jobqueue_job_lease_idx ON jobqueue_job (lease_expires_at);

-- The pruner's scan and the finished-per-minute telemetry: only finished rows have a finished time.
CREATE INDEX jobqueue_job_finished_idx ON jobqueue_job (finished_at);

-- At most one unfinished job per (kind, unique key): see unfinished_unique_key.
CREATE UNIQUE INDEX jobqueue_job_kind_unique_key_idx ON jobqueue_job (kind, unfinished_unique_key);

-- A key's jobs by state then enqueue order: the promotion's waiting jobs (state = 'blocked', first ones first)
-- and its slot holders (ready, running, dead), each a range of this index.
CREATE INDEX jobqueue_job_key_idx ON jobqueue_job (concurrency_key, state, id);

-- A key's jobs by start, for the count of recent starts of a key with a rate.
CREATE INDEX jobqueue_job_key_started_idx ON jobqueue_job (concurrency_key, started_at);

-- The search and the counts: one queue's jobs of a state newest first, and one state's jobs in every queue.
CREATE INDEX jobqueue_job_queue_state_idx ON jobqueue_job (queue, state, id);
CREATE INDEX jobqueue_job_state_idx ON jobqueue_job (state, queue, id);

CREATE TABLE jobqueue_schedule (
    name         VARCHAR(255) NOT NULL PRIMARY KEY,
    timing       TEXT         NOT NULL,
    next_fire_at DATETIME(6),
    last_fire_at DATETIME(6),
    version      BIGINT       NOT NULL CHECK (version >= 1),
    updated_at   DATETIME(6)  NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE jobqueue_pause (
    scope      VARCHAR(8)   NOT NULL CHECK (scope IN ('queue', 'kind')),
    name       VARCHAR(255) NOT NULL,
    paused     BOOLEAN      NOT NULL,
    changed_at DATETIME(6)  NOT NULL,
    PRIMARY KEY (scope, name)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE jobqueue_maintenance (
    single     TINYINT      NOT NULL DEFAULT 1 PRIMARY KEY CHECK (single = 1),
    holder     VARCHAR(255) NOT NULL,
    expires_at DATETIME(6)  NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE jobqueue_node (
    name         VARCHAR(255) NOT NULL PRIMARY KEY,
    host         VARCHAR(255) NOT NULL,
    version      VARCHAR(64)  NOT NULL,
    queues       TEXT         NOT NULL,
    kinds        TEXT         NOT NULL,
    started_at   DATETIME(6)  NOT NULL,
    last_seen_at DATETIME(6)  NOT NULL,
    expires_at   DATETIME(6)  NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE jobqueue_schema_version (
    single  TINYINT NOT NULL DEFAULT 1 PRIMARY KEY CHECK (single = 1),
    version INT     NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

INSERT INTO jobqueue_schema_version (version) VALUES (26);
