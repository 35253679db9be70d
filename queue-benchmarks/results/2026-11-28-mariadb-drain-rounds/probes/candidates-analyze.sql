SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED;
ANALYZE FORMAT=JSON SELECT id
FROM jobqueue_job FORCE INDEX (jobqueue_job_ready_idx)
WHERE queue = 'default' AND state = 'ready' AND priority IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
  AND run_at <= UTC_TIMESTAMP(6)
  AND kind IN ('bench') AND payload_version <= ELT(FIELD(kind, 'bench'), 1)
  AND (SELECT count(*) FROM jobqueue_pause WHERE scope = 'queue' AND name = 'default' AND paused) = 0
  AND (SELECT count(*) FROM jobqueue_pause p WHERE p.scope = 'kind' AND p.name = jobqueue_job.kind AND p.paused) = 0
ORDER BY priority, run_at, id
LIMIT 60;
