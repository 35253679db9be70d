-- Workflows (EnqueueOptions.after, JobQueue.workflow()): a job may depend on other jobs. It waits in the new state
-- 'waiting', outside the claim's index, until every job it depends on has finished; then it enters the queue as a new
-- job does (ready, or blocked with a concurrency key), or is cancelled when a dependency it requires did not succeed.
-- Java decides which (Transition.ofDependencies); the statements carry it out, each fenced by state = 'waiting'.
-- Runs outside a transaction (its .conf file): the indexes are built and dropped CONCURRENTLY.

-- has_dependents: some job waits for this one, as far as its enqueue knew. The claim hands it to the worker, whose
-- end of the job then settles the dependents at once; the sweep settles those of jobs enqueued without it.
ALTER TABLE jobqueue_job ADD COLUMN IF NOT EXISTS has_dependents boolean NOT NULL DEFAULT false;

-- The wider check is implied by the old one: NOT VALID spares the table a validating scan, as in V15.
ALTER TABLE jobqueue_job DROP CONSTRAINT IF EXISTS jobqueue_job_state_check;
ALTER TABLE jobqueue_job ADD CONSTRAINT jobqueue_job_state_check
    CHECK (state IN ('waiting', 'blocked', 'ready', 'running', 'succeeded', 'dead', 'cancelled')) NOT VALID;

-- A waiting job is unfinished and holds its unique key. The new index is built before the old one is dropped, as in
-- V15, so that the enqueue's ON CONFLICT always has an index to arbitrate on.
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS jobqueue_job_kind_unique_key_v35_idx ON jobqueue_job (kind, unique_key)
    WHERE unique_key IS NOT NULL AND state IN ('waiting', 'blocked', 'ready', 'running');
DROP INDEX CONCURRENTLY IF EXISTS jobqueue_job_kind_unique_key_idx;
ALTER INDEX jobqueue_job_kind_unique_key_v35_idx RENAME TO jobqueue_job_kind_unique_key_idx;

-- The sweep's walk over waiting jobs, in id order. Empty unless workflows are used.
CREATE INDEX CONCURRENTLY IF NOT EXISTS jobqueue_job_waiting_idx ON jobqueue_job (id) WHERE state = 'waiting';

-- One row per dependency: job_id waits for depends_on. required: job_id is cancelled unless depends_on succeeds; else
-- it runs once depends_on finished, whatever its end. No foreign key, for the reason V33 gives for the steps: a check
-- would lock the dependency's row until the enqueue's transaction ends. The pruner and the bulk delete delete a job's
-- rows with the job; a dependency deleted first counts as succeeded.
CREATE TABLE IF NOT EXISTS jobqueue_job_dependency (
    job_id     bigint  NOT NULL,
    depends_on bigint  NOT NULL,
    required   boolean NOT NULL,
    PRIMARY KEY (job_id, depends_on)
);

-- The dependents of a job that finished.
CREATE INDEX IF NOT EXISTS jobqueue_job_dependency_on_idx ON jobqueue_job_dependency (depends_on);

UPDATE jobqueue_schema_version SET version = 35;
