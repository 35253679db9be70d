-- A job cancelled while it ran keeps its worker's lease until the worker writes that the handler exited, or the
-- reaper lets go of the lease once it expired (the node died), and while the lease is on it the job holds its slot
-- of its concurrency key (Transition.Facts#holdsSlot, docs/decisions/046): the key's next job must not start beside
-- a handler that has not yet answered its interrupt. The holders' index and jobqueue_promote count such a row too.
-- The new index is built before the function reads it and the old one dropped last, CONCURRENTLY, outside a
-- transaction (the .conf file), as in V23, so that every step leaves a working queue.
CREATE INDEX CONCURRENTLY IF NOT EXISTS jobqueue_job_key_holder_idx ON jobqueue_job (concurrency_key)
    WHERE concurrency_key IS NOT NULL AND (state IN ('ready', 'running') OR (state = 'dead' AND concurrency_dead_holds)
                                           OR (state = 'cancelled' AND lease_expires_at IS NOT NULL));

-- jobqueue_promote as in V23, with the cancelled rows that hold their slots counted as holders (and so not again
-- among the rate's recent starts).
CREATE OR REPLACE FUNCTION jobqueue_promote(keys text[]) RETURNS SETOF text
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION 'jobqueue_promote must run under READ COMMITTED, not %', current_setting('transaction_isolation');
    END IF;
    PERFORM pg_advisory_xact_lock(hashtext('jobqueue_concurrency_key'), n)
    FROM (SELECT DISTINCT hashtext(k) AS n FROM unnest(keys) AS k WHERE k IS NOT NULL ORDER BY 1) l;
    RETURN QUERY
    WITH waiting AS (
        -- Each key's first waiting job decides its slots and its rate; a key with none is left out.
        SELECT w.key, f.concurrency_limit AS slots, f.concurrency_rate_millis AS rate_millis
        FROM (SELECT DISTINCT k AS key FROM unnest(keys) AS k WHERE k IS NOT NULL) w
        CROSS JOIN LATERAL (
            SELECT concurrency_limit, concurrency_rate_millis FROM jobqueue_job
            WHERE state = 'blocked' AND concurrency_key = w.key
            ORDER BY concurrency_key, id LIMIT 1) f
    ), free AS MATERIALIZED (
        SELECT key, rate_millis,
               slots
               - (SELECT count(*) FROM jobqueue_job h
                  WHERE h.concurrency_key = waiting.key
                    AND (h.state IN ('ready', 'running') OR (h.state = 'dead' AND h.concurrency_dead_holds)
                         OR (h.state = 'cancelled' AND h.lease_expires_at IS NOT NULL)))
               - CASE WHEN rate_millis IS NULL THEN 0 ELSE
                     (SELECT count(*) FROM jobqueue_job s
                      WHERE s.concurrency_key = waiting.key
                        AND s.concurrency_rate_millis IS NOT NULL AND s.started_at > statement_timestamp() - rate_millis * interval '1 millisecond'
                        AND NOT (s.state IN ('ready', 'running') OR (s.state = 'dead' AND s.concurrency_dead_holds)
                                 OR (s.state = 'cancelled' AND s.lease_expires_at IS NOT NULL)))
                 END AS free_slots
        FROM waiting
    )
    UPDATE jobqueue_job j
    SET state = 'ready', run_at = GREATEST(j.run_at, statement_timestamp())
    FROM unnest(ARRAY(
        SELECT n.id FROM free
        CROSS JOIN LATERAL (
            SELECT b.id FROM jobqueue_job b
            WHERE b.state = 'blocked' AND b.concurrency_key = free.key
              AND (free.rate_millis IS NULL OR b.started_at IS NULL
                   OR b.started_at <= statement_timestamp() - free.rate_millis * interval '1 millisecond')
            ORDER BY b.concurrency_key, b.id
            LIMIT free.free_slots) n
        WHERE free.free_slots > 0)) AS next(id)
    WHERE j.id = next.id AND j.state = (SELECT 'blocked')
    RETURNING j.queue;
END
$$;

DROP INDEX CONCURRENTLY IF EXISTS jobqueue_job_key_slot_idx;

-- Version 30 is another change's; this one is recorded as 31 on every database (JobSchema.VERSION).
UPDATE jobqueue_schema_version SET version = 31;
