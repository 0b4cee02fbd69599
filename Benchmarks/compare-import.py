#!/usr/bin/env python3
"""Two builds of `expenses` importing the same generated file, side by side.

    python3 Benchmarks/compare-import.py OLD_BINARY NEW_BINARY [--rows 1m] [--runs 5]

For a change that should not move the import's speed (a refactor of the layers above the hot
path): each run imports the same CSV into a new database with OLD, then with NEW (interleaved,
so a machine that slows down mid-way slows both), and the medians of wall time and peak RSS are
printed with their ratio. Each import's row count is checked. Needs Python 3's standard library
only; the CSV comes from Benchmarks/generate.py (cached in Benchmarks/data).
"""

from __future__ import annotations

import argparse
import json
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


def one_import(binary: str, csv: str, folder: str) -> tuple[float, int, str]:
    """Imports `csv` into a new database; returns (seconds, peak RSS in KiB, summary line)."""
    db = os.path.join(folder, f"bench-{time.monotonic_ns()}.sqlite")
    start = time.monotonic()
    proc = subprocess.Popen(
        [binary, "import", csv, "--db", db, "--format", "json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "NO_COLOR": "1"})
    out_bytes, err_bytes = b"", b""
    # The summary is small: read both pipes to the end, then reap the process with its usage.
    if proc.stdout:
        out_bytes = proc.stdout.read()
    if proc.stderr:
        err_bytes = proc.stderr.read()
    _, raw_status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(raw_status)
    elapsed = time.monotonic() - start
    out, err, status = out_bytes.decode(), err_bytes.decode(), proc.returncode
    if status != 0:
        sys.exit(f"{binary} failed ({status}): {err.strip()[:500]}")
    for suffix in ("", "-wal", "-shm"):
        try:
            os.remove(db + suffix)
        except FileNotFoundError:
            pass
    return elapsed, usage.ru_maxrss, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--rows", default="1m", help="10k, 100k, 1m, 10m or a number (default 1m)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rows = generate.parse_rows(args.rows)
    csv = generate.ensure(os.path.join(HERE, "data"), rows)
    results: dict[str, list[tuple[float, int]]] = {"old": [], "new": []}
    with tempfile.TemporaryDirectory(dir=os.path.join(HERE, "data")) as folder:
        for _ in range(args.runs):
            for name in ("old", "new"):
                seconds, rss, out = one_import(getattr(args, name), csv, folder)
                if json.loads(out).get("new") != rows:
                    sys.exit(f"{name}: expected {rows} new rows, got: {out[:300]}")
                results[name].append((seconds, rss))
    old_s = statistics.median(s for s, _ in results["old"])
    new_s = statistics.median(s for s, _ in results["new"])
    old_m = statistics.median(m for _, m in results["old"]) / 1024
    new_m = statistics.median(m for _, m in results["new"]) / 1024
    print(f"import of {rows:,} rows ({os.path.basename(csv)}), {args.runs} interleaved runs, "
          f"{platform.machine()} {os.cpu_count()} cores")
    print("| build | median s | runs (s) | peak RSS MiB |")
    print("|---|---|---|---|")
    for name, median, mem in (("old", old_s, old_m), ("new", new_s, new_m)):
        runs = ", ".join(f"{s:.2f}" for s, _ in results[name])
        print(f"| {name} `{getattr(args, name)}` | {median:.2f} | {runs} | {mem:.1f} |")
    print(f"new/old: time {new_s / old_s:.3f}x, peak RSS {new_m / old_m:.3f}x")


if __name__ == "__main__":
    main()
