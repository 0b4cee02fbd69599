#!/usr/bin/env python3
"""Benchmarks of the `expenses` CLI against sqlite3 and hledger, on the same generated files.

    python3 Benchmarks/run.py                       # 10k, 100k, 1m rows, 5 runs each
    python3 Benchmarks/run.py --big                 # and 10m rows
    python3 Benchmarks/run.py --sizes 10k,1m --runs 3 --binary .build-bench/release/expenses
    python3 Benchmarks/run.py --smoke --binary .build/debug/expenses   # seconds; for the tests

Times whole processes (wall clock, median of --runs) and reads each run's peak RSS from
os.wait4. Prints a Markdown table (also written to Benchmarks/out/results.md) with the
machine it ran on and the exact command line. Needs only Python 3's standard library; the
reference tools come from `apt-get install -y sqlite3 hledger` (or `bash Benchmarks/setup.sh`)
and any comparison whose tool is missing is skipped with a line saying so.

Exit status: 0 when every measurement ran (a MISS is not a failure), 1 when our binary failed
or printed wrong counts, 2 for bad arguments or a missing binary.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import re
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import generate  # noqa: E402

REPORT_MONTH = "2026-10"
REPORT_TODAY = "2026-10-22"
INSTALL_HINT = "apt-get install -y sqlite3 hledger (or: bash Benchmarks/setup.sh)"
MIB = 1024.0


# --------------------------------------------------------------------------------------------
# Measuring one process


class Run:
    """One finished process: wall seconds, peak RSS in KiB, exit code, and its output files."""

    def __init__(self, cmd, seconds, rss_kib, rss_exact, code, stdout, stderr, killed):
        self.cmd = cmd
        self.seconds = seconds
        self.rss_kib = rss_kib
        self.rss_exact = rss_exact
        self.code = code
        self.stdout = stdout
        self.stderr = stderr
        self.killed = killed

    @property
    def ok(self) -> bool:
        return self.code == 0 and not self.killed


def _self_hwm_kib() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _read_status(pid: int) -> tuple[str, int] | None:
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
            data = f.read()
    except OSError:
        return None
    name = ""
    hwm = 0
    for line in data.split(b"\n"):
        if line.startswith(b"Name:"):
            name = line[5:].strip().decode("utf-8", "replace")
        elif line.startswith(b"VmHWM:"):
            hwm = int(line.split()[1])
    return name, hwm


def measure(cmd: list[str], stdin_path: str | None = None, keep_stdout: bool = False,
            timeout: float | None = None, cwd: str | None = None) -> Run:
    """Runs `cmd` once; wall time around spawn..wait4, and its peak RSS.

    ru_maxrss from wait4 is the child's own high-water mark, but Linux starts it at the RSS
    of the Python parent that spawned it (exec records the old address space's high-water
    mark). So when the reported value is not above our own high-water mark, the true figure
    is at most that, and we use VmHWM sampled from /proc/PID/status after exec instead."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    out = tempfile.TemporaryFile() if keep_stdout else subprocess.DEVNULL
    err = tempfile.TemporaryFile()
    comm = os.path.basename(cmd[0])[:15]
    parent_hwm = _self_hwm_kib()
    sampled = [0]
    done = threading.Event()
    killed = [False]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=stdin, stdout=out, stderr=err, cwd=cwd)
    pid = proc.pid

    def sample():
        delay = 0.0005
        while not done.is_set():
            st = _read_status(pid)
            if st is None:
                return
            name, hwm = st
            if name == comm and hwm > sampled[0]:
                sampled[0] = hwm
            done.wait(delay)
            delay = min(delay * 2, 0.005)

    def kill():
        if not done.wait(timeout):
            killed[0] = True
            try:
                os.kill(pid, 9)
            except OSError:
                pass

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    killer = threading.Thread(target=kill, daemon=True) if timeout else None
    if killer:
        killer.start()
    _, status, usage = os.wait4(pid, 0)
    t1 = time.perf_counter()
    done.set()
    proc.returncode = os.waitstatus_to_exitcode(status)
    sampler.join()
    if stdin_path:
        stdin.close()
    stdout_text = ""
    if keep_stdout:
        out.seek(0)
        stdout_text = out.read().decode("utf-8", "replace")
        out.close()
    err.seek(0)
    stderr_text = err.read().decode("utf-8", "replace")
    err.close()
    if usage.ru_maxrss > parent_hwm:
        rss, exact = usage.ru_maxrss, True
    elif sampled[0] > 0:
        rss, exact = sampled[0], True
    else:
        rss, exact = usage.ru_maxrss, False  # an upper bound: the process was too short to sample
    return Run(cmd, t1 - t0, rss, exact, proc.returncode, stdout_text, stderr_text, killed[0])


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


# --------------------------------------------------------------------------------------------
# Results


