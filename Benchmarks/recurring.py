#!/usr/bin/env python3
"""What finding recurring payments costs a report, on bank-shaped data.

    python3 Benchmarks/recurring.py BINARY [--sizes 100k,1m] [--runs 5]

For each size, imports Benchmarks/generate.py's CSV (the bank profile by default: about a third
of descriptions distinct; shared with list.py) and runs, interleaved and RUNS times each:

- `report --format json --month M` for the data's latest month: the report reads the money out
  of the 38 months up to it and finds the series (RecurringDetector), beside its monthly sums;
- `recurring`: the same detection, listed;
- the reference: sqlite3 reading the same rows the detector reads (money out of the 38 months,
  date, amount, currency, description, category), as a floor for one pass over them.

It prints the medians of wall time and the ratio to the reference, as a Markdown table.
Standard library only.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import generate  # noqa: E402
from list import database, piped  # noqa: E402


def latest_month(db: str) -> str:
    out = subprocess.run(["sqlite3", "-readonly", db, "SELECT max(date) FROM expense"], capture_output=True,
                         check=True, text=True).stdout.strip()
    return out[:7]


def first_day(month: str, back: int) -> str:
    year, mon = int(month[:4]), int(month[5:7])
    index = year * 12 + mon - 1 - back
    return f"{index // 12:04d}-{index % 12 + 1:02d}-01"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--sizes", default="100k,1m")
    parser.add_argument("--runs", type=int, default=5)
    generate.add_profile_argument(parser)
    args = parser.parse_args()
    out = []
    for size in [generate.parse_rows(s) for s in args.sizes.split(",") if s.strip()]:
        db = database(args.binary, size, args.profile)
        month = latest_month(db)
        today = month + "-28"
        ref_sql = (f"SELECT date, amountMinor, currency, description, category FROM expense "
                   f"WHERE amountMinor < 0 AND date >= '{first_day(month, 38)}' AND date <= '{month}-31'")
        commands = {
            "report": [args.binary, "--db", db, "report", "--format", "json", "--month", month, "--today", today],
            "recurring": [args.binary, "--db", db, "recurring", "--today", today, "--format", "json"],
            "ref": ["sqlite3", "-readonly", "-csv", db, ref_sql],
        }
        found = subprocess.run(commands["recurring"], capture_output=True, check=True).stdout.count(b'"id"')
        times: dict[str, list[float]] = {name: [] for name in commands}
        for run in range(args.runs):
            print(f"{size:,} rows: run {run + 1}/{args.runs}", file=sys.stderr, flush=True)
            for name, cmd in commands.items():
                times[name].append(piped(cmd)[0])
        medians = {name: statistics.median(values) for name, values in times.items()}
        out.append((size, found, medians))
    print(f"{platform.machine()}, {os.cpu_count()} cores, {args.runs} interleaved runs, output piped to cat")
    print()
    print("| rows | series | `report --format json` (s) | `recurring` (s) | sqlite3 reading the same rows (s) | "
          "`recurring` ratio |")
    print("|---:|---:|---:|---:|---:|---:|")
    for size, found, m in out:
        print(f"| {size:,} | {found} | {m['report']:.3f} | {m['recurring']:.3f} | {m['ref']:.3f} | "
              f"{m['recurring'] / m['ref']:.2f}x |")


if __name__ == "__main__":
    main()
