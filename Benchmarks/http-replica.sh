#!/usr/bin/env bash
# Reads from a PostgreSQL streaming replica (docs/scaling.md#reads-from-a-streaming-replica):
# one `expenses serve --db PRIMARY` and one `expenses serve --db PRIMARY --read-replica REPLICA`
# on the same data, loaded in ROUNDS interleaved runs each of (a) uncached reports (a new
# ?today= per request, Benchmarks/uncached-reports.lua) and (b) an expense listing (never
# cached). Prints requests/s, median and p99 per run and the medians, and where the replica
# server's reads went (its /metrics: expenses_replica_reads_total). Starts its own PostgreSQL 15
# primary and a hot standby of it (pg_basebackup -R, a replication slot), both on Unix sockets in
# a temporary folder, run as the postgres user when run as root; fails if any request failed.
#
#   bash Benchmarks/http-replica.sh            # DURATION=10 ROUNDS=3 CONNECTIONS=32 by default
set -euo pipefail
cd "$(dirname "$0")/.."

duration=${DURATION:-10}
rounds=${ROUNDS:-3}
connections=${CONNECTIONS:-32}
pgbin=${PGBIN:-/usr/lib/postgresql/15/bin}
. Benchmarks/lib/serve.sh
release_binary_and_wrk

work=$(mktemp -d /tmp/expenses-http-replica-XXXXXX)
mkdir -p "$work/primary-socket" "$work/replica-socket"
as_pg=()
if [ "$(id -u)" = 0 ]; then chown -R postgres: "$work"; as_pg=(runuser -u postgres --); fi
servers=()
cleanup() {
  for pid in "${servers[@]}"; do kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; done
  "${as_pg[@]}" "$pgbin/pg_ctl" -D "$work/replica" -m fast -w stop >/dev/null 2>&1 || true
  "${as_pg[@]}" "$pgbin/pg_ctl" -D "$work/primary" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
psql_on() { "${as_pg[@]}" "$pgbin/psql" -X -At -h "$1" -U postgres -d "$2" -c "$3"; }
"${as_pg[@]}" "$pgbin/initdb" -D "$work/primary" -U postgres --auth=trust --encoding=UTF8 --locale=C >/dev/null
"${as_pg[@]}" "$pgbin/pg_ctl" -D "$work/primary" -l "$work/primary.log" -w \
  -o "-c listen_addresses='' -k $work/primary-socket -c max_connections=100" start >/dev/null
"${as_pg[@]}" "$pgbin/createdb" -h "$work/primary-socket" -U postgres bench
db="postgres://postgres@/bench?host=$work/primary-socket"
replica="postgres://postgres@/bench?host=$work/replica-socket"

"$bin" --db "$db" import Fixtures/demo/bank.csv >/dev/null
"$bin" --db "$db" budget set Groceries 700 >/dev/null
"$bin" --db "$db" budget set Dining 250 >/dev/null
token=$("$bin" --db "$db" token create bench --scope read)
auth="Authorization: Bearer $token"

psql_on "$work/primary-socket" postgres "SELECT pg_create_physical_replication_slot('bench', true)" >/dev/null
"${as_pg[@]}" "$pgbin/pg_basebackup" -h "$work/primary-socket" -U postgres -D "$work/replica" -R -X stream \
  -c fast -S bench
"${as_pg[@]}" "$pgbin/pg_ctl" -D "$work/replica" -l "$work/replica.log" -w \
  -o "-c listen_addresses='' -k $work/replica-socket -c max_connections=100" start >/dev/null

serve primary
portP=$port
serve replica --read-replica "$replica"
portR=$port
listing="/v1/expenses?month=2026-10&limit=50"
curl -sf -o /dev/null -H "$auth" "http://127.0.0.1:$portP$listing"
curl -sf -o /dev/null -H "$auth" "http://127.0.0.1:$portR$listing"

failed=0
# One wrk run into $work/$label.txt: label port path [wrk options].
run() {
  local label=$1 port=$2 path=$3
  shift 3
  wrk -t2 -c"$connections" -d"${duration}s" --latency -H "$auth" "$@" "http://127.0.0.1:$port$path" \
    >"$work/$label.txt"
}
report() {
  local label=$1
  wrk_result "$work/$label.txt"
  failed=$((failed + failures))
  printf '%-28s %9s req/s   median %8s   p99 %8s   failed %s\n' "$label" "$rps" "$p50" "$p99" "$failures"
}
median_of() {
  local what=$1
  shift
  for f in "$@"; do
    if [ "$what" = rps ]; then awk '/^Requests\/sec:/{print $2}' "$f"; else wrk_ms "$what" "$f"; fi
  done | sort -n | awk '{v[NR]=$1} END{print v[int((NR+1)/2)]}'
}

echo "$(nproc) cores, loopback, $connections connections, ${duration}s per run, $rounds interleaved rounds"
for round in $(seq 1 "$rounds"); do
  run "report-primary-$round" "$portP" /v1/reports/2026-10 -s Benchmarks/uncached-reports.lua
  report "report-primary-$round"
  run "report-replica-$round" "$portR" /v1/reports/2026-10 -s Benchmarks/uncached-reports.lua
  report "report-replica-$round"
  run "list-primary-$round" "$portP" "$listing"
  report "list-primary-$round"
  run "list-replica-$round" "$portR" "$listing"
  report "list-replica-$round"
done
for kind in report list; do
  for side in primary replica; do
    files=("$work/$kind-$side"-*.txt)
    printf 'median %-6s from %-8s %9s req/s   p50 %7s ms   p99 %7s ms\n' "$kind" "$side" \
      "$(median_of rps "${files[@]}")" "$(median_of 50% "${files[@]}")" "$(median_of 99% "${files[@]}")"
  done
done
echo "where the --read-replica server's reads went:"
curl -sf "http://127.0.0.1:$portR/metrics" | grep '^expenses_replica_reads_total' | sed 's/^/  /'
if [ "$failed" -ne 0 ]; then
  echo "FAILED requests: $failed" >&2
  exit 1
fi
echo "0 failed requests"
