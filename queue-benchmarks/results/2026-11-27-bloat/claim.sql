-- The claim statement of PostgresExecution.claim, as the driver runs it (a prepared statement under its generic
-- plan), for 32 jobs of kind bench version 1, explained with its buffers and rolled back. Run with
-- psql -v ON_ERROR_STOP=1 -f claim.sql on the database the bloat workload left behind.
SET plan_cache_mode = force_generic_plan;
PREPARE claim(text, text[], int[], int, text, bigint) AS
WITH picked AS (
    SELECT due.id
    FROM (VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)) AS priorities (priority)
    CROSS JOIN LATERAL (
        SELECT id FROM jobqueue_job
        WHERE state = 'ready' AND queue = $1 AND priority = priorities.priority
          AND run_at <= statement_timestamp()
          AND payload_version <= ($3)[array_position($2, kind)]
          AND kind NOT IN (SELECT name FROM jobqueue_pause WHERE scope = 'kind' AND paused)
        ORDER BY run_at, id
        LIMIT $4
        FOR UPDATE SKIP LOCKED
    ) AS due
    WHERE NOT EXISTS (SELECT 1 FROM jobqueue_pause WHERE scope = 'queue' AND name = $1 AND paused)
    LIMIT $4
), async_commit AS (
    SELECT set_config('synchronous_commit', 'off', true)
)
UPDATE jobqueue_job j
SET state = 'running', attempt = j.attempt + 1, lease_token = j.lease_token + 1,
    lease_owner = $5,
    lease_expires_at = statement_timestamp() + $6 * interval '1 millisecond',
    started_at = statement_timestamp(), claim_confirmed = false
FROM picked, async_commit
WHERE j.id = picked.id
RETURNING j.id;
BEGIN;
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) EXECUTE claim('default', '{bench}', '{1}', 32, 'explain', 60000);
ROLLBACK;
