#!/bin/bash
# status.sh JAR [SYSTEM]: Com_* deltas of MariaDB over 4 s in the middle of a 100,000-job drain of SYSTEM (jobqueue
# by default, or jobqueue-prefetch); nearly every commit is a claim's (the jobs' other writes run in auto-commit)
JAR=$1; SYSTEM=${2:-jobqueue}
mkdir -p /tmp/prof
mysql -uroot -e "drop database if exists test_bench; create database test_bench"
(JOBQUEUE_BENCH_MYSQL_URL='jdbc:mariadb://127.0.0.1:3306/test_bench?user=root' java -jar $JAR drain --database mysql --systems $SYSTEM --jobs 100000 --drain-warm-up-jobs 1000 --out /tmp/prof/st.tsv > /tmp/prof/st.out 2>&1 &)
done_jobs() { mysql -uroot -N -e "select count(*) from test_bench.jobqueue_job where state='succeeded'" 2>/dev/null; }
for i in $(seq 1 300); do n=$(done_jobs); [ "${n:-0}" -gt 20000 ] && break; sleep 0.2; done
st() { mysql -uroot -N -e "show global status where Variable_name in ('Questions','Com_select','Com_update','Com_commit','Com_set_option','Com_begin','Com_rollback','Handler_commit')"; }
st > /tmp/prof/s0; n0=$(done_jobs); sleep 4; st > /tmp/prof/s1; n1=$(done_jobs)
echo "jobs $((n1-n0))"
paste /tmp/prof/s0 /tmp/prof/s1 | awk '{printf "%s %d\n",$1,$4-$2}'
while pgrep -f "jar drain" > /dev/null; do sleep 1; done
grep jobs/s /tmp/prof/st.out | cut -c1-90
