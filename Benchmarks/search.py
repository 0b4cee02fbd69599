#!/usr/bin/env python3
"""`expenses list --search` over a whole database, against sqlite3 finding the same text.

    python3 Benchmarks/search.py BINARY [--sizes 100k,1m] [--runs 5] [--terms starbucks,zzzz]

For each size, imports Benchmarks/generate.py's CSV (the bank profile by default: about a third
of descriptions distinct) into a database (shared with list.py, reused while its stamp matches),
then runs, interleaved and RUNS times each, for every term:

- ours: `list --search TERM --format csv` (case and accents ignored, every month, description,
  category and account);
- the reference: `sqlite3 -csv` selecting the same columns of the rows whose description,
  category or account is LIKE '%TERM%' (ASCII case-insensitive only), in `list`'s order.

A term that matches many rows measures the output too; a term that matches none measures the
search alone. It prints the medians of wall time, rows matched and the ratio to the reference,
as a Markdown table. Standard library only.
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
from list import COLUMNS, database, piped  # noqa: E402


def reference(term: str) -> str:
    like = "'%" + term.replace("'", "''") + "%'"
    return (f"SELECT {COLUMNS} WHERE description LIKE {like} OR category LIKE {like} OR account LIKE {like} "
            "ORDER BY date DESC, e.id DESC")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--sizes", default="100k,1m")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--terms", default="starbucks,zzzz")
    generate.add_profile_argument(parser)
    args = parser.parse_args()
    out = []
    for size in [generate.parse_rows(s) for s in args.sizes.split(",") if s.strip()]:
        db = database(args.binary, size, args.profile)
        for term in [t for t in args.terms.split(",") if t]:
            ours = [args.binary, "--db", db, "list", "--search", term, "--format", "csv"]
            ref = ["sqlite3", "-readonly", "-csv", db, reference(term)]
            matched = subprocess.run(ours, capture_output=True, check=True).stdout.count(b"\n") - 1
            times: dict[str, list[float]] = {"ours": [], "ref": []}
            for run in range(args.runs):
                print(f"{size:,} rows, '{term}': run {run + 1}/{args.runs}", file=sys.stderr, flush=True)
                times["ours"].append(piped(ours)[0])
                times["ref"].append(piped(ref)[0])
            mine, theirs = statistics.median(times["ours"]), statistics.median(times["ref"])
            out.append((term, size, matched, mine, theirs, mine / theirs))
    print(f"{platform.machine()}, {os.cpu_count()} cores, {args.runs} interleaved runs, output piped to cat")
    print()
    print("| term | rows | matched | `list --search` (s) | sqlite3 LIKE (s) | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for term, size, matched, mine, theirs, ratio in out:
        print(f"| {term} | {size:,} | {matched:,} | {mine:.3f} | {theirs:.3f} | {ratio:.2f}x |")


if __name__ == "__main__":
    main()
