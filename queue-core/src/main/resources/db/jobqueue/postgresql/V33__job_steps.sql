-- The finished steps of resumable jobs (JobContext.step): one row per job and step name, written once, fenced by the
-- job's lease, and read by every later attempt of the job, which gets the recorded result in place of running the
-- step again. Only jobs that use steps have rows here; the job table's hot statements never read or write it.
-- No foreign key: the insert would lock the job's row (FOR KEY SHARE) until its transaction ends, which for a
-- transactional handler is the whole handler, and the heartbeat, which passes over locked rows, would not extend the
-- lease meanwhile. The pruner and the bulk delete delete a job's steps with the job instead.
CREATE TABLE jobqueue_job_step (
    job_id      bigint      NOT NULL,
    name        text        NOT NULL,
    attempt     integer     NOT NULL,
    result      jsonb,
    recorded_at timestamptz NOT NULL,
    PRIMARY KEY (job_id, name)
);

UPDATE jobqueue_schema_version SET version = 33;