class Row:
    def __init__(self, operation, size, ours=None, reference="", ref=None, rss_kib=None,
                 rss_exact=True, target="", status="", ratio=None, note=""):
        self.operation = operation
        self.size = size
        self.ours = ours
        self.reference = reference
        self.ref = ref
        self.rss_kib = rss_kib
        self.rss_exact = rss_exact
        self.target = target
        self.status = status
        self.ratio = ratio if ratio is not None else (ours / ref if ours is not None and ref else None)
        self.note = note


def fmt_s(value: float | None) -> str:
    if value is None:
        return "—"
    if value < 0.1:
        return f"{value * 1000:.1f} ms"
    if value < 100:
        return f"{value:.3f}"
    return f"{value:.1f}"


def fmt_ratio(value: float | None) -> str:
    if value is None:
        return "—"
    if value < 0.01:
        return f"{value:.5f}"
    return f"{value:.3f}" if value < 10 else f"{value:.1f}"


def fmt_rss(kib: int | None, exact: bool = True) -> str:
    if kib is None:
        return "—"
    return f"{kib / MIB:.1f}" if exact else f"≤ {kib / MIB:.1f}"


def markdown_table(rows: list[Row]) -> str:
    head = ("| operation | size | ours median (s) | reference | reference median (s) | ratio ours/ref "
            "| our peak RSS (MiB) | target | result |")
    sep = "|---|---:|---:|---|---:|---:|---:|---|---|"
    lines = [head, sep]
    for r in rows:
        lines.append(
            f"| {r.operation} | {r.size} | {fmt_s(r.ours)} | {(r.reference or '—') + (f'; {r.note}' if r.note else '')} "
            f"| {fmt_s(r.ref)} "
            f"| {fmt_ratio(r.ratio)} | {fmt_rss(r.rss_kib, r.rss_exact)} | {r.target or '—'} | {r.status or '—'} |")
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# Machine


def machine_info(binary: str, tools: dict[str, str | None]) -> list[str]:
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = "unknown"
    try:
        with open("/proc/meminfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    mem = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
                    break
    except OSError:
        pass
    try:
        nproc = len(os.sched_getaffinity(0))
    except AttributeError:
        nproc = os.cpu_count()
    info = [
        f"- date: {_dt.datetime.now(_dt.timezone.utc).strftime('%Y-%m-%d %H:%M:%S UTC')}",
        f"- nproc: {nproc}; CPU: {cpu}; memory: {mem}",
        f"- OS: {platform.system()} {platform.release()} ({platform.machine()}); Python {platform.python_version()}",
        f"- binary: `{binary}` (built {_mtime(binary)})",
    ]
    try:
        load = os.getloadavg()
        info.append(f"- load average at the end (1/5/15 min): {load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f}"
                    " — other work on the machine skews wall times")
    except OSError:
        pass
    commit = _git_head()
    if commit:
        info.append(f"- checkout HEAD when run: {commit}")
    for name in ("sqlite3", "hledger"):
        path = tools.get(name)
        info.append(f"- {name}: {tool_version(name, path) if path else 'not installed'}")
    return info


def _mtime(path: str) -> str:
    try:
        stamp = os.stat(path).st_mtime
    except OSError:
        return "?"
    return _dt.datetime.fromtimestamp(stamp, _dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def _git_head() -> str | None:
    try:
        head = subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%h %s"], capture_output=True,
                              text=True, timeout=10)
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--", "Sources", "Package.swift"],
                               capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    if head.returncode != 0:
        return None
    text = head.stdout.strip()
    if dirty.returncode == 0 and dirty.stdout.strip():
        text += " (+ uncommitted changes under Sources/)"
    return text


def tool_version(name: str, path: str) -> str:
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=20).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return path
    first = out.splitlines()[0] if out else ""
    if name == "sqlite3":
        first = " ".join(first.split()[:2])
    return f"{first} ({path})"


# --------------------------------------------------------------------------------------------
# The benchmark


def parse_sizes(text: str) -> list[int]:
    sizes = []
    for part in text.split(","):
        if part.strip():
            sizes.append(generate.parse_rows(part))
    return sorted(set(sizes))


def month_window(month: str) -> tuple[str, str]:
    """First day of the month five months before `month`, and the last day of `month`."""
    y, m = (int(x) for x in month.split("-"))
    start_y, start_m = y, m - 5
    while start_m < 1:
        start_m += 12
        start_y -= 1
    nxt = _dt.date(y + (m == 12), m % 12 + 1, 1)
    last = nxt - _dt.timedelta(days=1)
    return f"{start_y:04d}-{start_m:02d}-01", last.isoformat()


