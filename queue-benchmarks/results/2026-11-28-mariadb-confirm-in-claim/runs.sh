#!/bin/bash
# runs.sh NEW_JAR BEFORE_JAR N: N rounds of `drain` on MariaDB, each system on a new database: the three
# libraries in rotating orders with NEW_JAR, then jobqueue alone with BEFORE_JAR (the build before the change).
NEW=$1; BEFORE=$2; N=${3:-6}
URL='jdbc:mariadb://127.0.0.1:3306/test_bench?user=root'
orders=("jobqueue,db-scheduler,db-scheduler-skip-locked" "db-scheduler-skip-locked,jobqueue,db-scheduler"
        "db-scheduler,db-scheduler-skip-locked,jobqueue")
fresh() { mysql -uroot -e "drop database if exists test_bench; create database test_bench"; }
for i in $(seq 1 "$N"); do
  echo "== round $i $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)"
  for system in $(echo "${orders[$(( (i - 1) % 3 ))]}" | tr , ' '); do
    fresh
    JOBQUEUE_BENCH_MYSQL_URL=$URL java -jar "$NEW" drain --database mysql --systems "$system" --out "mariadb-drain-$i-$system.tsv" | grep jobs/s
  done
  fresh
  JOBQUEUE_BENCH_MYSQL_URL=$URL java -jar "$BEFORE" drain --database mysql --systems jobqueue --out "mariadb-drain-before-$i.tsv" | grep jobs/s
done
