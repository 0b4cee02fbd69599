#!/usr/bin/env bash
# The HTTP API benchmark described in docs/performance.md: wrk, 64 connections on loopback, against
# GET /v1/reports/{month} of the release build, three ways: plain, with If-None-Match (304),
# and while 1M-row imports run through POST /v1/imports. Prints requests/s, median and p99 and
# fails if any request failed (socket error, non-2xx/3xx answer, or an import that was not 201).
#
#   bash Benchmarks/http.sh                  # DURATION=10 IMPORT_ROWS=1m by default
#   DURATION=5 IMPORT_ROWS=100k bash Benchmarks/http.sh
set -euo pipefail
cd "$(dirname "$0")/.."

duration=${DURATION:-10}
rows=${IMPORT_ROWS:-1m}
command -v curl >/dev/null 2>&1 || { echo "curl is needed" >&2; exit 1; }
. Benchmarks/lib/serve.sh
release_binary_and_wrk

mkdir -p Benchmarks/out
work=$(mktemp -d Benchmarks/out/http-XXXXXX)
servers=()
importer=""
cleanup() {
  [ -n "$importer" ] && kill "$importer" 2>/dev/null || true
  for pid in "${servers[@]}"; do kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

db=$work/bench.sqlite
"$bin" --db "$db" import Fixtures/demo/bank.csv >/dev/null
"$bin" --db "$db" budget set Groceries 700 >/dev/null
"$bin" --db "$db" budget set Dining 250 >/dev/null
token=$("$bin" --db "$db" token create bench --scope write)

serve main
base=http://127.0.0.1:$port
url="$base/v1/reports/2026-10?today=2026-10-20"
auth="Authorization: Bearer $token"
etag=$(curl -s -D - -o /dev/null -H "$auth" "$url" | tr -d '\r' | awk -F': ' 'tolower($1)=="etag"{print $2}')
[ -n "$etag" ] || { echo "no ETag from $url" >&2; exit 1; }

failed=0
# One wrk run: prints "label  req/s  median  p99  failures" and adds failures up.
bench() {
  local label=$1
  shift
  wrk -t2 -c64 -d"${duration}s" --latency -H "$auth" "$@" "$url" >"$work/wrk.txt"
  local rps p50 p99 non2xx sockets
  rps=$(awk '/^Requests\/sec:/{print $2}' "$work/wrk.txt")
  p50=$(awk '$1=="50%"{print $2}' "$work/wrk.txt")
  p99=$(awk '$1=="99%"{print $2}' "$work/wrk.txt")
  non2xx=$(awk '/Non-2xx or 3xx responses:/{print $5}' "$work/wrk.txt")
  sockets=$(awk '/Socket errors:/{gsub(",", ""); print $4+$6+$8+$10}' "$work/wrk.txt")
  local failures=$(( ${non2xx:-0} + ${sockets:-0} ))
  failed=$((failed + failures))
  printf '%-34s %10s req/s   median %9s   p99 %9s   failed %s\n' "$label" "$rps" "$p50" "$p99" "$failures"
}

echo "wrk -t2 -c64 -d${duration}s --latency against GET /v1/reports/2026-10 ($(nproc) cores, loopback)"
bench "report (200, body $(curl -s -H "$auth" "$url" | wc -c) bytes)"
bench "report, If-None-Match (304)" -H "If-None-Match: $etag"

# Imports through the API while the report is read: each pass adds the whole file again under
# another account name (so its rows are new, not duplicates). The file is history: the
# generator's rows before 2026-07 (the demo's months), at least IMPORT_ROWS of them, so the
# reported month's expense list (which the report JSON carries in full) stays the demo's and
# the benchmark measures serving while importing, not a month of thousands of rows.
case $rows in
  *k) want=$(( ${rows%k} * 1000 )) ;;
  *m) want=$(( ${rows%m} * 1000000 )) ;;
  *) want=$rows ;;
esac
csv=Benchmarks/data/history-$rows.csv
if [ ! -f "$csv" ]; then
  python3 Benchmarks/generate.py --rows $(( want + want / 20 )) --out "$work/gen" >/dev/null
  awk -F, -v want="$want" 'NR == 1 || ($1 < "2026-07" && n++ < want)' "$work"/gen/expenses-*.csv >"$csv"
  rm -rf "$work/gen"
fi
rows=$(( $(wc -l <"$csv") - 1 ))
(
  pass=0
  while [ ! -f "$work/stop" ]; do
    pass=$((pass + 1))
    curl -s -o /dev/null -w "%{http_code} %{time_total}\n" -X POST -H "$auth" -H "Content-Type: text/csv" \
      --data-binary "@$csv" "$base/v1/imports?file=bench.csv&account=pass$pass" >>"$work/imports.txt"
  done
) &
importer=$!
sleep 0.5
bench "report during $rows-row imports"
touch "$work/stop"
wait "$importer"
importer=""
imports=$(wc -l <"$work/imports.txt")
bad=$(awk '$1!="201"' "$work/imports.txt" | wc -l)
failed=$((failed + bad))
echo "imports of $csv ($(du -h "$csv" | cut -f1)) during that run: $imports," \
  "seconds each: $(awk '{printf "%s%.2f", (NR>1?" ":""), $2}' "$work/imports.txt"), not 201: $bad"
echo "request log lines: $(grep -c 'hb.request.id' "$work/serve-main.log")"
if [ "$failed" -ne 0 ]; then
  echo "FAILED requests: $failed" >&2
  exit 1
fi
echo "0 failed requests"
