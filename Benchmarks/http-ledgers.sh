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
# OLD=BINARY also serves a copy of the same database with another build (its own flags: no
# --pool-size before the pool) and measures it in the same loop, interleaved.
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
servers=()
sampler=""
cleanup() {
  [ -n "$sampler" ] && kill "$sampler" 2>/dev/null || true
  for pid in "${servers[@]}"; do kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; done
  "${as_pg[@]}" "$pgbin/pg_ctl" -D "$work/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
start_postgres
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
if [ -n "${OLD:-}" ]; then
  # A copy for the other build (a template copy needs the database without sessions).
  kill -TERM "${servers[0]}" && wait "${servers[0]}" 2>/dev/null || true
  servers=()
  "${as_pg[@]}" "$pgbin/createdb" -h "$work" -U postgres -T bench bench_old
  serve pooled --pool-size "$pool"
  base="http://127.0.0.1:$port"
  db="postgres://postgres@/bench_old?host=$work" bin=$OLD serve old
  old_base="http://127.0.0.1:$port"
fi

# The most connections of the database at once, sampled every 50 ms by one psql session.
"${as_pg[@]}" "$pgbin/psql" -h "$work" -U postgres -d bench -At >"$work/samples" 2>/dev/null <<'SQL' &
SELECT count(*) FROM pg_stat_activity WHERE datname = 'bench' AND backend_type = 'client backend' AND pid <> pg_backend_pid() \watch 0.05
SQL
sampler=$!

failed=0
run() {
  local label=$1
  shift
  TOKENS_FILE=$tokens wrk "$@" --latency -s Benchmarks/ledgers.lua "${target:-$base}/" >"$work/$label.txt"
}
report() {
  local label=$1 extra=${2:-}
  wrk_result "$work/$label.txt"
  # The other build's failures are printed, not held against this one.
  case $label in old-*) ;; *) failed=$((failed + failures)) ;; esac
  printf '%-18s %9s req/s   median %8s   p99 %8s   failed %s%s\n' "$label" "$rps" "$p50" "$p99" "$failures" "$extra"
}

echo "GET /v1/reports/2026-10 over $ledgers ledgers, pool of $pool, $(nproc) cores, loopback, ${duration}s a run"
# Every ledger's report once, so the cached runs find it cached.
run warm -t2 -c16 -d"${duration}s"
report warm "   (warming: first reports of every ledger)"
if [ -n "${OLD:-}" ]; then
  target=$old_base run old-warm -t2 -c16 -d"${duration}s"
  report old-warm "   (old build, warming)"
fi
for round in $(seq 1 "$rounds"); do
  PACE_MS=10 run "cached-$round" -t2 -c"$paced" -d"${duration}s"
  report "cached-$round" "   (cached, $paced connections, each 10 ms after its answer)"
  if [ -n "${OLD:-}" ]; then
    PACE_MS=10 target=$old_base run "old-cached-$round" -t2 -c"$paced" -d"${duration}s"
    report "old-cached-$round" "   (old build, the same)"
  fi
done
run cached-flat -t2 -c64 -d"${duration}s"
report cached-flat "   (cached, 64 connections, flat out)"
for round in $(seq 1 "$rounds"); do
  UNCACHED=1 run "uncached-$round" -t2 -c32 -d"${duration}s"
  report "uncached-$round" "   (uncached: a new ?today= each, 32 connections, flat out)"
  if [ -n "${OLD:-}" ]; then
    UNCACHED=1 target=$old_base run "old-uncached-$round" -t2 -c32 -d"${duration}s"
    report "old-uncached-$round" "   (old build, the same)"
  fi
done
middle() { sort -n | awk '{v[NR]=$1} END{print v[int((NR+1)/2)]}'; }
rps_median() { for f in "$@"; do awk '/^Requests\/sec:/{print $2}' "$f"; done | middle; }
p99_median() { for f in "$@"; do wrk_ms 99% "$f"; done | middle; }
echo "median of $rounds: cached paced $(rps_median "$work"/cached-[0-9]*.txt) req/s," \
  "p99 $(p99_median "$work"/cached-[0-9]*.txt) ms; uncached $(rps_median "$work"/uncached-*.txt) req/s"
if [ -n "${OLD:-}" ]; then
  echo "old build, median of $rounds: cached paced $(rps_median "$work"/old-cached-[0-9]*.txt) req/s," \
    "p99 $(p99_median "$work"/old-cached-[0-9]*.txt) ms; uncached $(rps_median "$work"/old-uncached-*.txt) req/s"
  echo "old build's connections to its copy now: $(psql_bench "SELECT count(*) FROM pg_stat_activity WHERE datname = 'bench_old' AND backend_type = 'client backend'")"
fi
kill "$sampler" 2>/dev/null || true
sampler=""
most=$(grep -E '^[0-9]+$' "$work/samples" | sort -n | tail -1)
echo "connections to the database at most: $most (pool size $pool)"
echo "server peak RSS: $(awk '/VmHWM/{printf "%.1f MiB", $2 / 1024}' "/proc/${servers[0]}/status")"
if [ "$failed" -ne 0 ]; then
  echo "FAILED requests: $failed" >&2
  exit 1
fi
if [ "$most" -gt "$pool" ]; then
  echo "FAILED: $most connections, above the pool's $pool" >&2
  exit 1
fi
echo "0 failed requests"
