#!/usr/bin/env python3
"""The floor under an import into PostgreSQL: what the server alone charges for the guarantees.

    python3 Benchmarks/postgres-floor.py [--rows 1m] [--runs 5] [--binary .build-rel/release/expenses]

No `expenses` binary is involved: every figure is `psql` loading rows that are already made
(the key computed, the columns typed), so it is the least any client could pay for the table
it loads into. Against the reference of `Benchmarks/postgres-import.py` (`psql \\copy` of the
CSV into a plain four-column table, no key, no index), interleaved, each into a new database
of a private server (Unix socket, `fsync=off`, as the tests):

- `the columns alone`: `\\copy` straight into a table with the expense's columns and no key,
  as a superuser: what the wider row costs by itself.
- `unique key only`: `\\copy` straight into a table with the expense's columns and nothing
  but the duplicate key, `PRIMARY KEY (ledger_id, key)`, as a superuser (no row-level
  security, no trigger): the cheapest way to keep the duplicate check in the server.
- `row-level security only`: the same table with no index at all, row-level security FORCEd
  with the store's policy, loaded by an ordinary owning role. PostgreSQL refuses `COPY FROM`
  into such a table (checked on each run), so the rows go the only way left: `\\copy` into a
  temporary table, then one `INSERT … SELECT`.
- `both`: row-level security and the duplicate key, loaded as the previous line.
- `store`: the store's own schema, as `expenses` creates it (made by importing a one-row file
  with the binary: the tables, the policy, the triggers that keep the monthly rollup, the
  search texts and the references), the same rows loaded the same way as `both`, by the
  owning role, into `expense` with all its triggers: what the server charges for what the
  store guarantees, before any client code. (An import also adds `expense_id_run` rows and
  analyzes the table at its end: 0.2 s on a million rows, left out here.)

The rows are the generated CSV's (`Benchmarks/generate.py`), each with a key made as
`ExpenseKey` lays it out (the day in the top bits, 43 bits of a hash below), in key order as
the import writes them. When the binary exists, `expenses import` of the CSV (as
`postgres-import.py` runs it: an ordinary owning role, a new database) runs in the same loop.
Prints medians, the runs and each ratio to the reference. Python 3
standard library only.
"""

from __future__ import annotations

import csv as csvmodule
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import generate  # noqa: E402
from floor_rows import arguments, fresh, made_rows, script  # noqa: E402

# The private server of postgres-import.py, and its way of timing a process.
_postgres_import = script("postgres-import")
Server, pg_bin, run_timed = _postgres_import.Server, _postgres_import.pg_bin, _postgres_import.timed

COLUMNS = ("ledger_id bigint NOT NULL, key bigint NOT NULL, id bigint NOT NULL, date date NOT NULL, "
           "amount_minor bigint NOT NULL, currency text NOT NULL, description text NOT NULL, category text")
# The store's policy since its schema v8: the session's ledger read once per statement.
POLICY = ("CREATE POLICY ledger_scope ON expense USING (ledger_id = (SELECT NULLIF("
          "current_setting('expenses.ledger', true), '')::bigint) OR (SELECT current_setting('expenses.scope', true)) = 'all')")


def keyed_csv(source: str, target: str) -> int:
    """Writes the source CSV's rows with the columns the store keeps, in key order."""
    if fresh(target, source):
        with open(target, encoding="utf-8") as f:
            return sum(1 for _ in f)
    rows = made_rows(source)
    temporary = target + ".part"
    with open(temporary, "w", newline="", encoding="utf-8") as f:
        writer = csvmodule.writer(f, lineterminator="\n")
        for key, number, date, minor, description, category, _ in rows:
            writer.writerow((1, key, number, date, minor, "USD", description, category))
    os.replace(temporary, target)
    return len(rows)


def timed(cmd: list[str]) -> float:
    """Wall seconds of `cmd` (postgres-import.py's timing; exits on failure)."""
    return run_timed(cmd)[0]


