#!/bin/bash
# run.sh COMMIT...: the drain of each commit's benchmark jar (COMMIT.jar here), side by side on PostgreSQL.
# Three rounds of a 20,000-job drain, each jar in a fresh JVM on a fresh database, in A B ... order, then reversed,
# then A B ... again; the JVM's CPU per job over the whole run (enqueue, warm-up, drain); after each drain the job
# table's writes per job from pg_stat_user_tables and its index count. Then one 200,000-job drain each with the
# server's CPU and statements per job over 8 s mid-drain (../2026-12-02-core-redesign/mid.sh, with JOBS).
cd "$(dirname "$0")"
PSQL="psql -q -h 127.0.0.1 -U postgres"
export JOBQUEUE_BENCH_POSTGRES_URL='jdbc:postgresql://127.0.0.1:5432/test_bench?user=postgres'
fresh() { $PSQL -d test -c "drop database if exists test_bench" -c "create database test_bench"; }
order=("$@")
for round in 1 2 3; do
  [ $round = 2 ] && order=($(printf '%s\n' "$@" | tac))
  [ $round = 3 ] && order=("$@")
  echo "$(date +%T) round $round load $(cut -d' ' -f1 /proc/loadavg)"
  for c in "${order[@]}"; do
    fresh
    /usr/bin/time -f "%U %S" -o $c.time java -jar ./$c.jar drain --systems jobqueue --out r$round-$c.tsv > $c.out 2>&1
    sleep 1
    writes=$($PSQL -d test_bench -Atc "select n_tup_ins, n_tup_upd, n_tup_hot_upd, (select count(*) from pg_indexes where tablename = 'jobqueue_job') from pg_stat_user_tables where relname = 'jobqueue_job'")
    echo "$c round $round $(grep -o 'drain *jobqueue *jobs/s *[0-9.]*' $c.out | awk '{print "jobs/s", $4}') client-cpu-us/job $(awk '{printf "%.0f", ($1+$2)*1e6/21000}' $c.time) ins|upd|hot|indexes $writes"
  done
done
for c in "$@"; do JOBS=200000 ../2026-12-02-core-redesign/mid.sh ./$c.jar $c-mid postgresql 1; done
