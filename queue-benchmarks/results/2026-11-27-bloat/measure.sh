#!/bin/bash
# Usage: measure.sh JAR RUN_NAME [VACUUM_OPTIONS]   (from the worktree's root; database test_bloat_bench)
# The bloat workload (3,600 jobs in bursts of 1,000 on 1,000,000 finished ones), then the claim's plan, and what
# each way of vacuuming does to it: VACUUM as the queue ran it before (index cleanup left to PostgreSQL), then with
# INDEX_CLEANUP ON, then that again with nothing left to clean. VACUUM_OPTIONS (e.g. "PARALLEL 0, ") go first
# into every VACUUM's option list.
set -eu
jar=$1; run=$2; opts=${3:-}; out=queue-benchmarks/results/2026-11-27-bloat/$run.txt
P="psql -h 127.0.0.1 -U postgres -d test_bloat_bench -v ON_ERROR_STOP=1"
dir=queue-benchmarks/results/2026-11-27-bloat
claim() { $P -f $dir/claim.sql | grep -E 'Buffers: shared hit=[0-9]+( read=[0-9]+)?$|Execution Time' | sed -n '1p;$p'; }
vacuum() { echo "## VACUUM ($opts$1) jobqueue_job"; $P -c '\timing on' -c "VACUUM ($opts$1) jobqueue_job" 2>&1 \
  | grep -E 'launched|index scan|^index "jobqueue_job_(ready|pkey|finished)|vacuuming "[a-z_.]*jobqueue_job"|buffer usage|^Time'; }
{
  echo "# $run: $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg), jar $jar"
  java -jar "$jar" bloat --url 'jdbc:postgresql://127.0.0.1:5432/test_bloat_bench?user=postgres' --jobs 3600 2>&1 | grep '^bloat'
  echo "## after the workload"; $P -f $dir/state.sql; claim
  vacuum VERBOSE; claim
  vacuum "VERBOSE, INDEX_CLEANUP ON"; claim
  vacuum "VERBOSE, INDEX_CLEANUP ON"
} > "$out" 2>&1
cat "$out"
