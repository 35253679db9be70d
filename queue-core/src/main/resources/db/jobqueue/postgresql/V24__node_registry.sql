-- The node registry (docs/architecture.md, "The node registry"): one row per running runtime, written at its start,
-- its last_seen_at and expires_at moved on at every heartbeat (one update of one row per node per heartbeat
-- interval), deleted at its clean stop. A row whose expires_at has passed belongs to a node that died or lost the
-- database: readers ignore it, and the maintenance node deletes it. The times are the database's, as for leases.
-- queues is {"queue": concurrency, …}; kinds is ["kind", …], the kinds whose handlers the node has.
CREATE TABLE jobqueue_node (
    name         text        PRIMARY KEY,
    host         text        NOT NULL,
    version      text        NOT NULL,
    queues       jsonb       NOT NULL,
    kinds        jsonb       NOT NULL,
    started_at   timestamptz NOT NULL,
    last_seen_at timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL
);

UPDATE jobqueue_schema_version SET version = 24;
