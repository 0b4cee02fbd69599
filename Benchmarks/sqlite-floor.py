#!/usr/bin/env python3
"""The floor under an import into SQLite: the rows alone, inserted by C, against sqlite3's .import.

    python3 Benchmarks/sqlite-floor.py [--rows 1m] [--runs 5] [--binary .build-rel/release/expenses]

`Benchmarks/floor/sqlite-insert.c` (built here with the system's gcc and libsqlite3) inserts
the generated CSV's rows already made as the store keeps them (v6's narrow `expenseRow`: the
key, the id, the amount, the currency, description and category ids, the source line), in key
order, with the store's settings and its 256-row prepared INSERTs in one transaction, and does
nothing else: no parsing, no fingerprint, no dictionary, no rollup, no duplicate check. So
whatever an import does on top, it cannot take less time than this on one SQLite connection.

Interleaved in each run, each into a new file: sqlite3's `.import --csv` of the CSV in one
transaction (the reference of the import goals, as `compare-import.py` runs it), the C floor,
and, when the binary exists, `expenses import`. Prints medians of wall time and CPU seconds
(user + system) with their ratios to sqlite3. Python 3 standard library only.
"""

from __future__ import annotations

import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import generate  # noqa: E402
from floor_rows import arguments, fresh, made_rows, script  # noqa: E402

# compare-import.py's way of timing a process.
timed = script("compare-import").timed


def rows_file(source: str, target: str) -> int:
    """Writes the source CSV's rows as the C program reads them (seven int64 each, key order)."""
    if fresh(target, source):
        return os.path.getsize(target) // 56
    descriptions: dict[str, int] = {}
    categories: dict[str, int] = {}
    packer = struct.Struct("<7q")
    rows = made_rows(source)
    temporary = target + ".part"
    with open(temporary, "wb") as f:
        for key, number, _, minor, description, category, line in rows:
            description_id = descriptions.setdefault(description, len(descriptions) + 1)
            category_id = categories.setdefault(category, len(categories) + 1)
            f.write(packer.pack(key, number, minor, 1, description_id, category_id, line))
    os.replace(temporary, target)
    return len(rows)


def main() -> None:
    args = arguments(__doc__)
    sqlite3 = shutil.which("sqlite3")
    gcc = shutil.which("gcc")
    if not sqlite3 or not gcc or not os.path.exists("/usr/include/sqlite3.h"):
        sys.exit("needs sqlite3, gcc and libsqlite3-dev (bash Benchmarks/setup.sh installs them)")
    rows = generate.parse_rows(args.rows)
    data = os.path.join(HERE, "data")
    csv = os.path.abspath(generate.ensure(data, rows, profile=args.profile))
    binary_rows = os.path.join(data, f"rows-{generate.data_label(rows, args.profile)}.bin")
    if rows_file(csv, binary_rows) != rows:
        sys.exit("rows file: row count differs from the CSV")
    out = os.path.join(HERE, "out")
    os.makedirs(out, exist_ok=True)
    floor = os.path.join(out, "sqlite-insert")
    subprocess.run([gcc, "-O2", "-o", floor, os.path.join(HERE, "floor", "sqlite-insert.c"), "-lsqlite3"],
                   check=True)
    folder = tempfile.mkdtemp(prefix="expenses-sqlite-floor-")
    script = os.path.join(folder, "import.sql")
    with open(script, "w", encoding="utf-8") as f:
        f.write("CREATE TABLE raw(Date TEXT, Description TEXT, Amount TEXT, Category TEXT);\n"
                f"BEGIN;\n.import --csv --skip 1 '{csv}' raw\nCOMMIT;\n")
    names = ["sqlite3 .import", "C floor: the rows alone"]
    if os.path.exists(args.binary):
        names.append("expenses import")
    results: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
    inserts: list[float] = []
    try:
        for number in range(args.runs):
            for name in names:
                db = os.path.join(folder, f"{number}-{len(results[name])}-{name.split()[0]}.sqlite")
                if name == "sqlite3 .import":
                    wall, _, _, cpu = timed([sqlite3, db, f".read {script}"])
                elif name.startswith("C floor"):
                    wall, _, printed, cpu = timed([floor, binary_rows, db])
                    inserts.append(float(printed.strip()))
                else:
                    wall, _, _, cpu = timed([args.binary, "import", csv, "--db", db, "--format", "json"])
                results[name].append((wall, cpu))
                for suffix in ("", "-wal", "-shm"):
                    if os.path.exists(db + suffix):
                        os.remove(db + suffix)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    reference_wall = statistics.median(w for w, _ in results["sqlite3 .import"])
    reference_cpu = statistics.median(c for _, c in results["sqlite3 .import"])
    print(f"{rows:,} rows, {args.runs} interleaved runs, {os.cpu_count()} cores")
    print("| import by | wall median s | runs (s) | vs sqlite3 | CPU median s | vs sqlite3 |")
    print("|---|---:|---|---:|---:|---:|")
    for name in names:
        wall = statistics.median(w for w, _ in results[name])
        cpu = statistics.median(c for _, c in results[name])
        runs = ", ".join(f"{w:.2f}" for w, _ in results[name])
        print(f"| {name} | {wall:.3f} | {runs} | {wall / reference_wall:.2f}x | {cpu:.2f} | "
              f"{cpu / reference_cpu:.2f}x |")
    print(f"the C floor's insert alone (its own clock, without reading the rows): median "
          f"{statistics.median(inserts):.3f} s = {statistics.median(inserts) / reference_wall:.2f}x sqlite3's wall")


if __name__ == "__main__":
    main()