def day_key(iso: str, last: bool = False) -> int:
    """The expense table's key bound for a day: the layout of Sources/ExpenseCore/ExpenseKey.swift
    (day << 43 | 43 bits of the fingerprint hash, the day biased by 2^19), repeated here."""
    day = (_dt.date.fromisoformat(iso) - _dt.date(1970, 1, 1)).days + (1 << 19)
    return (day << 43) | (((1 << 43) - 1) if last else 0)


def report_sql(month: str) -> str:
    """The report's numbers computed from the raw rows by sqlite3: per (currency, category,
    month) sums over the month and the three before it (the trailing average), read through the
    table's key range (its only access path by date), the first date per currency (a scan: the
    history start), and the budgets."""
    first, last = month_window(month)
    return (
        "SELECT currency, category, substr(date,1,7) AS month, "
        "SUM(CASE WHEN amountMinor<0 THEN -amountMinor ELSE 0 END), "
        "SUM(CASE WHEN amountMinor>0 THEN amountMinor ELSE 0 END), COUNT(*) "
        f"FROM expense WHERE key BETWEEN {day_key(first)} AND {day_key(last, True)} "
        "GROUP BY currency, category, month;\n"
        "SELECT currency, MIN(date) FROM expense GROUP BY currency;\n"
        "SELECT category, currency, month, amountMinor FROM budget;\n")


def remove_db(path: str) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        try:
            os.remove(path + suffix)
        except FileNotFoundError:
            pass


def hledger_files(work: str) -> tuple[str, str]:
    """A rules file for the generated CSV and a budget journal of `~ monthly` periodic
    transactions, one posting per category (hledger's `bal --budget` reads these as goals)."""
    rules = os.path.join(work, "expenses.rules")
    with open(rules, "w", encoding="utf-8") as f:
        f.write(
            "# hledger CSV rules for Benchmarks/generate.py output\n"
            "skip 1\n"
            "fields date, description, amount, category\n"
            "date-format %Y-%m-%d\n"
            "currency $\n"
            "account1 assets:checking\n"
            "account2 expenses:%category\n")
    journal = os.path.join(work, "budget.journal")
    with open(journal, "w", encoding="utf-8") as f:
        f.write("~ monthly\n")
        for name, amount in generate.budgets():
            f.write(f"    expenses:{name}    ${amount}.00\n")
        f.write("    assets:checking\n")
    return rules, journal


