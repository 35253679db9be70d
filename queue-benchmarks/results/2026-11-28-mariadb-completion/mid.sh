#!/bin/bash
# mid.sh JAR TAG: a 100,000-job drain of jobqueue alone; over 8 s once 15,000 jobs have finished, the jobs finished,
# the server's CPU summed over mariadbd's threads and the threads that used more than 1 s of it; with PERF=1 also a
# perf profile of mariadbd over those 8 s in /tmp/perf/TAG.data, and the thread of the connection that sent the
# claim's confirmation (the poller's) in /tmp/perf/TAG.poller; then the whole drain's rate.
JAR=$1; TAG=$2
mkdir -p /tmp/perf
mysql -uroot -e "drop database if exists test_bench; create database test_bench"
(JOBQUEUE_BENCH_MYSQL_URL='jdbc:mariadb://127.0.0.1:3306/test_bench?user=root' java -jar $JAR drain --database mysql --systems jobqueue --jobs 100000 --out /tmp/big.tsv > /tmp/big.out 2>&1 &)
M=$(pgrep -x mariadbd)
done_jobs() { mysql -uroot -N -e "select count(*) from test_bench.jobqueue_job where state='succeeded'" 2>/dev/null; }
for i in $(seq 1 300); do n=$(done_jobs); [ "${n:-0}" -gt 15000 ] && break; sleep 0.5; done
P=$(for i in $(seq 1 20); do mysql -uroot -N -e "select tid from information_schema.processlist where info like '%claim_confirmed = TRUE%' and db='test_bench'"; done | sort | uniq -c | sort -nr | head -1 | awk '{print $2}')
echo "poller tid $P"
for t in /proc/$M/task/*; do echo "$(basename $t) $(awk '{print $14+$15}' $t/stat 2>/dev/null)"; done | sort > /tmp/perf/t0
n0=$(done_jobs)
if [ -n "$PERF" ]; then perf record -F 999 -g -p $M -o /tmp/perf/$TAG.data -- sleep 8 2>/dev/null; else sleep 8; fi
n1=$(done_jobs)
for t in /proc/$M/task/*; do echo "$(basename $t) $(awk '{print $14+$15}' $t/stat 2>/dev/null)"; done | sort > /tmp/perf/t1
echo "jobs in 8 s: $((n1-n0))"
join /tmp/perf/t0 /tmp/perf/t1 | awk -v n=$((n1-n0)) '{d=$3-$2; s+=d; if (d>100) top=top" "d} END {printf "server ticks %d, us/job %.0f, big threads%s\n", s, s*10000/n, top}'
while pgrep -f "jar drain" > /dev/null; do sleep 1; done
grep jobs/s /tmp/big.out
echo $P > /tmp/perf/$TAG.poller
