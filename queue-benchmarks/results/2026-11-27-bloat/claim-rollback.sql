-- pgbench script: the claim of claim.sql, rolled back, so that every run finds the same rows.
BEGIN;
WITH picked AS (
    SELECT due.id
    FROM (VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)) AS priorities (priority)
    CROSS JOIN LATERAL (
        SELECT id FROM jobqueue_job
        WHERE state = 'ready' AND queue = 'default' AND priority = priorities.priority
          AND run_at <= statement_timestamp()
          AND payload_version <= ('{1}'::int[])[array_position('{bench}'::text[], kind)]
          AND kind NOT IN (SELECT name FROM jobqueue_pause WHERE scope = 'kind' AND paused)
        ORDER BY run_at, id
        LIMIT 32
        FOR UPDATE SKIP LOCKED
    ) AS due
    WHERE NOT EXISTS (SELECT 1 FROM jobqueue_pause WHERE scope = 'queue' AND name = 'default' AND paused)
    LIMIT 32
)
UPDATE jobqueue_job j
SET state = 'running', attempt = j.attempt + 1, lease_token = j.lease_token + 1, lease_owner = 'pgbench',
    lease_expires_at = statement_timestamp() + interval '1 minute', started_at = statement_timestamp()
FROM picked
WHERE j.id = picked.id;
ROLLBACK;
