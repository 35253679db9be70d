-- A kind's limits, declared by the nodes that serve it (docs/guide/flow-control.md, "Who decides a kind's limits"):
-- each serving node writes its kinds' rows at its start, the last start's declaration standing, and every enqueue
-- (a schedule, another application, a node that lists the kind as external) takes the kind's limits from here.
-- rate_period_millis is null without a rate; declared_by is the node's name, declared_at the database's time.
CREATE TABLE jobqueue_kind (
    kind                  text        PRIMARY KEY,
    concurrency_key_limit integer     NOT NULL,
    dead_job_blocks_key   boolean     NOT NULL,
    cluster_concurrency   integer     NOT NULL,
    rate_starts           integer     NOT NULL,
    rate_period_millis    bigint,
    declared_by           text        NOT NULL,
    declared_at           timestamptz NOT NULL
);

UPDATE jobqueue_schema_version SET version = 30;
