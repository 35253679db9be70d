-- Concurrency keys (docs/architecture.md, "Concurrency keys"). A job enqueued with a key waits in the new state
-- 'blocked', outside the claim's index, until a slot of its key is free; jobqueue_promote hands the slots out in
-- enqueue order. A key's slots are taken by its jobs that are ready or running (and dead, for keys whose dead
-- jobs hold their slot), so the claim, which sees ready jobs only, can never start more than the limit.
ALTER TABLE jobqueue_job
    ADD COLUMN concurrency_key text,
    ADD COLUMN concurrency_limit integer CHECK (concurrency_limit >= 1),
    ADD COLUMN concurrency_dead_holds boolean NOT NULL DEFAULT false;

-- The wider check is implied by the old one, so the rows already there need no scan: NOT VALID checks new
-- and updated rows only, and spares the table the exclusive lock a validating scan would hold.
ALTER TABLE jobqueue_job DROP CONSTRAINT jobqueue_job_state_check;
ALTER TABLE jobqueue_job ADD CONSTRAINT jobqueue_job_state_check
    CHECK (state IN ('blocked', 'ready', 'running', 'succeeded', 'dead', 'cancelled')) NOT VALID;

-- A key's waiting jobs in enqueue order: the promotion takes the first ones.
CREATE INDEX jobqueue_job_blocked_idx ON jobqueue_job (concurrency_key, id) WHERE state = 'blocked';

-- A key's jobs holding a slot: the promotion counts them under the key's lock.
CREATE INDEX jobqueue_job_key_slot_idx ON jobqueue_job (concurrency_key)
    WHERE concurrency_key IS NOT NULL AND (state IN ('ready', 'running') OR (state = 'dead' AND concurrency_dead_holds));

-- A blocked job is unfinished and holds its unique key like a ready one. The new index is built before the
-- old one is dropped, as in V11, so the enqueue's ON CONFLICT always has an index to arbitrate on.
CREATE UNIQUE INDEX jobqueue_job_kind_unique_key_v15_idx ON jobqueue_job (kind, unique_key)
    WHERE unique_key IS NOT NULL AND state IN ('blocked', 'ready', 'running');
DROP INDEX jobqueue_job_kind_unique_key_idx;
ALTER INDEX jobqueue_job_kind_unique_key_v15_idx RENAME TO jobqueue_job_kind_unique_key_idx;

-- Grants the free slots of the given keys to their blocked jobs, first enqueued first, and returns the queue
-- of each job it made ready. The key's lock (a transaction-level advisory lock, which transaction pooling
-- keeps) serializes every promotion of a key across nodes; the count of the key's slots is read after the
-- lock is held, in a statement of its own, so under READ COMMITTED it sees every promotion committed before
-- (a count in the same statement as the lock would read a snapshot taken before the lock). Under a stricter
-- isolation the snapshot would be the transaction's first, so the function refuses to run there.
-- The locks are taken in the order of their numbers, one order for every caller, so that two promotions of
-- overlapping keys cannot deadlock. The slot count is the first waiting job's limit.
-- A promoted job's run_at moves to now when it is earlier: it joins the back of the ready line, behind the
-- jobs that became ready while it waited, which is what shares a queue fairly between keys.
CREATE FUNCTION jobqueue_promote(keys text[]) RETURNS SETOF text
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    lock_number integer;
    one_key text;
BEGIN
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION 'jobqueue_promote must run under READ COMMITTED, not %', current_setting('transaction_isolation');
    END IF;
    FOR lock_number IN SELECT DISTINCT hashtext(k) FROM unnest(keys) AS k WHERE k IS NOT NULL ORDER BY 1 LOOP
        PERFORM pg_advisory_xact_lock(hashtext('jobqueue_concurrency_key'), lock_number);
    END LOOP;
    FOR one_key IN SELECT DISTINCT k FROM unnest(keys) AS k WHERE k IS NOT NULL LOOP
        RETURN QUERY
        WITH next AS (
            SELECT id FROM jobqueue_job
            WHERE state = 'blocked' AND concurrency_key = one_key
            ORDER BY id
            LIMIT GREATEST(0,
                (SELECT concurrency_limit FROM jobqueue_job
                 WHERE state = 'blocked' AND concurrency_key = one_key ORDER BY id LIMIT 1)
                - (SELECT count(*) FROM jobqueue_job
                   WHERE concurrency_key = one_key
                     AND (state IN ('ready', 'running') OR (state = 'dead' AND concurrency_dead_holds))))
        )
        UPDATE jobqueue_job j
        SET state = 'ready', run_at = GREATEST(j.run_at, statement_timestamp())
        FROM next
        WHERE j.id = next.id AND j.state = 'blocked'
        RETURNING j.queue;
    END LOOP;
END
$$;
