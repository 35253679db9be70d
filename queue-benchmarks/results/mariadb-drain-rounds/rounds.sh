#!/bin/bash
# rounds.sh JAR N [OPTION VALUE...]: N rounds of `drain` on MariaDB, the three libraries in rotating orders, each
# system on a new database, with the drain's further options; prints each round's start and load and each drain's line.
JAR=$1; N=${2:-7}; shift 2
URL='jdbc:mariadb://127.0.0.1:3306/test_bench?user=root'
orders=("jobqueue,db-scheduler,db-scheduler-skip-locked" "db-scheduler-skip-locked,jobqueue,db-scheduler"
        "db-scheduler,db-scheduler-skip-locked,jobqueue")
fresh() { mysql -uroot -e "drop database if exists test_bench; create database test_bench"; }
for i in $(seq 1 "$N"); do
  echo "== round $i $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)"
  for system in $(echo "${orders[$(( (i - 1) % 3 ))]}" | tr , ' '); do
    fresh
    JOBQUEUE_BENCH_MYSQL_URL=$URL java -jar "$JAR" drain --database mysql --systems "$system" --out "mariadb-drain-$i-$system.tsv" "$@" | grep jobs/s
  done
done
