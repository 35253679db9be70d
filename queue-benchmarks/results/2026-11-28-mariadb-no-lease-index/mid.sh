#!/bin/bash
# mid.sh JAR: a 100,000-job drain of jobqueue alone on MariaDB; over 8 s once 15,000 jobs have finished, the jobs
# finished and the CPU of mariadbd and of the JVM per job; then the whole drain's rate.
JAR=$1
mysql -uroot -e "drop database if exists test_bench; create database test_bench"
(JOBQUEUE_BENCH_MYSQL_URL='jdbc:mariadb://127.0.0.1:3306/test_bench?user=root' java -jar $JAR drain --database mysql --systems jobqueue --jobs 100000 --out /tmp/big.tsv > /tmp/big.out 2>&1 &)
M=$(pgrep -x mariadbd)
sleep 2; J=$(pgrep -f "jar drain")
done_jobs() { mysql -uroot -N -e "select count(*) from test_bench.jobqueue_job where state='succeeded'" 2>/dev/null; }
for i in $(seq 1 300); do n=$(done_jobs); [ "${n:-0}" -gt 15000 ] && break; sleep 0.5; done
cpu() { awk '{print $14+$15}' /proc/$1/stat; }
m0=$(cpu $M); j0=$(cpu $J); n0=$(done_jobs); t0=$(date +%s.%N)
sleep 8
m1=$(cpu $M); j1=$(cpu $J); n1=$(done_jobs); t1=$(date +%s.%N)
n=$((n1-n0))
echo "jobs $n in $(echo "$t1-$t0"|bc) s; mariadbd us/job $(( (m1-m0)*10000/n )); java us/job $(( (j1-j0)*10000/n ))"
while pgrep -f "jar drain" > /dev/null; do sleep 1; done
grep jobs/s /tmp/big.out
