#!/usr/bin/env python3
"""The same transactions as CSV, OFX and CAMT.053, imported side by side.

    python3 Benchmarks/statements.py BINARY [--rows 100k] [--runs 3]

Writes Benchmarks/data/statements-N.{csv,ofx,xml} from Benchmarks/generate.py's CSV (the OFX
with a FITID per transaction, the CAMT.053 with one booked Ntry per transaction), imports each
into a new database with BINARY, interleaved per run, and prints the medians of time, rows per
second and peak RSS, with each format's ratio to CSV. Each import's row count is checked.
Standard library only.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from xml.sax.saxutils import escape

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import generate  # noqa: E402


def read_rows(path: str):
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        next(reader)
        for date, description, amount, _category in reader:
            yield date, description, amount


def write_ofx(src: str, dst: str) -> None:
    with open(dst, "w", encoding="utf-8", newline="\r\n") as out:
        out.write("OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nSECURITY:NONE\nENCODING:UTF-8\nCHARSET:NONE\n"
                  "COMPRESSION:NONE\nOLDFILEUID:NONE\nNEWFILEUID:NONE\n\n")
        out.write("<OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STMTRS><CURDEF>USD\n"
                  "<BANKACCTFROM><BANKID>121000248<ACCTID>000123456789<ACCTTYPE>CHECKING</BANKACCTFROM>\n"
                  "<BANKTRANLIST><DTSTART>20160101<DTEND>20261231\n")
        for n, (date, description, amount) in enumerate(read_rows(src), 1):
            kind = "DEBIT" if amount.startswith("-") else "CREDIT"
            out.write(f"<STMTTRN><TRNTYPE>{kind}<DTPOSTED>{date.replace('-', '')}<TRNAMT>{amount}"
                      f"<FITID>{n:010d}<NAME>{escape(description)}</STMTTRN>\n")
        out.write("</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n")


def write_camt(src: str, dst: str) -> None:
    with open(dst, "w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                  '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>\n'
                  "<GrpHdr><MsgId>BENCH</MsgId><CreDtTm>2026-12-31T00:00:00</CreDtTm></GrpHdr>\n"
                  "<Stmt><Id>1</Id><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>USD</Ccy></Acct>\n")
        for n, (date, description, amount) in enumerate(read_rows(src), 1):
            debit = amount.startswith("-")
            value = amount.lstrip("-")
            party = "Cdtr" if debit else "Dbtr"
            out.write(f'<Ntry><Amt Ccy="USD">{value}</Amt><CdtDbtInd>{"DBIT" if debit else "CRDT"}</CdtDbtInd>'
                      f"<Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>{date}</Dt></BookgDt><AcctSvcrRef>{n:010d}</AcctSvcrRef>"
                      f"<NtryDtls><TxDtls><RltdPties><{party}><Pty><Nm>{escape(description)}</Nm></Pty></{party}>"
                      f"</RltdPties></TxDtls></NtryDtls></Ntry>\n")
        out.write("</Stmt></BkToCstmrStmt></Document>\n")


def one_import(binary: str, path: str, folder: str) -> tuple[float, int, dict]:
    db = os.path.join(folder, f"bench-{time.monotonic_ns()}.sqlite")
    start = time.monotonic()
    proc = subprocess.Popen([binary, "import", path, "--db", db, "--format", "json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "NO_COLOR": "1"})
    out = proc.stdout.read() if proc.stdout else b""
    err = proc.stderr.read() if proc.stderr else b""
    _, raw, usage = os.wait4(proc.pid, 0)
    elapsed = time.monotonic() - start
    if os.waitstatus_to_exitcode(raw) != 0:
        sys.exit(f"{path}: import failed: {err.decode()[:500]}")
    for suffix in ("", "-wal", "-shm"):
        try:
            os.remove(db + suffix)
        except FileNotFoundError:
            pass
    return elapsed, usage.ru_maxrss, json.loads(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--rows", default="100k")
    parser.add_argument("--runs", type=int, default=3)
    generate.add_profile_argument(parser)
    args = parser.parse_args()
    rows = generate.parse_rows(args.rows)
    data = os.path.join(HERE, "data")
    src = generate.ensure(data, rows, profile=args.profile)
    label = generate.data_label(rows, args.profile)
    files = {"CSV": src, "OFX": os.path.join(data, f"statements-{label}.ofx"),
             "CAMT.053": os.path.join(data, f"statements-{label}.xml")}
    if not os.path.exists(files["OFX"]):
        write_ofx(src, files["OFX"])
    if not os.path.exists(files["CAMT.053"]):
        write_camt(src, files["CAMT.053"])
    results: dict[str, list[tuple[float, int]]] = {name: [] for name in files}
    with tempfile.TemporaryDirectory(dir=data) as folder:
        for _ in range(args.runs):
            for name, path in files.items():
                seconds, rss, summary = one_import(args.binary, path, folder)
                if summary.get("new") != rows:
                    sys.exit(f"{name}: expected {rows} new rows, got {summary.get('new')}")
                results[name].append((seconds, rss))
    print(f"import of {rows:,} transactions, {args.runs} interleaved runs, {platform.machine()} "
          f"{os.cpu_count()} cores, {os.path.basename(args.binary)}")
    print("| format | file MB | median s | rows/s | peak RSS MiB | time vs CSV |")
    print("|---|---|---|---|---|---|")
    base = statistics.median(s for s, _ in results["CSV"])
    for name, path in files.items():
        t = statistics.median(s for s, _ in results[name])
        m = statistics.median(r for _, r in results[name]) / 1024
        size = os.path.getsize(path) / 1e6
        print(f"| {name} | {size:.1f} | {t:.2f} | {rows / t:,.0f} | {m:.1f} | {t / base:.2f}x |")


if __name__ == "__main__":
    main()
