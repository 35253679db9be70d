#!/bin/bash
# run.sh JAR: the headline, each library in a JVM of its own on a fresh database, three rounds, the order of the
# runs reversed every other round. PostgreSQL drain (jobqueue, db-scheduler with lock-and-fetch, and with its
# high-throughput prefetch), bulk and cross-JVM latency; SQLite drain, every library at synchronous = NORMAL;
# MariaDB drain (db-scheduler's fetch, and SKIP LOCKED). Each run writes rROUND-DB-WORKLOAD-SYSTEM.tsv; the
# round's files are then joined into rROUND-DB.tsv for `summarize`. Load before each round in runs.log.
B=$1
cd "$(dirname "$0")"
export JOBQUEUE_BENCH_POSTGRES_URL='jdbc:postgresql://127.0.0.1:5432/test_bench?user=postgres'
export JOBQUEUE_BENCH_MYSQL_URL='jdbc:mariadb://127.0.0.1:3306/test_bench?user=root'
runs=(
  "postgresql drain jobqueue" "postgresql drain db-scheduler" "postgresql drain db-scheduler-prefetch"
  "postgresql bulk jobqueue" "postgresql bulk db-scheduler"
  "postgresql latency jobqueue" "postgresql latency db-scheduler"
  "sqlite drain jobqueue" "sqlite drain db-scheduler"
  "mysql drain jobqueue" "mysql drain db-scheduler" "mysql drain db-scheduler-skip-locked"
)
fresh() {
  case $1 in
    postgresql) psql -q -h 127.0.0.1 -U postgres -d test -c "drop database if exists test_bench with (force)" -c "create database test_bench" ;;
    mysql) mysql -h127.0.0.1 -uroot -e "drop database if exists test_bench; create database test_bench" ;;
  esac
}
for round in 1 2 3; do
  echo "$(date +%T) round $round load $(cut -d' ' -f1-3 /proc/loadavg)" >> runs.log
  order=("${runs[@]}")
  [ $round = 2 ] && mapfile -t order < <(printf '%s\n' "${runs[@]}" | tac)
  for run in "${order[@]}"; do
    set -- $run
    fresh $1
    java -jar $B $2 --database $1 --systems $3 --out r$round-$1-$2-$3.tsv > r$round-$1-$2-$3.log 2>&1 || echo "FAILED $run" >> runs.log
  done
  for db in postgresql sqlite mysql; do cat r$round-$db-*.tsv > r$round-$db.tsv; done
done
for db in postgresql sqlite mysql; do java -jar $B summarize r1-$db.tsv r2-$db.tsv r3-$db.tsv > summary-$db.md; done
fresh postgresql; java -jar $B ceiling --out ceiling.tsv > ceiling.log 2>&1
echo "$(date +%T) done" >> runs.log