class Bench:
    def __init__(self, args):
        self.args = args
        self.rows: list[Row] = []
        self.notes: list[str] = []
        self.checks: list[str] = []
        self.failures: list[str] = []
        self.binary = args.binary
        self.tools = {name: shutil.which(name) for name in ("sqlite3", "hledger")}
        self.sqlite3 = self.tools["sqlite3"]
        self.hledger = self.tools["hledger"]
        if args.no_hledger:
            self.hledger = None

    # -- helpers

    def log(self, text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    def ours(self, *argv: str, db: str | None = None, keep_stdout=False, timeout=None) -> Run:
        cmd = [self.binary] + (["--db", db] if db else []) + list(argv)
        run = measure(cmd, keep_stdout=keep_stdout, timeout=timeout)
        if not run.ok:
            msg = (f"`{shlex.join(cmd)}` exited {run.code}{' (killed)' if run.killed else ''}: "
                   f"{run.stderr.strip()[-600:]}")
            self.failures.append(msg)
            self.log("FAILED: " + msg)
        return run

    def runs_for(self, rows: int) -> int:
        if rows >= 10_000_000:
            return max(1, min(self.args.runs, self.args.big_runs))
        return self.args.runs

    def status(self, ok: bool | None) -> str:
        return "—" if ok is None else ("PASS" if ok else "MISS")

    def sql_scalar(self, db: str, sql: str) -> str | None:
        if not self.sqlite3:
            return None
        done = subprocess.run([self.sqlite3, "-readonly", db, sql], capture_output=True, text=True)
        return done.stdout.strip() if done.returncode == 0 else None

    # -- the parts

    def bench_startup(self, work: str) -> None:
        runs = max(self.args.runs, 5) if not self.args.smoke else 3
        self.ours("--help")  # warm the page cache
        times, rss = [], []
        for _ in range(runs):
            r = self.ours("--help")
            if not r.ok:
                return
            times.append(r.seconds)
            rss.append(r)
        med = median(times)
        peak = max(rss, key=lambda r: r.rss_kib)
        self.rows.append(Row("`expenses --help`", "—", med, rss_kib=peak.rss_kib, rss_exact=peak.rss_exact,
                             target="< 30 ms", status=self.status(med < 0.030)))
        empty = os.path.join(work, "empty.sqlite")
        remove_db(empty)
        # Reading commands refuse a missing database (exit 66): a write creates it, empty.
        created = self.ours("sections", "reset", db=empty)
        if not created.ok:
            return
        first = self.ours("report", "--month", REPORT_MONTH, "--today", REPORT_TODAY, "--format", "json",
                          db=empty, keep_stdout=True)
        if not first.ok:
            return
        self.notes.append(f"First `report` on a new empty database: {fmt_s(first.seconds)}.")
        times, rss = [], []
        for _ in range(runs):
            r = self.ours("report", "--month", REPORT_MONTH, "--today", REPORT_TODAY, "--format", "json", db=empty)
            if not r.ok:
                return
            times.append(r.seconds)
            rss.append(r)
        med = median(times)
        peak = max(rss, key=lambda r: r.rss_kib)
        self.rows.append(Row("`report --format json`, empty database", "0", med, rss_kib=peak.rss_kib,
                             rss_exact=peak.rss_exact, target="< 30 ms", status=self.status(med < 0.030)))

    def bench_import(self, rows: int, csv: str, work: str) -> tuple[str | None, float | None]:
        """First import into a new database (vs sqlite3 .import) and the all-duplicates
        re-import. Returns the populated database and our first-import median."""
        label = generate.size_label(rows)
        db = os.path.join(work, f"expenses-{label}.sqlite")
        ref_db = os.path.join(work, f"sqlite-import-{label}.sqlite")
        script = os.path.join(work, f"sqlite-import-{label}.sql")
        with open(script, "w", encoding="utf-8") as f:
            f.write("CREATE TABLE raw(Date TEXT, Description TEXT, Amount TEXT, Category TEXT);\n"
                    "BEGIN;\n"
                    f".import --csv --skip 1 '{csv}' raw\n"
                    "COMMIT;\n")
        big = rows >= 1_000_000
        runs = self.runs_for(rows)
        ours_t, ours_r, ref_t = [], [], []
        self.log(f"import {label}: {runs} run(s)")
        for i in range(runs):
            remove_db(db)
            r = self.ours("import", csv, "--format", "json", db=db, keep_stdout=True)
            if not r.ok:
                return None, None
            ours_t.append(r.seconds)
            ours_r.append(r)
            if i == 0:
                self.check_import_summary(label, r.stdout, new=rows, duplicates=0)
            if self.sqlite3:
                remove_db(ref_db)
                s = measure([self.sqlite3, ref_db], stdin_path=script)
                if not s.ok:
                    self.notes.append(f"sqlite3 .import failed at {label}: {s.stderr.strip()[:300]}")
                else:
                    ref_t.append(s.seconds)
        if self.sqlite3:
            n = self.sql_scalar(ref_db, "SELECT COUNT(*) FROM raw")
            if n is not None and int(n) != rows:
                self.notes.append(f"sqlite3 .import stored {n} rows of {rows} at {label}")
            remove_db(ref_db)
        med = median(ours_t)
        peak = max(ours_r, key=lambda r: r.rss_kib)
        ref = median(ref_t)
        rss_ok = peak.rss_kib <= 48 * 1024
        if big:
            ok = rss_ok and (ref is None or med <= 0.6 * ref)
            status = self.status(ok) if ref is not None else ("PASS (RSS only)" if rss_ok else "MISS")
        else:
            status = "—"
        self.rows.append(Row(
            "`import` into a new database", label, med,
            reference="sqlite3 `.import --csv` in one transaction" if self.sqlite3 else "skipped: sqlite3 not installed",
            ref=ref, rss_kib=peak.rss_kib, rss_exact=peak.rss_exact,
            target="≤ 0.6×, ≤ 48 MiB" if big else "(1M+: ≤ 0.6×, ≤ 48 MiB)", status=status))
        self.check_count(label, db, rows)
        # The file's size after the import (WAL folded in), against the CSV's.
        if self.sqlite3:
            subprocess.run([self.sqlite3, db, "PRAGMA wal_checkpoint(TRUNCATE);"], capture_output=True)
        size = sum(os.path.getsize(p) for p in (db, db + "-wal") if os.path.exists(p))
        csv_size = os.path.getsize(csv)
        self.rows.append(Row(
            "database size after the import (bytes)", label, None, reference=f"the CSV, {csv_size:,} bytes",
            ratio=size / csv_size, target="≤ 0.75× the CSV" if big else "(1M+: ≤ 0.75×)",
            status=self.status(size <= 0.75 * csv_size) if big else "—", note=f"{size:,} bytes"))

        # Re-import: every row a duplicate; sqlite3's .import again, interleaved, as the reference.
        re_t, re_r, re_ref = [], [], []
        for i in range(runs):
            r = self.ours("import", csv, "--format", "json", db=db, keep_stdout=True)
            if not r.ok:
                return db, med
            re_t.append(r.seconds)
            re_r.append(r)
            if i == 0:
                self.check_import_summary(label + " re-import", r.stdout, new=0, duplicates=rows)
            if self.sqlite3:
                remove_db(ref_db)
                s = measure([self.sqlite3, ref_db], stdin_path=script)
                if s.ok:
                    re_ref.append(s.seconds)
        if self.sqlite3:
            remove_db(ref_db)
        re_med = median(re_t)
        peak = max(re_r, key=lambda r: r.rss_kib)
        re_ref_med = median(re_ref)
        ratio = re_med / re_ref_med if re_ref_med else None
        self.rows.append(Row(
            "re-`import` of the same file (all duplicates)", label, re_med,
            reference="sqlite3 `.import --csv` in one transaction" if self.sqlite3 else "skipped: sqlite3 not installed",
            ref=re_ref_med, rss_kib=peak.rss_kib, rss_exact=peak.rss_exact, target="≤ 0.3×",
            status=self.status(ratio <= 0.3) if big and ratio is not None else "—",
            note=f"{re_med / med:.3f}× our first import" if med else ""))
        self.check_count(label + " after re-import", db, rows)
        return db, med

    def set_budgets(self, db: str) -> bool:
        for name, amount in generate.budgets():
            r = self.ours("budget", "set", name, f"{amount}", db=db)
            if not r.ok:
                return False
        return True

    def bench_report(self, rows: int, db: str, work: str) -> float | None:
        label = generate.size_label(rows)
        if not self.set_budgets(db):
            return None
        sql_path = os.path.join(work, "report.sql")
        with open(sql_path, "w", encoding="utf-8") as f:
            f.write(report_sql(REPORT_MONTH))
        runs = self.runs_for(rows)
        json_args = ("report", "--month", REPORT_MONTH, "--today", REPORT_TODAY, "--format", "json")
        text_args = ("report", "--month", REPORT_MONTH, "--today", REPORT_TODAY, "--width", "100")
        warm = self.ours(*json_args, db=db, keep_stdout=True)  # warm-up, and the output we check
        if not warm.ok:
            return None
        self.check_report(label, db, warm.stdout)
        if not self.ours(*text_args, db=db).ok:
            return None
        if self.sqlite3:
            measure([self.sqlite3, "-readonly", db], stdin_path=sql_path)
        times = {"json": ([], []), "text": ([], [])}
        ref_t = []
        self.log(f"report {label}: {runs} run(s)")
        for _ in range(runs):
            for kind, args in (("text", text_args), ("json", json_args)):
                r = self.ours(*args, db=db)
                if not r.ok:
                    return None
                times[kind][0].append(r.seconds)
                times[kind][1].append(r)
            if self.sqlite3:
                s = measure([self.sqlite3, "-readonly", db], stdin_path=sql_path)
                if s.ok:
                    ref_t.append(s.seconds)
        ref = median(ref_t)
        big = rows >= 1_000_000
        for kind, args in (("text", text_args), ("json", json_args)):
            med = median(times[kind][0])
            peak = max(times[kind][1], key=lambda r: r.rss_kib)
            self.rows.append(Row(
                f"`{' '.join(a for a in args if a not in ('--today', REPORT_TODAY))}`", label, med,
                reference="sqlite3 process, same aggregate SQL" if self.sqlite3 else "skipped: sqlite3 not installed",
                ref=ref, rss_kib=peak.rss_kib, rss_exact=peak.rss_exact,
                target="≤ 0.5×" if big else "(1M+: ≤ 0.5×)",
                status=self.status(med <= 0.5 * ref) if big and ref else "—"))
        return median(times["text"][0])

    def bench_hledger(self, sizes: list[int], work: str, template: str) -> None:
        if not self.hledger:
            why = "--no-hledger" if self.args.no_hledger else "hledger not installed"
            self.rows.append(Row("CSV → budget report, vs hledger", "—", reference=f"skipped: {why}",
                                 target="≥ 100× faster", status="skipped"))
            return
        rules, journal = hledger_files(work)
        limit = self.args.hledger_limit
        results = []
        for rows in sizes:
            label = generate.size_label(rows)
            csv = generate.ensure(self.args.data, rows, profile=self.args.profile)
            runs = self.runs_for(rows)
            if self.args.hledger_runs:
                runs = min(runs, self.args.hledger_runs)
            h_t, o_t, o_r = [], [], []
            stop = False
            self.log(f"hledger {label}: up to {runs} run(s), stop past {limit:.0f} s")
            for _ in range(runs):
                # Ours: a fresh copy of a database holding only the budgets, then import + report.
                db = os.path.join(work, f"hledger-ours-{label}.sqlite")
                remove_db(db)
                for suffix in ("", "-wal"):
                    if os.path.exists(template + suffix):
                        shutil.copyfile(template + suffix, db + suffix)
                a = self.ours("import", csv, "--format", "json", db=db)
                b = self.ours("report", "--month", REPORT_MONTH, "--today", REPORT_TODAY, "--format", "json",
                              db=db)
                if not (a.ok and b.ok):
                    return
                o_t.append(a.seconds + b.seconds)
                o_r.append(max(a.rss_kib, b.rss_kib))
                h = measure([self.hledger, "-f", csv, "--rules-file", rules, "-f", journal, "bal", "--budget",
                             "-p", REPORT_MONTH, "expenses"], keep_stdout=True, timeout=self.args.hledger_timeout)
                if h.killed:
                    self.notes.append(f"hledger at {label} was stopped after {h.seconds:.0f} s (--hledger-timeout).")
                    h_t.append(h.seconds)
                    stop = True
                    break
                if not h.ok:
                    self.notes.append(f"hledger failed at {label}: {h.stderr.strip()[:300]}")
                    stop = True
                    break
                h_t.append(h.seconds)
                if not results and len(h_t) == 1:
                    self.check_hledger(label, db, h.stdout)
                if h.seconds > limit:
                    stop = True
                    break
            remove_db(os.path.join(work, f"hledger-ours-{label}.sqlite"))
            if h_t and o_t:
                results.append((rows, median(o_t), median(h_t), max(o_r), len(h_t), h_t[-1] if stop else None))
            if stop:
                break
        if not results:
            return
        reached = results[-1][0]
        target_at = reached if reached < 1_000_000 else 1_000_000
        for rows, ours, ref, rss, n, _ in results:
            label = generate.size_label(rows)
            speedup = ref / ours
            applies = rows == target_at or (rows == reached and reached < 1_000_000)
            self.rows.append(Row(
                "CSV → budget report for one month (our import + report)", label, ours,
                reference=f"hledger `bal --budget` ({n} run{'s' if n > 1 else ''})", ref=ref, rss_kib=rss,
                target="≥ 100× faster (ratio ≤ 0.01)" if applies else "(at the largest size: ≥ 100×)",
                status=self.status(speedup >= 100) if applies else "—"))
            self.notes.append(f"hledger/ours at {label}: {speedup:.1f}× (hledger median {fmt_s(ref)} s).")
        self.notes.append(
            f"hledger reached {generate.size_label(reached)} rows"
            + (f" (a run took over {limit:.0f} s there, so larger sizes were not tried)."
               if results[-1][5] is not None else " (every size asked for)."))

    # -- correctness checks

    def check_import_summary(self, label: str, stdout: str, new: int, duplicates: int) -> None:
        try:
            data = json.loads(stdout)
        except ValueError:
            self.failures.append(f"import {label}: --format json printed no JSON: {stdout[:200]!r}")
            return
        got = (data.get("new"), data.get("duplicates"), data.get("rejected"), data.get("excluded"))
        if got[0] != new or got[1] != duplicates or (got[2] or 0) != 0 or (got[3] or 0) != 0:
            self.failures.append(f"import {label}: summary new/duplicates/rejected/excluded = {got}, "
                                 f"expected ({new}, {duplicates}, 0, 0)")
        else:
            self.checks.append(f"import {label}: summary says {new} new, {duplicates} duplicates — OK")

    def check_count(self, label: str, db: str, rows: int) -> None:
        n = self.sql_scalar(db, "SELECT COUNT(*) FROM expense")
        if n is not None:
            if int(n) != rows:
                self.failures.append(f"{label}: the database holds {n} expenses, expected {rows}")
            else:
                self.checks.append(f"{label}: `SELECT COUNT(*) FROM expense` = {rows} — OK")
        if rows <= 100_000 and "after" not in label:
            r = self.ours("list", "--format", "json", db=db, keep_stdout=True)
            if r.ok:
                try:
                    count = len(json.loads(r.stdout))
                except ValueError:
                    self.failures.append(f"{label}: `list --format json` printed no JSON")
                    return
                if count != rows:
                    self.failures.append(f"{label}: `list --format json` has {count} items, expected {rows}")
                else:
                    self.checks.append(f"{label}: `list --format json` has {rows} items — OK")

    def check_report(self, label: str, db: str, stdout: str) -> None:
        """The report's spent per category for the month equals a direct SQL sum."""
        try:
            data = json.loads(stdout)
        except ValueError:
            self.failures.append(f"report {label}: --format json printed no JSON: {stdout[:200]!r}")
            return
        spent = report_spent(data)
        if spent is None:
            self.notes.append(f"report {label}: could not find per-category spent amounts in the JSON to check")
            return
        if not self.sqlite3:
            return
        first = REPORT_MONTH + "-01"
        last = month_window(REPORT_MONTH)[1]
        out = self.sql_scalar(db, (
            "SELECT COALESCE(category,''), SUM(CASE WHEN amountMinor<0 THEN -amountMinor ELSE 0 END), "
            "SUM(CASE WHEN amountMinor>0 THEN amountMinor ELSE 0 END) FROM expense "
            f"WHERE date >= '{first}' AND date <= '{last}' GROUP BY category"))
        if out is None:
            return
        direct = {}
        for line in out.splitlines():
            cat, out_minor, in_minor = line.rsplit("|", 2)
            direct[cat] = (int(out_minor), int(in_minor))
        mismatches = []
        for cat, (out_minor, in_minor) in direct.items():
            got = spent.get(cat)
            if got is None:
                mismatches.append(f"{cat}: missing")
            elif got not in (out_minor, out_minor - in_minor):
                mismatches.append(f"{cat}: report {got}, SQL out {out_minor} / net {out_minor - in_minor}")
        if mismatches:
            self.failures.append(f"report {label}: spent differs from SQL for {len(mismatches)} categories: "
                                 + "; ".join(mismatches[:5]))
        else:
            self.checks.append(f"report {label}: spent of all {len(direct)} categories in {REPORT_MONTH} "
                               "equals the direct SQL sum — OK")

    def check_hledger(self, label: str, db: str, stdout: str) -> None:
        """hledger's Groceries total for the month equals our database's net sum."""
        m = re.search(r"expenses:Groceries\s*\|\|\s*\$?(-?[\d,]+(?:\.\d+)?)", stdout)
        if not m:
            self.notes.append(f"hledger {label}: no Groceries line found to cross-check")
            return
        hledger_minor = round(float(m.group(1).replace(",", "")) * 100)
        out = self.sql_scalar(db, (
            "SELECT -SUM(amountMinor) FROM expense WHERE category='Groceries' AND date >= "
            f"'{REPORT_MONTH}-01' AND date <= '{month_window(REPORT_MONTH)[1]}'"))
        if out is None:
            return
        if int(out) == hledger_minor:
            self.checks.append(f"hledger {label}: Groceries {REPORT_MONTH} net {hledger_minor / 100:.2f} "
                               "equals our database's — OK")
        else:
            self.notes.append(f"hledger {label}: Groceries net {hledger_minor} vs ours {out} (minor units)")


def report_spent(data) -> dict[str, int] | None:
    """Finds {category: spent minor units} in the report JSON, whatever its nesting: the first
    list of objects that have a category name and a spent amount."""
    found: dict[str, int] = {}

    def minor(value):
        if isinstance(value, dict):
            for key in ("minor", "amountMinor", "minorUnits"):
                if isinstance(value.get(key), int):
                    return value[key]
            for key in ("amount", "value"):
                if key in value:
                    return minor(value[key])
            return None
        if isinstance(value, bool):
            return None
        if isinstance(value, int):
            return value
        if isinstance(value, str):
            try:
                return round(float(value.replace(",", "")) * 100)
            except ValueError:
                return None
        if isinstance(value, float):
            return round(value * 100)
        return None

    def walk(node):
        if isinstance(node, list):
            if node and all(isinstance(x, dict) for x in node):
                hits = {}
                for x in node:
                    name = x.get("category", x.get("name"))
                    if isinstance(name, dict):
                        name = name.get("name")
                    spent = None
                    for key in ("spentMinor", "spent"):
                        if key in x:
                            spent = minor(x[key])
                            break
                    if isinstance(name, str) and spent is not None:
                        hits[name] = spent
                if hits and not found:
                    found.update(hits)
                    return
            for x in node:
                walk(x)
        elif isinstance(node, dict):
            for v in node.values():
                walk(v)

    walk(data)
    return found or None


# --------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Benchmarks of the expenses CLI (see the module doc).")
    parser.add_argument("--sizes", help="row counts, e.g. 10k,100k,1m (default 10k,100k,1m; 10m too with --big)")
    parser.add_argument("--big", action="store_true", help="add 10m rows to the default sizes")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per measurement (default 5)")
    parser.add_argument("--big-runs", type=int, default=3, help="at most this many runs at 10m rows (default 3)")
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "expenses"),
                        help="the expenses binary (default .build/release/expenses)")
    parser.add_argument("--smoke", action="store_true",
                        help="10k rows, 1 run, in a temporary directory: finishes in seconds")
    parser.add_argument("--data", default=os.path.join(HERE, "data"), help="generated CSVs (default Benchmarks/data)")
    parser.add_argument("--out", default=os.path.join(HERE, "out"), help="results directory (default Benchmarks/out)")
    parser.add_argument("--no-hledger", action="store_true", help="skip the hledger comparison")
    parser.add_argument("--hledger-runs", type=int, default=0,
                        help="at most this many runs per size for the hledger comparison (default: --runs)")
    parser.add_argument("--hledger-limit", type=float, default=120.0,
                        help="stop growing hledger's size after a run slower than this (s, default 120)")
    parser.add_argument("--hledger-timeout", type=float, default=900.0,
                        help="kill one hledger run after this many seconds (default 900)")
    generate.add_profile_argument(parser)
    args = parser.parse_args(argv)
    command = "python3 Benchmarks/run.py" + ("" if not sys.argv[1:] else " " + shlex.join(sys.argv[1:]))

    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.smoke:
        sizes = [10_000]
        args.runs = 1
    elif args.sizes:
        try:
            sizes = parse_sizes(args.sizes)
        except (ValueError, argparse.ArgumentTypeError) as e:
            parser.error(f"--sizes: {e}")
        if args.big and 10_000_000 not in sizes:
            sizes.append(10_000_000)
    else:
        sizes = [10_000, 100_000, 1_000_000] + ([10_000_000] if args.big else [])
    args.binary = os.path.abspath(args.binary)
    if not (os.path.isfile(args.binary) and os.access(args.binary, os.X_OK)):
        print(f"error: no executable at {args.binary}; build it with\n"
              "  swift build -c release --static-swift-stdlib --product expenses   (or bash Benchmarks/setup.sh)\n"
              "or pass --binary PATH", file=sys.stderr)
        return 2

    tmp = None
    if args.smoke:
        tmp = tempfile.mkdtemp(prefix="expenses-bench-")
        args.data = os.path.join(tmp, "data")
        work = os.path.join(tmp, "work")
    else:
        work = os.path.join(args.data, "work")
    os.makedirs(work, exist_ok=True)
    os.makedirs(args.data, exist_ok=True)

    bench = Bench(args)
    for name in ("sqlite3", "hledger"):
        if not bench.tools[name]:
            print(f"skipped: {name} not installed — install with: {INSTALL_HINT}", file=sys.stderr)
    try:
        run_all(bench, sizes, work)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)

    text = render(bench, sizes, command)
    print(text)
    out_name = "results-smoke.md" if args.smoke else "results.md"
    try:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, out_name), "w", encoding="utf-8") as f:
            f.write(text + "\n")
    except OSError as e:
        print(f"warning: could not write {out_name}: {e}", file=sys.stderr)
    return 1 if bench.failures else 0


