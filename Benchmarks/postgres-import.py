#!/usr/bin/env python3
"""`expenses import` into PostgreSQL against `psql \\copy` of the same CSV, in the same run.

    python3 Benchmarks/postgres-import.py [--binary .build-rel/release/expenses] [--rows 1m] [--runs 5]
                                          [--statements] [--superuser]

Starts a private PostgreSQL server (initdb in a temporary folder, a Unix socket, no TCP port;
as the `postgres` user through runuser when run as root), then, for each run, interleaved:
- ours: `expenses import CSV --db postgres://…/NEW_DATABASE --format json` (a new database each
  run, so the schema is created as a user's first import does), wall time and peak RSS;
- reference: `psql -c "\\copy plain FROM CSV (FORMAT csv, HEADER)"` into a new database with a
  plain table of the CSV's four columns (date, text, numeric, text), no key and no index:
  the fastest way PostgreSQL itself has to take the file.
Ours connects as an ordinary role that owns the database, as a deployment should (row-level
security binds it; a superuser bypasses it): `--superuser` imports as `postgres` instead.
Prints the medians, their ratio and our peak RSS. The server runs with its defaults except
`fsync=off` (as the tests; a laptop's disk would otherwise dominate both). Each import's row
count is checked. With --statements the server also loads pg_stat_statements (tracking nested
statements too) and, after the runs, prints where the server spent the last import's time,
statement by statement (a statement's time includes the triggers it fired, which are also
listed on their own). Python 3 standard library only; the CSV comes from Benchmarks/generate.py
(cached in Benchmarks/data).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import generate  # noqa: E402


def pg_bin() -> str:
    for candidate in ["/usr/lib/postgresql/15/bin"] + sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.path.exists(os.path.join(candidate, "initdb")):
            return candidate
    sys.exit("PostgreSQL is not installed (apt-get install postgresql)")


STATEMENTS = " -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all"

TOP_STATEMENTS = """
SELECT calls, round(total_exec_time::numeric / 1000, 2) AS seconds, rows,
       left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS statement
FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND query NOT LIKE '%pg_stat_statements%'
ORDER BY total_exec_time DESC LIMIT 10
"""


class Server:
    """A private PostgreSQL server on a Unix socket in a temporary folder."""

    def __init__(self, folder: str, statements: bool = False, superuser: bool = False):
        self.user = "postgres" if superuser else "bench"
        self.bin = pg_bin()
        self.folder = folder
        self.socket = os.path.join(folder, "socket")
        self.data = os.path.join(folder, "data")
        self.run_as = "postgres" if os.getuid() == 0 else None
        os.makedirs(self.socket)
        if self.run_as:
            subprocess.run(["chown", "-R", f"{self.run_as}:", folder], check=True)
        self.server(["initdb", "-D", self.data, "-U", "postgres", "--auth=trust", "--encoding=UTF8",
                     "--locale=C", "--no-sync", "--no-instructions"])
        self.server(["pg_ctl", "-D", self.data, "-l", os.path.join(folder, "server.log"), "-w", "-t", "60", "-o",
                     f"-c listen_addresses='' -k {self.socket} -c fsync=off" + STATEMENTS * statements, "start"])
        self.count = 0
        if self.user != "postgres":
            subprocess.run([os.path.join(self.bin, "createuser"), "-h", self.socket, "-U", "postgres", self.user],
                           check=True)

    def server(self, argv: list[str]) -> None:
        cmd = [os.path.join(self.bin, argv[0])] + argv[1:]
        if self.run_as:
            cmd = ["runuser", "-u", self.run_as, "--"] + cmd
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def new_database(self) -> str:
        self.count += 1
        name = f"bench_{os.getpid()}_{self.count}"
        subprocess.run([os.path.join(self.bin, "createdb"), "-h", self.socket, "-U", "postgres", "-O", self.user, name],
                       check=True)
        return name

    def url(self, name: str) -> str:
        return f"postgres://{self.user}@/{name}?host={self.socket}"

    def drop(self, name: str) -> None:
        subprocess.run([os.path.join(self.bin, "dropdb"), "-h", self.socket, "-U", "postgres", name], check=True)

    def stop(self) -> None:
        self.server(["pg_ctl", "-D", self.data, "-m", "fast", "-w", "stop"])


def timed(cmd: list[str]) -> tuple[float, int, str]:
    """Runs `cmd`; returns (seconds, peak RSS in KiB, stdout). Exits on failure."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "NO_COLOR": "1"})
    out = proc.stdout.read() if proc.stdout else b""
    err = proc.stderr.read() if proc.stderr else b""
    _, raw_status, usage = os.wait4(proc.pid, 0)
    elapsed = time.monotonic() - start
    code = os.waitstatus_to_exitcode(raw_status)
    if code != 0:
        sys.exit(f"{cmd[0]} failed ({code}): {err.decode(errors='replace').strip()[:500]}")
    return elapsed, usage.ru_maxrss, out.decode(errors="replace")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(HERE, "..", ".build-rel", "release", "expenses"))
    parser.add_argument("--rows", default="1m", help="10k, 100k, 1m, 10m or a number (default 1m)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--statements", action="store_true", help="print the server's time per statement")
    parser.add_argument("--superuser", action="store_true", help="import as postgres (bypassing row-level security)")
    generate.add_profile_argument(parser)
    args = parser.parse_args()
    rows = generate.parse_rows(args.rows)
    csv = os.path.abspath(generate.ensure(os.path.join(HERE, "data"), rows, profile=args.profile))
    psql = os.path.join(pg_bin(), "psql")
    folder = tempfile.mkdtemp(prefix="expenses-pg-bench-")
    server = Server(folder, args.statements, args.superuser)
    statements = ""
    ours: list[tuple[float, int]] = []
    reference: list[float] = []
    try:
        for _ in range(args.runs):
            name = server.new_database()
            base = [psql, "-h", server.socket, "-U", "postgres", "-d", name, "-X", "-q", "-v", "ON_ERROR_STOP=1"]
            if args.statements:
                subprocess.run(base + ["-c", "CREATE EXTENSION pg_stat_statements"], check=True)
            seconds, rss, out = timed([args.binary, "import", csv, "--db", server.url(name), "--format", "json"])
            if json.loads(out).get("new") != rows:
                sys.exit(f"expenses: expected {rows} new rows, got: {out[:300]}")
            ours.append((seconds, rss))
            if args.statements:
                statements = subprocess.run(base + ["-c", TOP_STATEMENTS], check=True, capture_output=True,
                                            text=True).stdout
            server.drop(name)

            name = server.new_database()
            base = [psql, "-h", server.socket, "-U", "postgres", "-d", name, "-X", "-q", "-v", "ON_ERROR_STOP=1"]
            subprocess.run(base + ["-c", "CREATE TABLE plain (date date, description text, amount numeric, "
                                         "category text)"], check=True)
            seconds, _, _ = timed(base + ["-c", f"\\copy plain FROM '{csv}' WITH (FORMAT csv, HEADER true)"])
            count = subprocess.run(base + ["-A", "-t", "-c", "SELECT count(*) FROM plain"], check=True,
                                   capture_output=True, text=True).stdout.strip()
            if count != str(rows):
                sys.exit(f"psql: expected {rows} rows, got {count}")
            reference.append(seconds)
            server.drop(name)
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    ours_s = statistics.median(s for s, _ in ours)
    ref_s = statistics.median(reference)
    peak = max(m for _, m in ours) / 1024
    print(f"import of {rows:,} rows ({os.path.basename(csv)}) into PostgreSQL, {args.runs} interleaved runs, "
          f"{platform.machine()} {os.cpu_count()} cores")
    print("| what | median s | runs (s) | peak RSS MiB |")
    print("|---|---|---|---|")
    print(f"| expenses import | {ours_s:.2f} | {', '.join(f'{s:.2f}' for s, _ in ours)} | {peak:.1f} |")
    print(f"| psql \\copy (plain table) | {ref_s:.2f} | {', '.join(f'{s:.2f}' for s in reference)} | |")
    print(f"expenses/psql: {ours_s / ref_s:.2f}x; peak RSS {peak:.1f} MiB")
    if statements:
        print(f"\nthe server's time per statement, last import ({ours[-1][0]:.2f} s):\n{statements}")


if __name__ == "__main__":
    main()