def main() -> None:
    args = arguments(__doc__)
    rows = generate.parse_rows(args.rows)
    data = os.path.join(HERE, "data")
    csv = os.path.abspath(generate.ensure(data, rows, profile=args.profile))
    keyed = os.path.abspath(os.path.join(data, f"keyed-{generate.data_label(rows, args.profile)}.csv"))
    if keyed_csv(csv, keyed) != rows:
        sys.exit("keyed CSV: row count differs from the source")
    psql = os.path.join(pg_bin(), "psql")
    folder = tempfile.mkdtemp(prefix="expenses-pg-floor-")
    server = Server(folder)
    have_binary = os.path.exists(args.binary)
    names = ["reference", "columns", "key", "rls", "both"] + (["store", "ours"] if have_binary else [])
    times: dict[str, list[float]] = {name: [] for name in names}

    def base(user: str, name: str) -> list[str]:
        return [psql, "-h", server.socket, "-U", user, "-d", name, "-X", "-q", "-v", "ON_ERROR_STOP=1"]

    def count(name: str, table: str) -> int:
        out = subprocess.run(base("postgres", name) + ["-A", "-t", "-c", f"SELECT count(*) FROM {table}"],
                             check=True, capture_output=True, text=True).stdout
        return int(out.strip())

    def rls_table(name: str, key: bool) -> None:
        ddl = f"CREATE TABLE expense ({COLUMNS}{', PRIMARY KEY (ledger_id, key)' if key else ''})"
        for statement in (ddl, "ALTER TABLE expense ENABLE ROW LEVEL SECURITY",
                          "ALTER TABLE expense FORCE ROW LEVEL SECURITY", POLICY):
            subprocess.run(base(server.user, name) + ["-c", statement], check=True)
        refused = subprocess.run(base(server.user, name) + ["-c", f"\\copy expense FROM '{keyed}' (FORMAT csv)"],
                                 capture_output=True, text=True)
        if refused.returncode == 0 or "row-level security" not in refused.stderr:
            sys.exit(f"expected PostgreSQL to refuse COPY FROM under row-level security: {refused.stderr[:300]}")

    staged = (f"SET LOCAL expenses.ledger = '1';\n"
              f"CREATE TEMPORARY TABLE staging (LIKE expense) ON COMMIT DROP;\n"
              f"\\copy staging FROM '{keyed}' (FORMAT csv)\n"
              f"INSERT INTO expense SELECT * FROM staging;\n")
    script = os.path.join(folder, "staged.sql")
    with open(script, "w", encoding="utf-8") as f:
        f.write(staged)
    # The store's schema: ledger 1 and its import file 1 come from a one-row file dated before
    # every generated row (so no key is shared); the made rows name that file and follow its id.
    seed = os.path.join(folder, "seed.csv")
    with open(seed, "w", encoding="utf-8") as f:
        f.write("Date,Description,Amount\n1999-01-04,floor seed,-1.00\n")
    store_script = os.path.join(folder, "store.sql")
    with open(store_script, "w", encoding="utf-8") as f:
        f.write("SET LOCAL expenses.ledger = '1';\n"
                "CREATE TEMPORARY TABLE staging (LIKE expense INCLUDING DEFAULTS) ON COMMIT DROP;\n"
                f"\\copy staging (ledger_id, key, id, date, amount_minor, currency, description, category) "
                f"FROM '{keyed}' (FORMAT csv)\n"
                "INSERT INTO expense (ledger_id, key, id, date, amount_minor, currency, description, category, "
                "account, file_id, source_line, category_source)\n"
                "SELECT ledger_id, key, id + 1, date, amount_minor, currency, description, category, NULL, 1, id + 1, 1 "
                "FROM staging;\n")
    os.chmod(folder, 0o755)
    for path in (script, seed, store_script):
        os.chmod(path, 0o644)
    try:
        for _ in range(args.runs):
            name = server.new_database()
            subprocess.run(base("postgres", name) + ["-c", "CREATE TABLE plain (date date, description text, "
                                                     "amount numeric, category text)"], check=True)
            times["reference"].append(timed(base("postgres", name) + [
                "-c", f"\\copy plain FROM '{csv}' WITH (FORMAT csv, HEADER true)"]))
            assert count(name, "plain") == rows
            server.drop(name)

            for label, key in (("columns", ""), ("key", ", PRIMARY KEY (ledger_id, key)")):
                name = server.new_database()
                subprocess.run(base("postgres", name) + ["-c", f"CREATE TABLE expense ({COLUMNS}{key})"], check=True)
                times[label].append(timed(base("postgres", name) + [
                    "-c", f"\\copy expense FROM '{keyed}' (FORMAT csv)"]))
                assert count(name, "expense") == rows
                server.drop(name)

            for label, key in (("rls", False), ("both", True)):
                name = server.new_database()
                rls_table(name, key)
                times[label].append(timed(base(server.user, name) + ["-1", "-f", script]))
                assert count(name, "expense") == rows
                server.drop(name)

            if "store" in times:
                name = server.new_database()
                subprocess.run([args.binary, "import", seed, "--db", server.url(name), "--format", "json"],
                               check=True, capture_output=True)
                times["store"].append(timed(base(server.user, name) + ["-1", "-f", store_script]))
                assert count(name, "expense") == rows + 1
                server.drop(name)

            if "ours" in times:
                name = server.new_database()
                times["ours"].append(timed([args.binary, "import", csv, "--db", server.url(name), "--format", "json"]))
                assert count(name, "expense") == rows
                server.drop(name)
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)

    reference = statistics.median(times["reference"])
    print(f"{rows:,} rows, {args.runs} interleaved runs, {os.cpu_count()} cores")
    print("| load | median s | runs (s) | vs psql \\copy (plain) |")
    print("|---|---:|---|---:|")
    labels = {
        "reference": "psql \\copy, plain four-column table (the reference)",
        "columns": "\\copy into the expense columns, no key, no index, superuser",
        "key": "\\copy into the expense columns with only PRIMARY KEY (ledger_id, key), superuser",
        "rls": "row-level security, no index: \\copy into a temporary table, then INSERT … SELECT",
        "both": "row-level security and the primary key, the same way",
        "store": "the store's schema (its key, policy and triggers), the made rows loaded as `both`",
        "ours": "expenses import (the store: both indexes, the triggers, the parse)",
    }
    for label, text in labels.items():
        if label not in times:
            continue
        median = statistics.median(times[label])
        runs = ", ".join(f"{s:.2f}" for s in times[label])
        print(f"| {text} | {median:.2f} | {runs} | {median / reference:.2f}x |")
    both = statistics.median(times["both"])
    for label in ("store", "ours"):
        if label in times:
            print(f"{label} against the \"both\" floor: {statistics.median(times[label]) / both:.2f}x")
    if "store" in times and "ours" in times:
        print(f"ours against the store's floor: "
              f"{statistics.median(times['ours']) / statistics.median(times['store']):.2f}x")


if __name__ == "__main__":
    main()
