#!/bin/bash
# pairs.sh JAR N: N rounds of `drain` on PostgreSQL, jobqueue and jobqueue-prefetch in alternating order, each on a
# new database after a 20,000-job warm-up; prints each round's start and load and each drain's line.
JAR=$1; N=${2:-4}
URL='jdbc:postgresql://127.0.0.1:5432/test_bench?user=postgres'
fresh() { psql -q -h 127.0.0.1 -U postgres -d test -c "drop database if exists test_bench" -c "create database test_bench"; }
for i in $(seq 1 "$N"); do
  echo "== round $i $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)"
  systems=(jobqueue jobqueue-prefetch); [ $((i % 2)) -eq 0 ] && systems=(jobqueue-prefetch jobqueue)
  for system in "${systems[@]}"; do
    fresh
    JOBQUEUE_BENCH_POSTGRES_URL=$URL java -jar "$JAR" drain --systems "$system" --drain-warm-up-jobs 20000 --out "pg-drain-$i-$system.tsv" | grep jobs/s
  done
done
# SQLite, a new temporary file per run (run from this folder):
#   for i in 1 2 3 4; do for s in jobqueue jobqueue-prefetch; do
#     java -jar JAR drain --database sqlite --systems $s --drain-warm-up-jobs 20000 --out sqlite-$i-$s.tsv; done; done
