-- Which node runs the maintenance roles (reaper, pruner, vacuum, the sweep of concurrency keys): at most one row,
-- held by one runtime until expires_at, renewed by that runtime and taken by another once it expired (a node
-- that died) or was deleted (a node that stopped). A row rather than an advisory lock: a session-level lock
-- lives on one connection, which PgBouncer in transaction pooling mode hands to other clients between
-- transactions, and a transaction-level one would hold a connection for as long as the node maintains.
-- The times are the database's, as for job leases.
CREATE TABLE jobqueue_maintenance (
    single     boolean     PRIMARY KEY DEFAULT true CHECK (single),
    holder     text        NOT NULL,
    expires_at timestamptz NOT NULL
);

UPDATE jobqueue_schema_version SET version = 22;
