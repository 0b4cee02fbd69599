#!/usr/bin/env python3
"""`report --format json` of one month of a 1M-row database, against sqlite3 printing that month.

    python3 Benchmarks/report_json.py BINARY [--rows 1m] [--month 2026-07] [--runs 7]
                                      [--old OLD_BINARY] [--callgrind]

The database is Benchmarks/generate.py's CSV imported by BINARY (kept in Benchmarks/data while
the generator's stamp is unchanged; shared with list.py). The month of the generated 1M-row
file holds about 7,800 expenses (2.9 MB of JSON). Runs, interleaved RUNS times each:

- ours: `report --month M --format json` (the month's numbers, sections, trends and its
  expense rows, pretty-printed);
- the reference: `sqlite3 -json` printing the month's rows (the same columns, the month as one
  key range, newest first), i.e. the engine reading and printing the same rows;
- with --old, OLD_BINARY's report as well, after checking that both binaries print the same
  bytes.

Prints medians of wall time and of CPU time (user + system, from wait4; steadier than wall time
on a shared machine), each ratio to the reference, and peak RSS. With --callgrind it also counts
the instructions of one run of each under valgrind (a copy of each binary without debug info,
which valgrind 3.19 cannot read). Standard library only.
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import generate  # noqa: E402
from list import database  # noqa: E402


def key_range(month: str) -> tuple[int, int]:
    """The month's range of expense keys (`ExpenseKey`: day + 2^19 since 1970, shifted by 43)."""
    year, number = (int(part) for part in month.split("-"))
    first = datetime.date(year, number, 1)
    last = (first.replace(day=28) + datetime.timedelta(days=4)).replace(day=1) - datetime.timedelta(days=1)

    def day(d: datetime.date) -> int:
        return (d - datetime.date(1970, 1, 1)).days + (1 << 19)

    return day(first) << 43, (day(last) << 43) | ((1 << 43) - 1)


def run(cmd: list[str]) -> tuple[float, float, int, bytes]:
    """Wall time, CPU time, peak RSS (KiB) and output of one run."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, env={**os.environ, "NO_COLOR": "1"})
    assert proc.stdout is not None
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        sys.exit(f"{cmd[0]} failed with status {status}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, out


def instructions(cmd: list[str], folder: str) -> int:
    """Instructions of one run under callgrind."""
    out = os.path.join(folder, "callgrind.out")
    done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *cmd],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if not found:
        sys.exit(f"valgrind failed: {done.stderr[-500:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--rows", default="1m")
    parser.add_argument("--month", default="2026-07")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--old")
    parser.add_argument("--callgrind", action="store_true")
    args = parser.parse_args()

    db = database(args.binary, generate.parse_rows(args.rows))
    low, high = key_range(args.month)
    sql = ("SELECT e.id, e.date, e.amountMinor, e.currency, e.description, e.category, e.account, "
           "f.name AS sourceFile, e.sourceLine FROM expense e LEFT JOIN importFile f ON f.id = e.fileId "
           f"WHERE e.key BETWEEN {low} AND {high} ORDER BY e.key DESC")
    report = ["report", "--db", db, "--month", args.month, "--format", "json", "--today", "2026-11-24"]
    commands = {"report --format json": [args.binary, *report]}
    if args.old:
        commands["report --format json (old)"] = [args.old, *report]
    commands["sqlite3 -json, the month's rows"] = ["sqlite3", "-json", db, sql]

    if args.old:
        if run(commands["report --format json"])[3] != run(commands["report --format json (old)"])[3]:
            sys.exit("the two binaries print different reports")
    walls: dict[str, list[float]] = {name: [] for name in commands}
    cpus: dict[str, list[float]] = {name: [] for name in commands}
    peaks = dict.fromkeys(commands, 0)
    sizes = {}
    for _ in range(args.runs):
        for name, cmd in commands.items():
            wall, cpu, peak, out = run(cmd)
            walls[name].append(wall)
            cpus[name].append(cpu)
            peaks[name] = max(peaks[name], peak)
            sizes[name] = len(out)
    counts = {}
    if args.callgrind:
        with tempfile.TemporaryDirectory() as folder:
            for name, cmd in commands.items():
                program = cmd[0]
                if program != "sqlite3":
                    program = os.path.join(folder, f"bin-{len(counts)}")
                    subprocess.run(["objcopy", "--strip-debug", cmd[0], program], check=True)
                counts[name] = instructions([shutil.which(program) or program, *cmd[1:]], folder)

    reference = "sqlite3 -json, the month's rows"
    wall_ref = statistics.median(walls[reference])
    cpu_ref = statistics.median(cpus[reference])
    print(f"`report --month {args.month} --format json` on {args.rows} rows, {args.runs} interleaved runs")
    print()
    header = "| command | output | wall (ms) | ratio | CPU (ms) | ratio | peak RSS (MiB) |"
    rule = "|---|---:|---:|---:|---:|---:|---:|"
    if counts:
        header += " instructions (M) | ratio |"
        rule += "---:|---:|"
    print(header)
    print(rule)
    for name in commands:
        wall = statistics.median(walls[name])
        cpu = statistics.median(cpus[name])
        line = (f"| {name} | {sizes[name] / 1e6:.1f} MB | {wall * 1000:.1f} | {wall / wall_ref:.2f}x "
                f"| {cpu * 1000:.1f} | {cpu / cpu_ref:.2f}x | {peaks[name] / 1024:.1f} |")
        if counts:
            line += f" {counts[name] / 1e6:.0f} | {counts[name] / counts[reference]:.2f}x |"
        print(line)


if __name__ == "__main__":
    main()
