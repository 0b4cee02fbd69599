#!/usr/bin/env python3
"""`expenses list` and `expenses export` of a whole database, against sqlite3 printing the rows.

    python3 Benchmarks/list.py BINARY [--sizes 100k,1m] [--runs 5] [--old OLD_BINARY]

For each size, imports Benchmarks/generate.py's CSV into a database (kept in Benchmarks/data
while the generator's stamp is unchanged), then runs, interleaved and RUNS times each, every
command with its output through a pipe (`| cat > /dev/null`):

- ours: `list --format csv`, `list --format json`, `list --width 100` (the text table),
  `export --format ledger`, `export --format beancount`;
- the reference: `sqlite3 -csv` printing the same columns of the same rows in the same order
  (`ORDER BY date DESC, id DESC`, which sorts); and, for scale, the same rows in storage order
  (no sort).

It prints the medians of wall time, rows per second, each command's ratio to the reference and
its peak RSS (from wait4), as a Markdown table. With --old, it first checks that OLD_BINARY and
BINARY print the same bytes for every command (the streamed output must not change) and adds
OLD_BINARY's `list --format csv` to the table. Standard library only.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import generate  # noqa: E402

COLUMNS = ("e.id, date, amountMinor, currency, description, category, account, f.name, sourceLine "
           "FROM expense e LEFT JOIN importFile f ON f.id = e.fileId")
SORTED = f"SELECT {COLUMNS} ORDER BY date DESC, e.id DESC"
STORAGE = f"SELECT {COLUMNS}"

OURS = {
    "list --format csv": ["list", "--format", "csv"],
    "list --format json": ["list", "--format", "json"],
    "list --width 100 (text)": ["list", "--width", "100"],
    "export --format ledger": ["export", "--format", "ledger"],
    "export --format beancount": ["export", "--format", "beancount"],
}


def piped(cmd: list[str], digest: bool = False) -> tuple[float, int, str]:
    """Runs `cmd | cat > /dev/null` (or hashes the output with `digest`); returns the wall time
    until both ended, the command's peak RSS in KiB, and the output's SHA-256 when asked."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "NO_COLOR": "1", "LC_ALL": "C.UTF-8"})
    sha = hashlib.sha256()
    if digest:
        assert proc.stdout is not None
        for block in iter(lambda: proc.stdout.read(1 << 20), b""):
            sha.update(block)
        cat = None
    else:
        cat = subprocess.Popen(["cat"], stdin=proc.stdout, stdout=subprocess.DEVNULL)
        assert proc.stdout is not None
        proc.stdout.close()  # cat holds the pipe; a closed reader would be EPIPE for the writer
    err = proc.stderr.read() if proc.stderr else b""
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if cat is not None:
        cat.wait()
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}): {err.decode(errors='replace')[:500]}")
    return elapsed, usage.ru_maxrss, sha.hexdigest() if digest else ""


def database(binary: str, rows: int, profile: str) -> str:
    """The generated CSV imported into a database, reused while its stamp matches."""
    data = os.path.join(HERE, "data")
    csv = generate.ensure(data, rows, profile=profile)
    db = os.path.join(data, f"list-{generate.data_label(rows, profile)}.sqlite")
    stamp = db + ".stamp"
    want = open(csv + ".stamp", encoding="utf-8").read()
    if os.path.exists(db) and os.path.exists(stamp) and open(stamp, encoding="utf-8").read() == want:
        return db
    for suffix in ("", "-wal", "-shm", ".stamp"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    print(f"importing {rows:,} rows into {db}", file=sys.stderr, flush=True)
    done = subprocess.run([binary, "--db", db, "import", csv, "--format", "json"], capture_output=True)
    if done.returncode != 0:
        sys.exit(f"import failed: {done.stderr.decode(errors='replace')[:500]}")
    with open(stamp, "w", encoding="utf-8") as s:
        s.write(want)
    return db


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--sizes", default="100k,1m", help="comma-separated row counts (10k, 100k, 1m ...)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--old", help="an earlier build: its output must be the same bytes")
    generate.add_profile_argument(parser)
    args = parser.parse_args()
    sqlite3 = "sqlite3"
    rows_out = []
    for size in [generate.parse_rows(s) for s in args.sizes.split(",") if s.strip()]:
        db = database(args.binary, size, args.profile)
        commands = {name: [args.binary, "--db", db] + argv for name, argv in OURS.items()}
        commands["sqlite3 -csv, same order (reference)"] = [sqlite3, "-readonly", "-csv", db, SORTED]
        commands["sqlite3 -csv, storage order (no sort)"] = [sqlite3, "-readonly", "-csv", db, STORAGE]
        if args.old:
            for name, argv in OURS.items():
                old = piped([args.old, "--db", db] + argv, digest=True)[2]
                new = piped(commands[name], digest=True)[2]
                if old != new:
                    sys.exit(f"{name}: {args.old} and {args.binary} differ at {size:,} rows")
            print(f"{size:,} rows: old and new outputs are the same bytes", file=sys.stderr, flush=True)
            commands["old build: list --format csv"] = [args.old, "--db", db] + OURS["list --format csv"]
        times: dict[str, list[float]] = {name: [] for name in commands}
        rss: dict[str, list[int]] = {name: [] for name in commands}
        for run in range(args.runs):
            print(f"{size:,} rows: run {run + 1}/{args.runs}", file=sys.stderr, flush=True)
            for name, cmd in commands.items():
                seconds, peak, _ = piped(cmd)
                times[name].append(seconds)
                rss[name].append(peak)
        reference = statistics.median(times["sqlite3 -csv, same order (reference)"])
        for name in commands:
            median = statistics.median(times[name])
            rows_out.append((name, size, median, median / reference, size / median,
                             statistics.median(rss[name]) / 1024))
    print(f"{platform.machine()}, {os.cpu_count()} cores, {args.runs} interleaved runs, output piped to cat")
    print()
    print("| command | rows | median (s) | vs sqlite3 same order | rows/s | peak RSS (MiB) |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, size, median, ratio, rate, peak in rows_out:
        print(f"| {name} | {size:,} | {median:.3f} | {ratio:.2f}x | {rate:,.0f} | {peak:.1f} |")


if __name__ == "__main__":
    main()
