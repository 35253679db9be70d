#!/bin/bash
# rounds.sh JAR N [OPTION VALUE...]: N rounds of `drain` on MariaDB, the libraries of SYSTEMS (comma-separated; by
# default jobqueue, db-scheduler and db-scheduler-skip-locked) each round in the order rotated by one, each system
# on a new database, with the drain's further options; prints each round's start and load and each drain's line.
JAR=$1; N=${2:-7}; shift 2
URL='jdbc:mariadb://127.0.0.1:3306/test_bench?user=root'
IFS=, read -r -a systems <<< "${SYSTEMS:-jobqueue,db-scheduler,db-scheduler-skip-locked}"
fresh() { mysql -uroot -e "drop database if exists test_bench; create database test_bench"; }
for i in $(seq 1 "$N"); do
  echo "== round $i $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)"
  for k in $(seq 0 $(( ${#systems[@]} - 1 ))); do
    system=${systems[$(( (k + i - 1) % ${#systems[@]} ))]}
    fresh
    JOBQUEUE_BENCH_MYSQL_URL=$URL java -jar "$JAR" drain --database mysql --systems "$system" --out "mariadb-drain-$i-$system.tsv" "$@" | grep jobs/s
  done
done