def run_all(bench: Bench, sizes: list[int], work: str) -> None:
    args = bench.args
    bench.bench_startup(work)
    import_medians: dict[int, float] = {}
    report_medians: dict[int, float] = {}
    for rows in sizes:
        csv = generate.ensure(args.data, rows, profile=args.profile)
        db, med = bench.bench_import(rows, csv, work)
        if med is not None:
            import_medians[rows] = med
        if db is None:
            continue
        rep = bench.bench_report(rows, db, work)
        if rep is not None:
            report_medians[rows] = rep
    if 1_000_000 in report_medians and 10_000_000 in report_medians:
        a, b = report_medians[1_000_000], report_medians[10_000_000]
        bench.rows.append(Row("text `report` 10m vs `report` 1m", "10m / 1m", b, reference="our report at 1m",
                              ref=a, target="≤ 1.1×", status=bench.status(b <= 1.1 * a)))
    # hledger: grow the size from the smallest until one run is slower than --hledger-limit.
    template = os.path.join(work, "budgets-only.sqlite")
    remove_db(template)
    if bench.hledger:
        if not bench.set_budgets(template):
            return
        # Fold any WAL into the main file so a plain copy is a whole database.
        if bench.sqlite3:
            subprocess.run([bench.sqlite3, template, "PRAGMA wal_checkpoint(TRUNCATE);"], capture_output=True)
    ladder = sizes if not args.smoke else [10_000]
    bench.bench_hledger(ladder, work, template)


