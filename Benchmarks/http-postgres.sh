#!/usr/bin/env bash
# GET /v1/reports/{month} served from PostgreSQL (docs/scaling.md, docs/performance.md): one
# `expenses serve` paced (wrk with Benchmarks/paced.lua: PACED_CONNECTIONS, default 64,
# connections, one request each 10 ms after the last answer: the rate reached is printed); then flat out, ROUNDS interleaved
# runs of one server on PostgreSQL and, as the reference, one on a SQLite file with the same
# data (medians printed); then two servers side by side on the one database. Prints requests/s, median and p99, and the database transactions per
# request (pg_stat_database: the per-request change-stamp read, shared among the requests
# waiting at once). Starts its own PostgreSQL (initdb in a temporary folder, Unix socket only,
# run as the postgres user when run as root); fails if any request failed.
#
#   bash Benchmarks/http-postgres.sh            # DURATION=10 ROUNDS=3 by default
set -euo pipefail
cd "$(dirname "$0")/.."

duration=${DURATION:-10}
rounds=${ROUNDS:-3}
pgbin=${PGBIN:-/usr/lib/postgresql/15/bin}
. Benchmarks/lib/serve.sh
release_binary_and_wrk

work=$(mktemp -d /tmp/expenses-http-pg-XXXXXX)
as_pg=()
if [ "$(id -u)" = 0 ]; then chown postgres: "$work"; as_pg=(runuser -u postgres --); fi
servers=()
cleanup() {
  for pid in "${servers[@]}"; do kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; done
  "${as_pg[@]}" "$pgbin/pg_ctl" -D "$work/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
"${as_pg[@]}" "$pgbin/initdb" -D "$work/data" -U postgres --auth=trust --encoding=UTF8 --locale=C >/dev/null
"${as_pg[@]}" "$pgbin/pg_ctl" -D "$work/data" -l "$work/pg.log" -w \
  -o "-c listen_addresses='' -k $work -c max_connections=100" start >/dev/null
"${as_pg[@]}" "$pgbin/createdb" -h "$work" -U postgres bench
db="postgres://postgres@/bench?host=$work"

"$bin" --db "$db" import Fixtures/demo/bank.csv >/dev/null
"$bin" --db "$db" budget set Groceries 700 >/dev/null
"$bin" --db "$db" budget set Dining 250 >/dev/null
token=$("$bin" --db "$db" token create bench --scope write)
auth="Authorization: Bearer $token"
path="/v1/reports/2026-10?today=2026-10-20"

serve a
portA=$port
serve b
portB=$port
# The reference: the same data in a SQLite file, served the same way.
lite=$work/bench.sqlite
"$bin" --db "$lite" import Fixtures/demo/bank.csv >/dev/null
"$bin" --db "$lite" budget set Groceries 700 >/dev/null
"$bin" --db "$lite" budget set Dining 250 >/dev/null
liteToken=$("$bin" --db "$lite" token create bench --scope write)
db=$lite serve lite
portL=$port
curl -sf -o /dev/null -H "$auth" "http://127.0.0.1:$portA$path"
curl -sf -o /dev/null -H "$auth" "http://127.0.0.1:$portB$path"

xacts() {
  "${as_pg[@]}" "$pgbin/psql" -h "$work" -U postgres -d bench -Atc \
    "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = 'bench'"
}

failed=0
# One wrk run into $work/$label.txt; "label req/s median p99 failures".
run() {
  local label=$1 port=$2
  shift 2
  wrk "$@" --latency -H "$auth" "http://127.0.0.1:$port$path" >"$work/$label.txt"
}
report() {
  local label=$1 extra=${2:-}
  wrk_result "$work/$label.txt"
  failed=$((failed + failures))
  printf '%-40s %9s req/s   median %8s   p99 %8s   failed %s%s\n' "$label" "$rps" "$p50" "$p99" "$failures" "$extra"
}
# Database transactions per request during the run of $label.
per_request() {
  local before=$1 after=$2 label=$3
  local requests
  requests=$(awk '/requests in/{print $1}' "$work/$label.txt")
  awk -v d=$((after - before)) -v r="$requests" 'BEGIN{printf "   db transactions/request %.2f", d / r}'
}

echo "GET $path from PostgreSQL 15, $(nproc) cores, loopback, ${duration}s per run"
before=$(xacts)
# wrk waits PACE_MS after each answer, so the rate reached is connections / (pace + latency):
# about 4,300/s with 64 connections at 5 ms; PACED_CONNECTIONS=80 reaches past 5,000/s.
paced=${PACED_CONNECTIONS:-64}
PACE_MS=10 run one-paced "$portA" -t2 -c"$paced" -d"${duration}s" -s Benchmarks/paced.lua
report one-paced "$(per_request "$before" "$(xacts)" one-paced)   ($paced connections, each 10 ms after its answer)"
for round in $(seq 1 "$rounds"); do
  before=$(xacts)
  run "pg-$round" "$portA" -t2 -c64 -d"${duration}s"
  report "pg-$round" "$(per_request "$before" "$(xacts)" "pg-$round")   (one server on PostgreSQL, 64 connections, flat out)"
  auth="Authorization: Bearer $liteToken" run "sqlite-$round" "$portL" -t2 -c64 -d"${duration}s"
  report "sqlite-$round" "   (reference: one server on SQLite)"
done
median() { awk '/^Requests\/sec:/{print $2}' "$@" | sort -n | awk '{v[NR]=$1} END{print v[int((NR+1)/2)]}'; }
echo "median of $rounds: PostgreSQL $(median "$work"/pg-*.txt) req/s, SQLite $(median "$work"/sqlite-*.txt) req/s"
run two-a "$portA" -t1 -c32 -d"${duration}s" &
a=$!
run two-b "$portB" -t1 -c32 -d"${duration}s"
wait $a
report two-a "   (two servers side by side, 32 connections each)"
report two-b
total=$(awk '/^Requests\/sec:/{s+=$2} END{printf "%.0f", s}' "$work/two-a.txt" "$work/two-b.txt")
echo "two servers together: $total req/s"
if [ "$failed" -ne 0 ]; then
  echo "FAILED requests: $failed" >&2
  exit 1
fi
echo "0 failed requests"
