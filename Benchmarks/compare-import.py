#!/usr/bin/env python3
"""Two builds of `expenses` importing the same generated file, side by side.

    python3 Benchmarks/compare-import.py OLD_BINARY NEW_BINARY [--rows 1m] [--runs 5]

For a change that should not move the import's speed (a refactor of the layers above the hot
path): each run imports the same CSV into a new database with OLD, then with NEW (interleaved,
so a machine that slows down mid-way slows both), and the medians of wall time and peak RSS are
printed with their ratio. Each import's row count is checked. Needs Python 3's standard library
only; the CSV comes from Benchmarks/generate.py (cached in Benchmarks/data).

sqlite3's own `.import --csv` of the same file in one transaction runs in the same loop (the
reference of the import goal), unless --no-sqlite3. Besides wall time it prints CPU seconds
(user + system, from wait4), which a machine shared with other work disturbs less, and the
size of the database each build leaves (WAL folded in). With --again each build then imports
the same file a second time into the database it just made (every row a duplicate: the
re-import goal), against sqlite3's first import.

    python3 Benchmarks/compare-import.py OLD NEW --rows 100k --callgrind

counts instructions instead (valgrind --tool=callgrind, one run each: the counts do not depend
on the machine's load): each build's import and sqlite3's, in millions of instructions, the
threads summed.
"""

from __future__ import annotations

import argparse
import glob
import json
import re
import shutil
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import generate  # noqa: E402


def sqlite3_script(csv: str, folder: str) -> str:
    """The reference: sqlite3 `.import --csv` of the file into one table, one transaction."""
    script = os.path.join(folder, "sqlite3-import.sql")
    with open(script, "w", encoding="utf-8") as f:
        f.write("CREATE TABLE raw(Date TEXT, Description TEXT, Amount TEXT, Category TEXT);\n"
                f"BEGIN;\n.import --csv --skip 1 '{csv}' raw\nCOMMIT;\n")
    return script


def file_size(db: str) -> int:
    sqlite3 = shutil.which("sqlite3")
    if sqlite3:
        subprocess.run([sqlite3, db, "PRAGMA wal_checkpoint(TRUNCATE);"], capture_output=True)
    return sum(os.path.getsize(db + s) for s in ("", "-wal") if os.path.exists(db + s))


def timed(command: list[str], stdin_path: str | None = None) -> tuple[float, int, str, float]:
    """Runs `command`; returns (seconds, peak RSS in KiB, standard output, CPU seconds)."""
    start = time.monotonic()
    stdin = open(stdin_path, "rb") if stdin_path else None
    proc = subprocess.Popen(
        command, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "NO_COLOR": "1"})
    out_bytes, err_bytes = b"", b""
    # The summary is small: read both pipes to the end, then reap the process with its usage.
    if proc.stdout:
        out_bytes = proc.stdout.read()
    if proc.stderr:
        err_bytes = proc.stderr.read()
    _, raw_status, usage = os.wait4(proc.pid, 0)
    status = os.waitstatus_to_exitcode(raw_status)
    elapsed = time.monotonic() - start
    if stdin:
        stdin.close()
    if status != 0:
        sys.exit(f"{command[0]} failed ({status}): {err_bytes.decode().strip()[:500]}")
    return elapsed, usage.ru_maxrss, out_bytes.decode(), usage.ru_utime + usage.ru_stime


def one_import(binary: str, csv: str, folder: str, prefix: list[str] | None = None, again: bool = False
               ) -> tuple[float, int, str, float, int, tuple[float, int, str, float] | None]:
    """Imports `csv` into a new database with `binary` (or sqlite3, `binary` == "sqlite3");
    returns (seconds, peak RSS in KiB, summary line, CPU seconds, database bytes, and with
    `again` the same file imported a second time into that database: every row a duplicate)."""
    db = os.path.join(folder, f"bench-{time.monotonic_ns()}.sqlite")
    if binary == "sqlite3":
        command, script = [shutil.which("sqlite3") or "sqlite3", db], sqlite3_script(csv, folder)
    else:
        command, script = [binary, "import", csv, "--db", db, "--format", "json"], None
    elapsed, rss, out, cpu = timed((prefix or []) + command, script)
    second = timed(command) if again and binary != "sqlite3" else None
    size = file_size(db)
    for suffix in ("", "-wal", "-shm"):
        try:
            os.remove(db + suffix)
        except FileNotFoundError:
            pass
    return elapsed, rss, out, cpu, size, second


