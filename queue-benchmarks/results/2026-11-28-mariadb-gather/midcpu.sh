#!/bin/bash
# midcpu.sh JAR: a 100,000-job drain; the server's CPU per finished job over 10 s once 15,000 have finished
JAR=$1
mysql -uroot -e "drop database if exists test_bench; create database test_bench"
(JOBQUEUE_BENCH_MYSQL_URL='jdbc:mariadb://127.0.0.1:3306/test_bench?user=root' java -jar $JAR drain --database mysql --systems jobqueue --jobs 100000 --out /tmp/big.tsv > /tmp/big.out 2>&1 &)
M=$(pgrep -x mariadbd)
done_jobs() { mysql -uroot -N -e "select count(*) from test_bench.jobqueue_job where state='succeeded'" 2>/dev/null; }
for i in $(seq 1 300); do n=$(done_jobs); [ "${n:-0}" -gt 15000 ] && break; sleep 0.5; done
c0=$(awk '{print $14+$15}' /proc/$M/stat); n0=$(done_jobs); sleep 10
c1=$(awk '{print $14+$15}' /proc/$M/stat); n1=$(done_jobs)
echo "$(date +%T) $JAR server cpu $((c1-c0)) ticks over 10 s, jobs finished $((n1-n0)), us/job $(( (c1-c0)*10000/(n1-n0) ))"
while pgrep -f "jar drain" > /dev/null; do sleep 1; done
grep jobs/s /tmp/big.out
