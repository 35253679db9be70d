#!/bin/bash
# the candidates' read from a cursor: the newest job no longer ready
C=$(mysql -uroot -N test_bench -e "select priority, run_at, id from jobqueue_job where id = (select max(id) from jobqueue_job where state <> 'ready')")
P=$(echo "$C" | cut -f1); R=$(echo "$C" | cut -f2); I=$(echo "$C" | cut -f3)
echo "cursor $P $R $I"
mysql -uroot test_bench <<SQL
SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED;
EXPLAIN SELECT id FROM jobqueue_job FORCE INDEX (jobqueue_job_ready_idx)
WHERE queue = 'default' AND state = 'ready' AND priority IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
  AND run_at <= UTC_TIMESTAMP(6) AND (priority <> $P OR (run_at, id) > ('$R', $I))
ORDER BY priority, run_at, id LIMIT 60;
ANALYZE FORMAT=JSON SELECT id FROM jobqueue_job FORCE INDEX (jobqueue_job_ready_idx)
WHERE queue = 'default' AND state = 'ready' AND priority IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
  AND run_at <= UTC_TIMESTAMP(6) AND (priority <> $P OR (run_at, id) > ('$R', $I))
  AND kind IN ('bench') AND payload_version <= ELT(FIELD(kind, 'bench'), 1)
  AND (SELECT count(*) FROM jobqueue_pause WHERE scope = 'queue' AND name = 'default' AND paused) = 0
  AND (SELECT count(*) FROM jobqueue_pause p WHERE p.scope = 'kind' AND p.name = jobqueue_job.kind AND p.paused) = 0
ORDER BY priority, run_at, id LIMIT 60;
SQL
