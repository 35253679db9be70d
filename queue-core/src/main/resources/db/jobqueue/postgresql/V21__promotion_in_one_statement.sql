-- jobqueue_promote as in V18, with every key's count and promotion in one statement instead of four statements per
-- key in a loop. V18's loop cost about 0.3 ms a key (500 keys with a free slot each: 139 - 142 ms), and one
-- promoter thread runs the promotions: a drain over many keys of limit 1, which promotes a key per finished job,
-- waited on it. auto_explain showed V18's per-key update planned again for every key (its plan held the key as a
-- constant). One statement is planned once for all the keys: the same 500 keys take 12 - 15 ms (BENCHMARKS.md,
-- "Flow control: keyed drain", has the script).
-- The locks are still taken first, one key after the other in lock-number order, so the statement, which starts
-- after they are held, reads under READ COMMITTED a snapshot that holds every promotion of these keys committed
-- before: the counts are as safe as V15's, one snapshot for all keys instead of one per key.
-- The chosen ids are gathered into an array and the rows updated by a join with its elements: the planner knows
-- nothing of the array's length and looks each row up by its primary key. The state is compared with a
-- subquery's 'blocked', not the constant, so that the blocked index, whose predicate the constant would match and
-- whose second column is the id, cannot serve the update: with it the planner read the whole blocked index for
-- the ids (740 ms of an 800 ms promotion of 1,000 keys over 20,000 waiting jobs), or, on a table not yet
-- analyzed, hashed every waiting job (PostgresBatchPlanTest). The comparison still holds for the row as updated,
-- so a job cancelled meanwhile stays cancelled.
-- free is materialized so that each key's counts are read once, not again for its LIMIT.
CREATE OR REPLACE FUNCTION jobqueue_promote(keys text[]) RETURNS SETOF text
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    lock_number integer;
BEGIN
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION 'jobqueue_promote must run under READ COMMITTED, not %', current_setting('transaction_isolation');
    END IF;
    FOR lock_number IN SELECT DISTINCT hashtext(k) FROM unnest(keys) AS k WHERE k IS NOT NULL ORDER BY 1 LOOP
        PERFORM pg_advisory_xact_lock(hashtext('jobqueue_concurrency_key'), lock_number);
    END LOOP;
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
                    AND (h.state IN ('ready', 'running') OR (h.state = 'dead' AND h.concurrency_dead_holds)))
               - CASE WHEN rate_millis IS NULL THEN 0 ELSE
                     (SELECT count(*) FROM jobqueue_job s
                      WHERE s.concurrency_key = waiting.key
                        AND s.started_at > statement_timestamp() - rate_millis * interval '1 millisecond'
                        AND NOT (s.state IN ('ready', 'running') OR (s.state = 'dead' AND s.concurrency_dead_holds)))
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

UPDATE jobqueue_schema_version SET version = 21;
