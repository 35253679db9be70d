-- Recurring jobs: one row per schedule name, shared by every node that declares it. A node fires a
-- schedule by advancing next_fire_at with a compare-and-set on version and enqueueing the fire time's job
-- in the same transaction, so each fire time is enqueued once in the whole cluster, with no leader.
-- timing is the schedule's timing as the last node to define it wrote it (cron expression and zone, or
-- interval); nodes that declare another timing leave the schedule alone (see docs/architecture.md).
-- next_fire_at is null for a disabled schedule. The jobs a schedule enqueues carry the unique key
-- 'schedule:<name>@<fire time>', which names their schedule and fire time.
CREATE TABLE jobqueue_schedule (
    name         text        PRIMARY KEY,
    timing       text        NOT NULL,
    next_fire_at timestamptz,
    last_fire_at timestamptz,
    version      bigint      NOT NULL CHECK (version >= 1),
    updated_at   timestamptz NOT NULL DEFAULT now()
);
