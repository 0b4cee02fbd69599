# Shared by the benchmarks that run `expenses serve` on a PostgreSQL database (sourced from the
# repository's root).
#
# `release_binary_and_wrk`: installs wrk when missing and builds the release binary, `$bin`.
release_binary_and_wrk() {
  if ! command -v wrk >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq wrk
  fi
  swift build -q -c release --static-swift-stdlib --scratch-path .build-rel --product expenses
  bin=$(swift build -c release --static-swift-stdlib --scratch-path .build-rel --show-bin-path)/expenses
}

# `serve NAME [ARGS...]` starts `$bin --db $db serve --port 0 ARGS` in the
# background, logging to $work/serve-NAME.log, appends its pid to `servers` and sets `port`
# once it listens (the script exits with the log when it never does).
serve() {
  local log=$work/serve-$1.log
  shift
  "$bin" --db "$db" serve --port 0 "$@" >/dev/null 2>"$log" &
  servers+=($!)
  port=""
  for _ in $(seq 1 200); do
    port=$(grep -o 'serving on http://127.0.0.1:[0-9]*' "$log" | grep -o '[0-9]*$' || true)
    [ -n "$port" ] && break
    sleep 0.05
  done
  [ -n "$port" ] || { cat "$log" >&2; exit 1; }
}

# `start_postgres WORK` makes `$work/data` a new PostgreSQL 15 cluster (Unix socket only, in
# `$work`, max_connections 100), starts it and creates the database `bench`; sets `as_pg` (run
# as the postgres user when run as root: initdb refuses root) and `db`. Needs `$pgbin`.
start_postgres() {
  as_pg=()
  if [ "$(id -u)" = 0 ]; then chown postgres: "$work"; as_pg=(runuser -u postgres --); fi
  "${as_pg[@]}" "$pgbin/initdb" -D "$work/data" -U postgres --auth=trust --encoding=UTF8 --locale=C >/dev/null
  "${as_pg[@]}" "$pgbin/pg_ctl" -D "$work/data" -l "$work/pg.log" -w \
    -o "-c listen_addresses='' -k $work -c max_connections=100" start >/dev/null
  "${as_pg[@]}" "$pgbin/createdb" -h "$work" -U postgres bench
  db="postgres://postgres@/bench?host=$work"
}

# `wrk_result FILE` reads one `wrk --latency` output into `rps`, `p50`, `p99` (as wrk prints
# them) and `failures` (non-2xx/3xx answers and socket errors).
wrk_result() {
  rps=$(awk '/^Requests\/sec:/{print $2}' "$1")
  p50=$(awk '$1=="50%"{print $2}' "$1")
  p99=$(awk '$1=="99%"{print $2}' "$1")
  local non2xx sockets
  non2xx=$(awk '/Non-2xx or 3xx responses:/{print $5}' "$1")
  sockets=$(awk '/Socket errors:/{gsub(",", ""); print $4+$6+$8+$10}' "$1")
  failures=$(( ${non2xx:-0} + ${sockets:-0} ))
}

# `wrk_ms QUANTILE FILE`: wrk's latency at QUANTILE (50% or 99%) in milliseconds.
wrk_ms() {
  awk -v q="$1" '$1==q{v=$2; if (v ~ /us$/) {sub("us","",v); v/=1000} else if (v ~ /ms$/) {sub("ms","",v)} else if (v ~ /s$/) {sub("s","",v); v*=1000}; print v}' "$2"
}
