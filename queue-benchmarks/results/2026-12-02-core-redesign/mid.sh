#!/bin/bash
# mid.sh JAR TAG DB(postgresql|sqlite) [STATEMENTS]: a drain of JOBS (100,000) jobs of jobqueue alone; over 8 s once 15,000
# jobs have finished: the jobs finished and the CPU of the server's processes (PostgreSQL) or of the benchmark's
# JVM (SQLite, in process), per job; with STATEMENTS=1 (PostgreSQL), the statements executed in the window, read from
# the server log with log_min_duration_statement = 0 set on the benchmark's database only; then the drain's rate.
JAR=$1; TAG=$2; DB=$3; STATEMENTS=$4
LOG=/var/log/postgresql/postgresql-15-main.log
rm -f ./$TAG.sqlite*
if [ "$DB" = postgresql ]; then
  psql -q -h 127.0.0.1 -U postgres -d test -c "drop database if exists test_bench" -c "create database test_bench"
  [ -n "$STATEMENTS" ] && psql -q -h 127.0.0.1 -U postgres -d test -c "alter database test_bench set log_min_duration_statement = 0"
  URL='jdbc:postgresql://127.0.0.1:5432/test_bench?user=postgres'
  done_jobs() { psql -h 127.0.0.1 -U postgres -d test_bench -Atc "select count(*) from jobqueue_job where state='succeeded'" 2>/dev/null; }
else
  URL="jdbc:sqlite:./$TAG.sqlite"
  done_jobs() { sqlite3 -readonly ./$TAG.sqlite "select count(*) from jobqueue_job where state='succeeded'" 2>/dev/null; }
fi
if [ "$DB" = sqlite ]; then
  # In process: the JVM's CPU over the whole run (enqueue, warm-up and drain of 101,000 jobs), per job.
  /usr/bin/time -f "%U %S" -o ./$TAG.time java -jar $JAR drain --url "$URL" --systems jobqueue --jobs ${JOBS:-100000} --out ./$TAG.tsv > ./$TAG.out 2>&1
  echo "$TAG $DB jvm-cpu-us/job $(awk '{printf "%.0f", ($1+$2)*1e6/101000}' ./$TAG.time) $(grep -o 'jobs/s.*1/s' ./$TAG.out | head -1)"
  exit 0
fi
java -jar $JAR drain --url "$URL" --systems jobqueue --jobs ${JOBS:-100000} --out ./$TAG.tsv > ./$TAG.out 2>&1 &
JPID=$!
for i in $(seq 1 600); do n=$(done_jobs); [ "${n:-0}" -gt 15000 ] && break; sleep 0.5; done
ticks() { if [ "$DB" = postgresql ]; then for p in $(pgrep -u postgres); do echo "$p $(awk '{print $14+$15}' /proc/$p/stat 2>/dev/null)"; done | sort;
          else echo "$JPID $(awk '{print $14+$15}' /proc/$JPID/stat)"; fi; }
ticks > ./$TAG.t0; n0=$(done_jobs); l0=$(wc -l < $LOG)
sleep 8
ticks > ./$TAG.t1; n1=$(done_jobs); l1=$(wc -l < $LOG)
jobs=$((n1-n0))
cpu=$(join ./$TAG.t0 ./$TAG.t1 | awk '{s+=$3-$2} END {print s}')
line="$TAG $DB jobs-in-8s $jobs cpu-us/job $((cpu*10000/jobs))"
if [ -n "$STATEMENTS" ]; then
  st=$(sed -n "$((l0+1)),${l1}p" $LOG | grep "@test_bench" | grep -c "duration: .* \(execute\|statement:\)")
  line="$line statements/job $(echo "scale=2; $st/$jobs" | bc)"
fi
wait $JPID
[ -n "$STATEMENTS" ] && psql -q -h 127.0.0.1 -U postgres -d test -c "alter database test_bench reset log_min_duration_statement"
echo "$line drain $(grep -o 'jobs/s.*1/s' ./$TAG.out | head -1)"
