#!/usr/bin/env bash
# Failover drill (docs/scaling.md): two `expenses serve` on one PostgreSQL database; an API
# import (POST /v1/imports with an Idempotency-Key) goes to server A, which is SIGKILLed while
# the import runs (seen by its advisory lock on the key in pg_locks); the client retries the
# same key on server B (again after 409, while PostgreSQL has not yet ended A's session) until
# it gets 201. Then: exactly one import, its rows exactly the file's (nothing lost, nothing
# doubled), and a further retry replays the same answer. ROUNDS rounds, each with a new key,
# file and server A. Fails on any difference.
#
#   bash Benchmarks/failover-drill.sh           # ROUNDS=3 ROWS=200000 by default
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=${ROUNDS:-3}
rows=${ROWS:-200000}
pgbin=${PGBIN:-/usr/lib/postgresql/15/bin}
swift build -q -c release --static-swift-stdlib --scratch-path .build-rel --product expenses
bin=$(swift build -c release --static-swift-stdlib --scratch-path .build-rel --show-bin-path)/expenses

work=$(mktemp -d /tmp/expenses-failover-XXXXXX)
as_pg=()
if [ "$(id -u)" = 0 ]; then chown postgres: "$work"; as_pg=(runuser -u postgres --); fi
servers=()
cleanup() {
  for pid in "${servers[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  "${as_pg[@]}" "$pgbin/pg_ctl" -D "$work/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
"${as_pg[@]}" "$pgbin/initdb" -D "$work/data" -U postgres --auth=trust --encoding=UTF8 --locale=C >/dev/null
"${as_pg[@]}" "$pgbin/pg_ctl" -D "$work/data" -l "$work/pg.log" -w -o "-c listen_addresses='' -k $work" start >/dev/null
"${as_pg[@]}" "$pgbin/createdb" -h "$work" -U postgres drill
db="postgres://postgres@/drill?host=$work"
sql() { "${as_pg[@]}" "$pgbin/psql" -h "$work" -U postgres -d drill -Atc "$1"; }
token=$("$bin" --db "$db" token create drill --scope write)
auth="Authorization: Bearer $token"

. Benchmarks/lib/serve.sh
serve b
portB=$port
failures=0
expected=0
for round in $(seq 1 "$rounds"); do
  csv=$work/round$round.csv
  awk -v n="$rows" -v r="$round" 'BEGIN{print "date,amount,description";
    for (i = 0; i < n; i++) printf "20%02d-%02d-%02d,-%d.%02d,drill %d row %d\n", 10 + i % 15, i % 12 + 1, i % 28 + 1, i % 5000 + 1, i % 100, r, i}' >"$csv"
  serve "a$round"
  portA=$port
  pidA=${servers[-1]}
  key="drill-$round-$RANDOM"
  url="/v1/imports?file=round$round.csv"
  curl -s -o "$work/a.json" -w "%{http_code}" -X POST -H "$auth" -H "Content-Type: text/csv" \
    -H "Idempotency-Key: $key" --data-binary "@$csv" "http://127.0.0.1:$portA$url" >"$work/a.status" 2>/dev/null &
  client=$!
  # The import is running once A's session holds the key's advisory lock.
  for _ in $(seq 1 600); do
    [ "$(sql "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted")" -gt 0 ] && break
    sleep 0.01
  done
  sleep 0.$((RANDOM % 5))
  kill -KILL "$pidA"
  start=$(date +%s.%N)
  wait "$client" || true
  statusA=$(cat "$work/a.status" 2>/dev/null || true)
  tries=0
  while :; do
    tries=$((tries + 1))
    status=$(curl -s -o "$work/b.json" -w "%{http_code}" -X POST -H "$auth" -H "Content-Type: text/csv" \
      -H "Idempotency-Key: $key" --data-binary "@$csv" "http://127.0.0.1:$portB$url")
    [ "$status" = 409 ] || break
    sleep 0.1
  done
  took=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN{printf "%.2f", e - s}')
  replay=$(curl -s -X POST -H "$auth" -H "Content-Type: text/csv" -H "Idempotency-Key: $key" \
    --data-binary "@$csv" "http://127.0.0.1:$portB$url")
  expected=$((expected + rows))
  imports=$(sql "SELECT count(*) FROM import_record")
  stored=$(sql "SELECT count(*) FROM expense")
  new=$(grep -o '"new" *: *[0-9]*' "$work/b.json" | grep -o '[0-9]*$' || echo "?")
  ok=yes
  [ "$status" = 201 ] && [ "$imports" = "$round" ] && [ "$stored" = "$expected" ] && [ "$new" = "$rows" ] \
    && [ "$replay" = "$(cat "$work/b.json")" ] || ok=no
  # A 201 from A before it died must be the import B replays (checked above: one import).
  if [ "$statusA" = 201 ] && [ "$(cat "$work/a.json")" != "$(cat "$work/b.json")" ]; then ok=no; fi
  echo "round $round: A killed (its client got '${statusA:-no answer}'); B answered $status after $tries tries" \
    "(${took}s after the kill); imports $imports, expenses $stored (expected $expected), new $new, replay same: $([ "$replay" = "$(cat "$work/b.json")" ] && echo yes || echo no) -> $ok"
  [ "$ok" = yes ] || failures=$((failures + 1))
done
if [ "$failures" -ne 0 ]; then
  echo "FAILED rounds: $failures" >&2
  exit 1
fi
echo "every round: one import, nothing lost, nothing doubled"
# Per-row sizes for docs/scaling.md's arithmetic (table, its indexes and TOAST, after ANALYZE).
sql "VACUUM ANALYZE expense" >/dev/null
sql "SELECT 'expense: ' || count(*) || ' rows, ' || pg_total_relation_size('expense') / count(*) || ' bytes a row with indexes (' || pg_relation_size('expense') / count(*) || ' heap), month_total: ' || (SELECT count(*) FROM month_total) || ' rows, ' || pg_size_pretty(pg_total_relation_size('month_total')) FROM expense"
