-- Rate limits on concurrency keys (docs/architecture.md, "Concurrency keys", rate limits): a key with a rate of N starts per
-- period counts among its slot holders, besides its ready and running jobs, every job of the key that started
-- within the last period, whatever its state now; so at most N of its jobs start in any window of that length.
ALTER TABLE jobqueue_job ADD COLUMN concurrency_rate_millis bigint CHECK (concurrency_rate_millis >= 1);

-- A key's jobs by start, for the count of recent starts: keyed rows only.
CREATE INDEX jobqueue_job_key_started_idx ON jobqueue_job (concurrency_key, started_at) WHERE concurrency_key IS NOT NULL;

-- As V15's, and for a key with a rate (its first waiting job's decides): jobs that started within the period
-- hold a slot, and a waiting job that started within it (a retry, which waits as blocked on such a key) is not
-- promoted until the period since its start has passed. Each count is a statement of its own, after the lock.
CREATE OR REPLACE FUNCTION jobqueue_promote(keys text[]) RETURNS SETOF text
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    lock_number integer;
    one_key text;
    first_limit integer;
    rate_millis bigint;
    holders bigint;
BEGIN
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION 'jobqueue_promote must run under READ COMMITTED, not %', current_setting('transaction_isolation');
    END IF;
    FOR lock_number IN SELECT DISTINCT hashtext(k) FROM unnest(keys) AS k WHERE k IS NOT NULL ORDER BY 1 LOOP
        PERFORM pg_advisory_xact_lock(hashtext('jobqueue_concurrency_key'), lock_number);
    END LOOP;
    FOR one_key IN SELECT DISTINCT k FROM unnest(keys) AS k WHERE k IS NOT NULL LOOP
        SELECT concurrency_limit, concurrency_rate_millis INTO first_limit, rate_millis
        FROM jobqueue_job WHERE state = 'blocked' AND concurrency_key = one_key ORDER BY id LIMIT 1;
        CONTINUE WHEN NOT FOUND;
        SELECT count(*) INTO holders FROM jobqueue_job
        WHERE concurrency_key = one_key
          AND (state IN ('ready', 'running') OR (state = 'dead' AND concurrency_dead_holds));
        IF rate_millis IS NOT NULL THEN
            holders := holders + (SELECT count(*) FROM jobqueue_job
                                  WHERE concurrency_key = one_key
                                    AND started_at > statement_timestamp() - rate_millis * interval '1 millisecond'
                                    AND NOT (state IN ('ready', 'running') OR (state = 'dead' AND concurrency_dead_holds)));
        END IF;
        -- Joined by id, as V15's: an IN (subquery) here was planned as a scan of the whole table per key.
        RETURN QUERY
        WITH next AS (
            SELECT id FROM jobqueue_job
            WHERE state = 'blocked' AND concurrency_key = one_key
              AND (rate_millis IS NULL OR started_at IS NULL
                   OR started_at <= statement_timestamp() - rate_millis * interval '1 millisecond')
            ORDER BY id
            LIMIT GREATEST(0, first_limit - holders)
        )
        UPDATE jobqueue_job j
        SET state = 'ready', run_at = GREATEST(j.run_at, statement_timestamp())
        FROM next
        WHERE j.id = next.id AND j.state = 'blocked'
        RETURNING j.queue;
    END LOOP;
END
$$;
