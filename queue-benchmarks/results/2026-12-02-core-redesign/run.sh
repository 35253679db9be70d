#!/bin/bash
# Side by side: base (5fcdb3b, before the redesign) and new (main), alternating.
cd "$(dirname "$0")"  # base.jar: 5fcdb3b, new.jar: main, built with ./mvnw -pl queue-benchmarks -am package -DskipTests
export JOBQUEUE_BENCH_POSTGRES_URL='jdbc:postgresql://127.0.0.1:5432/test_bench?user=postgres'
for round in 1 2; do
  for tag in base new; do
    echo "$(date +%T) load $(cut -d' ' -f1 /proc/loadavg)"
    ./mid.sh ./$tag.jar $tag-pg-$round postgresql
    ./mid.sh ./$tag.jar $tag-sqlite-$round sqlite
    psql -q -h 127.0.0.1 -U postgres -d test -c "drop database if exists test_bench" -c "create database test_bench"
    java -jar ./$tag.jar enqueue --systems jobqueue --out $tag-pg-enqueue-$round.tsv 2>&1 | grep "jobs/s" | sed "s/^/$tag pg /"
    java -jar ./$tag.jar bulk --systems jobqueue --out $tag-pg-bulk-$round.tsv 2>&1 | grep "jobs/s" | sed "s/^/$tag pg /"
    java -jar ./$tag.jar enqueue --database sqlite --systems jobqueue --out $tag-sqlite-enqueue-$round.tsv 2>&1 | grep "jobs/s" | sed "s/^/$tag sqlite /"
    java -jar ./$tag.jar bulk --database sqlite --systems jobqueue --out $tag-sqlite-bulk-$round.tsv 2>&1 | grep "jobs/s" | sed "s/^/$tag sqlite /"
  done
done
for tag in base new; do ./mid.sh ./$tag.jar $tag-pg-statements postgresql 1; done
