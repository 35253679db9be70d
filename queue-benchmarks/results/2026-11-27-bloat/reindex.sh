#!/bin/bash
# Usage: reindex.sh JAR RUN_NAME   (from the worktree's root; database test_bloat_bench)
# The bloat workload, then REINDEX INDEX CONCURRENTLY of the ready index while one pgbench client runs the claim
# (rolled back) without pause: its time, and the claims' latencies meanwhile against before.
set -eu
jar=$1; run=$2; out=queue-benchmarks/results/2026-11-27-bloat/$run.txt
P="psql -h 127.0.0.1 -U postgres -d test_bloat_bench -v ON_ERROR_STOP=1"
dir=queue-benchmarks/results/2026-11-27-bloat
claim() { $P -f $dir/claim.sql | grep -E 'Buffers: shared hit=[0-9]+( read=[0-9]+)?$|Execution Time' | sed -n '1p;$p'; }
bench() { pgbench -h 127.0.0.1 -U postgres -n -c 1 -T "$1" -f $dir/claim-rollback.sql test_bloat_bench 2>&1 \
  | grep -E 'number of transactions actually|latency average|latency stddev'; }
{
  echo "# $run: $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg), jar $jar"
  java -jar "$jar" bloat --url 'jdbc:postgresql://127.0.0.1:5432/test_bloat_bench?user=postgres' --jobs 3600 2>&1 | grep '^bloat'
  echo "## after the workload"; claim
  echo "## claims alone, 5 s"; bench 5
  echo "## claims during REINDEX INDEX CONCURRENTLY jobqueue_job_ready_idx, 5 s"
  bench 5 > /tmp/bloat-reindex-bench.txt & b=$!
  sleep 0.5; $P -c '\timing on' -c 'REINDEX INDEX CONCURRENTLY jobqueue_job_ready_idx' | grep -E '^Time'
  wait $b; cat /tmp/bloat-reindex-bench.txt
  echo "## after the reindex"; claim
  echo "## REINDEX INDEX CONCURRENTLY again, alone"; $P -c '\timing on' -c 'REINDEX INDEX CONCURRENTLY jobqueue_job_ready_idx' | grep -E '^Time'
} > "$out" 2>&1
cat "$out"