def callgrind(binary: str, csv: str, folder: str) -> float:
    """Millions of instructions of one import (every thread), counted by callgrind."""
    out = os.path.join(folder, f"callgrind-{time.monotonic_ns()}")
    one_import(binary, csv, folder, ["valgrind", "--tool=callgrind", "--separate-threads=no",
                                     f"--callgrind-out-file={out}.%p"])
    total = 0
    for path in glob.glob(out + ".*"):
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                match = re.match(r"(?:summary|totals): (\d+)", line)
                if match:
                    total = max(total, int(match.group(1)))
        os.remove(path)
    return total / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--rows", default="1m", help="10k, 100k, 1m, 10m or a number (default 1m)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-sqlite3", action="store_true", help="leave out sqlite3's .import")
    parser.add_argument("--callgrind", action="store_true", help="count instructions (one run each)")
    parser.add_argument("--again", action="store_true",
                        help="also import the file a second time into each database (all duplicates)")
    generate.add_profile_argument(parser)
    args = parser.parse_args()
    rows = generate.parse_rows(args.rows)
    csv = generate.ensure(os.path.join(HERE, "data"), rows, profile=args.profile)
    names = ["old", "new"] + ([] if args.no_sqlite3 or not shutil.which("sqlite3") else ["sqlite3"])
    binaries = {"old": args.old, "new": args.new, "sqlite3": "sqlite3"}
    print(f"import of {rows:,} rows ({os.path.basename(csv)}, {os.path.getsize(csv):,} bytes), "
          f"{platform.machine()} {os.cpu_count()} cores")
    if args.callgrind:
        if not shutil.which("valgrind"):
            sys.exit("valgrind not found: apt-get install -y valgrind")
        with tempfile.TemporaryDirectory(dir=os.path.join(HERE, "data")) as folder:
            counts = {name: callgrind(binaries[name], csv, folder) for name in names}
        print("| import by | instructions (M) | vs sqlite3 |")
        print("|---|---:|---:|")
        for name in names:
            ratio = f"{counts[name] / counts['sqlite3']:.3f}x" if "sqlite3" in counts else "—"
            print(f"| {name} `{binaries[name]}` | {counts[name]:,.0f} | {ratio} |")
        print(f"new/old: instructions {counts['new'] / counts['old']:.3f}x")
        return
    results: dict[str, list[tuple[float, int, float, int]]] = {name: [] for name in names}
    again: dict[str, list[tuple[float, int, float, int]]] = {name: [] for name in names if name != "sqlite3"}
    with tempfile.TemporaryDirectory(dir=os.path.join(HERE, "data")) as folder:
        for _ in range(args.runs):
            for name in names:
                seconds, rss, out, cpu, size, second = one_import(binaries[name], csv, folder, again=args.again)
                if name != "sqlite3" and json.loads(out).get("new") != rows:
                    sys.exit(f"{name}: expected {rows} new rows, got: {out[:300]}")
                results[name].append((seconds, rss, cpu, size))
                if second:
                    if json.loads(second[2]).get("new") != 0:
                        sys.exit(f"{name}: the second import added rows: {second[2][:300]}")
                    again[name].append((second[0], second[1], second[3], size))
    print(f"{args.runs} interleaved runs; medians")
    print("| import by | median s | runs (s) | CPU s | peak RSS MiB | database bytes | time vs sqlite3 | CPU vs sqlite3 |")
    print("|---|---:|---|---:|---:|---:|---:|---:|")
    med = {name: tuple(statistics.median(r[i] for r in results[name]) for i in range(4)) for name in names}
    for name in names:
        runs = ", ".join(f"{r[0]:.2f}" for r in results[name])
        s, m, c, size = med[name]
        vs = (f"{s / med['sqlite3'][0]:.3f}x | {c / med['sqlite3'][2]:.3f}x" if "sqlite3" in med else "— | —")
        print(f"| {name} `{binaries[name]}` | {s:.2f} | {runs} | {c:.2f} | {m / 1024:.1f} | {size:,.0f} | {vs} |")
    if args.again:
        print("\nThe same file imported again into each database (every row a duplicate):")
        print("| import by | median s | runs (s) | CPU s | peak RSS MiB | time vs sqlite3's import | CPU vs sqlite3 |")
        print("|---|---:|---|---:|---:|---:|---:|")
        for name in again:
            s, m, c = (statistics.median(r[i] for r in again[name]) for i in range(3))
            runs = ", ".join(f"{r[0]:.2f}" for r in again[name])
            vs = (f"{s / med['sqlite3'][0]:.3f}x | {c / med['sqlite3'][2]:.3f}x" if "sqlite3" in med else "— | —")
            print(f"| {name} again | {s:.2f} | {runs} | {c:.2f} | {m / 1024:.1f} | {vs} |")
    print(f"new/old: time {med['new'][0] / med['old'][0]:.3f}x, CPU {med['new'][2] / med['old'][2]:.3f}x, "
          f"peak RSS {med['new'][1] / med['old'][1]:.3f}x, database {med['new'][3] / med['old'][3]:.3f}x")


if __name__ == "__main__":
    main()