def render(bench: Bench, sizes: list[int], command: str) -> str:
    parts = ["## Benchmark results", "", "Command:", "", "```", command, "```", "", "Machine:", ""]
    parts += machine_info(bench.binary, bench.tools)
    parts += ["", f"Sizes: {', '.join(generate.size_label(s) for s in sizes)} rows "
              f"(`generate.py --profile {bench.args.profile}`); runs per figure: "
              f"{bench.args.runs}" + (f" ({bench.args.big_runs} at 10m)" if 10_000_000 in sizes else "")
              + f"; report month {REPORT_MONTH}, --today {REPORT_TODAY}.", ""]
    parts.append(markdown_table(bench.rows))
    parts.append("")
    parts.append("Times are wall-clock medians of whole processes (spawn to exit); ratio = ours / reference; "
                 "peak RSS is the largest ru_maxrss of our runs (wait4). Targets apply at 1M rows and up; "
                 "smaller sizes are shown for information.")
    for name in ("sqlite3", "hledger"):
        if not bench.tools[name]:
            parts.append(f"\nskipped: {name} not installed ({INSTALL_HINT})")
    if bench.notes:
        parts += ["", "Notes:", ""] + [f"- {n}" for n in bench.notes]
    if bench.checks:
        parts += ["", "Checks:", ""] + [f"- {c}" for c in bench.checks]
    if bench.failures:
        parts += ["", "FAILURES:", ""] + [f"- {f}" for f in bench.failures]
    return "\n".join(parts)


if __name__ == "__main__":
    sys.exit(main())
