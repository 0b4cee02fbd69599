#!/usr/bin/env bash
# Many households on one PostgreSQL (docs/scaling.md): LEDGERS ledgers (default 1,000), each
# with the demo statement and two budgets, served by one `expenses serve` whose ledgers share
# one pool of POOL_SIZE connections (default 16). GET /v1/reports/2026-10 is spread over the
# ledgers at random (Benchmarks/ledgers.lua, a token per ledger):
#   1. cached reports, paced (PACED_CONNECTIONS connections, default 32, each 10 ms after its
#      answer: about 2,000/s at 5 ms a request), ROUNDS runs;
#   2. cached reports, flat out (64 connections);
#   3. uncached reports (a new ?today= each), flat out, ROUNDS runs.
# Prints requests/s, median and p99 of each run, the most connections the database server
# counted for the database while they ran (one psql session sampling every 50 ms), and the
# server's peak RSS.
# Starts its own PostgreSQL (initdb in a temporary folder, Unix socket only, run as the
# postgres user when run as root); fails if any request failed or the connections ever
# passed the pool's size.
#
#   bash Benchmarks/http-ledgers.sh        # LEDGERS=1000 POOL_SIZE=16 DURATION=10 ROUNDS=3
set -euo pipefail
cd "$(dirname "$0")/.."

ledgers=${LEDGERS:-1000}
pool=${POOL_SIZE:-16}
duration=${DURATION:-10}
rounds=${ROUNDS:-3}
paced=${PACED_CONNECTIONS:-32}
pgbin=${PGBIN:-/usr/lib/postgresql/15/bin}
. Benchmarks/lib/serve.sh
release_binary_and_wrk

work=$(mktemp -d /tmp/expenses-http-ledgers-XXXXXX)
as_pg=()
if [ "$(id -u)" = 0 ]; then chown postgres: "$work"; as_pg=(runuser -u postgres --); fi
servers=()
sampler=""
cleanup() {
  [ -n "$sampler" ] && kill "$sampler" 2>/dev/null || true
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
psql_bench() { "${as_pg[@]}" "$pgbin/psql" -h "$work" -U postgres -d bench -Atc "$1"; }

# The ledgers: each made and given a token by the CLI (two at a time), its statement imported
# and its budgets set over the API by the server that is measured.
started=$(date +%s)
"$bin" --db "$db" ledger list >/dev/null 2>&1 || "$bin" --db "$db" import Fixtures/demo/bank.csv >/dev/null
seq 1 "$ledgers" | xargs -P 2 -I{} sh -c \
  '"$1" --db "$2" ledger create "house{}" >/dev/null && "$1" --db "$2" --ledger "house{}" token create "t{}" --scope write > "$3/token-{}"' \
  _ "$bin" "$db" "$work"
tokens=$work/tokens.txt
for i in $(seq 1 "$ledgers"); do cat "$work/token-$i"; done >"$tokens"
rm -f "$work"/token-*
serve pooled --pool-size "$pool"
base="http://127.0.0.1:$port"
while read -r token; do
  curl -sf -o /dev/null -H "Authorization: Bearer $token" -H "Content-Type: text/csv" \
    --data-binary @Fixtures/demo/bank.csv "$base/v1/imports?file=bank.csv"
  for budget in "Groceries 70000" "Dining 25000"; do
    set -- $budget
    curl -sf -o /dev/null -X PUT -H "Authorization: Bearer $token" -H "Content-Type: application/json" \
      -d "{\"amountMinor\": $2}" "$base/v1/budgets/$1"
  done
done <"$tokens"
echo "$ledgers ledgers, $(psql_bench "SELECT count(*) FROM expense") rows, made in $(( $(date +%s) - started )) s"

# The most connections of the database at once, sampled every 50 ms by one psql session.
"${as_pg[@]}" "$pgbin/psql" -h "$work" -U postgres -d bench -At >"$work/samples" 2>/dev/null <<'SQL' &
SELECT count(*) FROM pg_stat_activity WHERE datname = 'bench' AND backend_type = 'client backend' AND pid <> pg_backend_pid() \watch 0.05
SQL
sampler=$!


TOKENS_FILE=$tokens wrk -t2 -c16 -d5s -s Benchmarks/ledgers.lua "$base/" >/dev/null
spid=${servers[0]}
perf record -F 999 -g -p "$spid" -o /tmp/perf-uncached.data -- sleep 8 >/dev/null 2>&1 &
UNCACHED=1 TOKENS_FILE=$tokens wrk -t2 -c32 -d8s --latency -s Benchmarks/ledgers.lua "$base/" | grep -E "Requests/sec|99%"
wait
perf record -F 999 -g -p "$spid" -o /tmp/perf-cached.data -- sleep 8 >/dev/null 2>&1 &
PACE_MS=10 TOKENS_FILE=$tokens wrk -t2 -c32 -d8s --latency -s Benchmarks/ledgers.lua "$base/" | grep -E "Requests/sec|99%|50%"
wait
