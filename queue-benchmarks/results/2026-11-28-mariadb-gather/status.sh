#!/bin/bash
# status.sh JAR SYSTEMS: one drain on a new database test_bench, with the server's CPU time (ticks of 10 ms,
# /proc/<mariadbd>/stat) and SHOW GLOBAL STATUS before and after; prints the counters that changed.
JAR=$1; SYS=$2
mysql -uroot -e "drop database if exists test_bench; create database test_bench"
PID=$(pgrep -x mariadbd)
st() { awk '{print $14+$15}' /proc/$PID/stat; }
status() { mysql -uroot -N -e "show global status where Variable_name like 'Com\_%' or Variable_name like 'Handler\_%' or Variable_name='Questions' or Variable_name='Innodb_buffer_pool_read_requests'"; }
status > /tmp/s0
C0=$(st)
JOBQUEUE_BENCH_MYSQL_URL='jdbc:mariadb://127.0.0.1:3306/test_bench?user=root' java -jar $JAR drain --database mysql --systems $SYS --out /tmp/status.tsv 2>&1 | grep "jobs/s"
C1=$(st)
status > /tmp/s1
echo "server cpu ticks: $((C1-C0))"
join /tmp/s0 /tmp/s1 | awk '{d=$3-$2; if (d>0) print $1, d}' | sort -k2 -n -r
