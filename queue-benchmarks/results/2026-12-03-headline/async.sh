#!/bin/bash
# async.sh JAR: the PostgreSQL drain at equal durability: db-scheduler with synchronous_commit = off for every commit
# of its database (ALTER DATABASE), as jobqueue's claims and completions commit; jobqueue beside it as it always runs.
# Three rounds, each library in a JVM of its own on a fresh database, the order reversed every other round.
B=$1
cd "$(dirname "$0")"
export JOBQUEUE_BENCH_POSTGRES_URL='jdbc:postgresql://127.0.0.1:5432/test_bench?user=postgres'
runs=(jobqueue db-scheduler db-scheduler-prefetch)
for round in 1 2 3; do
  echo "$(date +%T) async round $round load $(cut -d' ' -f1-3 /proc/loadavg)" >> runs.log
  order=("${runs[@]}")
  [ $round = 2 ] && mapfile -t order < <(printf '%s\n' "${runs[@]}" | tac)
  for system in "${order[@]}"; do
    psql -q -h 127.0.0.1 -U postgres -d test -c "drop database if exists test_bench with (force)" -c "create database test_bench" \
      -c "alter database test_bench set synchronous_commit = off"
    java -jar $B drain --systems $system --out a$round-$system.tsv > a$round-$system.log 2>&1 || echo "FAILED async $system" >> runs.log
  done
  cat a$round-*.tsv > a$round.tsv
done
java -jar $B summarize a1.tsv a2.tsv a3.tsv > summary-postgresql-async.md
echo "$(date +%T) async done" >> runs.log
