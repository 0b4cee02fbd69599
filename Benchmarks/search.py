#!/usr/bin/env python3
"""`expenses list --search` over a whole database, against sqlite3 finding the same text.

    python3 Benchmarks/search.py BINARY [--sizes 100k,1m] [--runs 5] [--terms starbucks,zzzz] [--postgres]

For each size, imports Benchmarks/generate.py's CSV (the bank profile by default: about a third
of descriptions distinct) into a database (shared with list.py, reused while its stamp matches),
then runs, interleaved and RUNS times each, for every term:

- ours: `list --search TERM --format csv` (case and accents ignored, every month, description,
  category and account);
- the reference: `sqlite3 -csv` selecting the same columns of the rows whose description,
  category or account is LIKE '%TERM%' (ASCII case-insensitive only), in `list`'s order.

With --postgres, the same against a private PostgreSQL server (started as
Benchmarks/postgres-import.py starts it; ours connects as an ordinary role, so row-level
security binds it): ours with `--db postgres://…`, the reference `psql --csv` selecting the same
columns of the rows whose description, category or account is ILIKE '%TERM%', in `list`'s
order.

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

PG_COLUMNS = ("e.id, e.date, e.amount_minor, e.currency, e.description, e.category, e.account, f.name, "
              "e.source_line FROM expense e LEFT JOIN import_file f ON f.ledger_id = e.ledger_id AND f.id = e.file_id")


def pg_reference(term: str) -> str:
    like = "'%" + term.replace("'", "''") + "%'"
    return (f"SELECT {PG_COLUMNS} WHERE e.description ILIKE {like} OR e.category ILIKE {like} "
            f"OR e.account ILIKE {like} ORDER BY e.date DESC, e.id DESC")


def postgres_database(binary: str, server, rows: int, profile: str) -> str:
    """A new database of `server` holding the generated CSV; returns its name."""
    csv = generate.ensure(os.path.join(HERE, "data"), rows, profile=profile)
    name = server.new_database()
    print(f"importing {rows:,} rows into PostgreSQL", file=sys.stderr, flush=True)
    done = subprocess.run([binary, "import", csv, "--db", server.url(name), "--format", "json"], capture_output=True)
    if done.returncode != 0:
        sys.exit(f"import failed: {done.stderr.decode(errors='replace')[:500]}")
    return name


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
    parser.add_argument("--postgres", action="store_true", help="search a PostgreSQL database instead")
    generate.add_profile_argument(parser)
    args = parser.parse_args()
    server = None
    if args.postgres:
        import importlib.util
        import shutil
        import tempfile
        spec = importlib.util.spec_from_file_location("postgres_import", os.path.join(HERE, "postgres-import.py"))
        pg = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(pg)
        folder = tempfile.mkdtemp(prefix="expenses-pg-search-")
        server = pg.Server(folder)
    out = []
    try:
        for size in [generate.parse_rows(s) for s in args.sizes.split(",") if s.strip()]:
            if server:
                name = postgres_database(args.binary, server, size, args.profile)
                db = server.url(name)
                psql = [os.path.join(pg.pg_bin(), "psql"), "-h", server.socket, "-U", server.user, "-d", name, "-X",
                        "-q", "--csv"]
            else:
                db = database(args.binary, size, args.profile)
            for term in [t for t in args.terms.split(",") if t]:
                ours = [args.binary, "--db", db, "list", "--search", term, "--format", "csv"]
                # The reference reads as ours does: as the ledger's role, its ledger named.
                ref = (psql + ["-c", "SELECT set_config('expenses.ledger', '1', false)", "-c", pg_reference(term)]
                       if server
                       else ["sqlite3", "-readonly", "-csv", db, reference(term)])
                matched = subprocess.run(ours, capture_output=True, check=True).stdout.count(b"\n") - 1
                times: dict[str, list[float]] = {"ours": [], "ref": []}
                for run in range(args.runs):
                    print(f"{size:,} rows, '{term}': run {run + 1}/{args.runs}", file=sys.stderr, flush=True)
                    times["ours"].append(piped(ours)[0])
                    times["ref"].append(piped(ref)[0])
                mine, theirs = statistics.median(times["ours"]), statistics.median(times["ref"])
                out.append((term, size, matched, mine, theirs, mine / theirs))
    finally:
        if server:
            server.stop()
            shutil.rmtree(folder, ignore_errors=True)
    store = "PostgreSQL 15 (psql ILIKE)" if server else "SQLite (sqlite3 LIKE)"
    print(f"{store}, {platform.machine()}, {os.cpu_count()} cores, {args.runs} interleaved runs, output piped to cat")
    print()
    print(f"| term | rows | matched | `list --search` (s) | {'psql ILIKE' if server else 'sqlite3 LIKE'} (s) | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for term, size, matched, mine, theirs, ratio in out:
        print(f"| {term} | {size:,} | {matched:,} | {mine:.3f} | {theirs:.3f} | {ratio:.2f}x |")


if __name__ == "__main__":
    main()
