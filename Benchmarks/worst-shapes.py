#!/usr/bin/env python3
"""Each statement format's worst shapes, at two sizes: seconds per MB should not grow with size.

    python3 Benchmarks/worst-shapes.py BINARY [--runs 3]

Writes into Benchmarks/data/worst-shapes/ the files the readers find hardest: one QIF record
with 100k split lines, a 10 MB memo (OFX <MEMO>, QIF M line), one CAMT.053 statement with 100k
entries and an MT940 :86: field of 1 MB (many continuation lines); each also at half its size.
Imports each into a new database with BINARY (a memo or field over the 64 KiB limit is
refused, exit 65: the time is how long the refusal takes) and prints the median seconds, the
seconds per MB and the ratio of the full size's s/MB to the half size's. A reader that is
linear in its input keeps that ratio near 1; a quadratic one doubles it. Standard library only.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def qif_splits(path: str, n: int) -> int:
    """One bank record with n splits of -1.00 each; n rows."""
    with open(path, "w", encoding="ascii", newline="\n") as out:
        out.write(f"!Type:Bank\nD10/13/2026\nT-{n}.00\nPOne big split\n")
        for i in range(n):
            out.write(f"SCategory {i % 50}\nEPart {i}\n$-1.00\n")
        out.write("^\n")
    return n


def qif_memo(path: str, megabytes: int) -> int:
    with open(path, "w", encoding="ascii", newline="\n") as out:
        out.write("!Type:Bank\nD10/13/2026\nT-1.00\nPPayee\nM")
        out.write("memo " * (megabytes * 200_000))
        out.write("\n^\n")
    return 0


def ofx_memo(path: str, megabytes: int) -> int:
    with open(path, "w", encoding="ascii", newline="\n") as out:
        out.write("OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD\n"
                  "<BANKACCTFROM><ACCTID>1</BANKACCTFROM><BANKTRANLIST>\n"
                  "<STMTTRN><DTPOSTED>20261003<TRNAMT>-1.00<NAME>Payee<MEMO>")
        out.write("memo " * (megabytes * 200_000))
        out.write("\n</STMTTRN></BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n")
    return 0


def camt_entries(path: str, n: int) -> int:
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                  '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>\n'
                  "<GrpHdr><MsgId>W</MsgId><CreDtTm>2026-12-31T00:00:00</CreDtTm></GrpHdr>\n"
                  "<Stmt><Id>1</Id><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>\n")
        for i in range(n):
            out.write(f'<Ntry><Amt Ccy="EUR">{1 + i % 997}.{i % 100:02d}</Amt><CdtDbtInd>DBIT</CdtDbtInd>'
                      f"<Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2026-10-{1 + i % 28:02d}</Dt></BookgDt>"
                      f"<AcctSvcrRef>{i:010d}</AcctSvcrRef><AddtlNtryInf>Entry {i}</AddtlNtryInf></Ntry>\n")
        out.write("</Stmt></BkToCstmrStmt></Document>\n")
    return n


def mt940_field(path: str, kilobytes: int) -> int:
    with open(path, "w", encoding="ascii", newline="\n") as out:
        out.write(":20:WORST\n:25:10070000/0123456789\n:28C:1/1\n:60F:C261030EUR100,00\n"
                  ":61:2610301030DR1,00NTRFNONREF\n:86:")
        line = "x" * 64 + "\n"
        out.write(line * (kilobytes * 1_000 // len(line)))
        out.write(":62F:C261031EUR99,00\n-\n")
    return 0


# name → (writer, full size, expected exit code)
SHAPES = {
    "QIF, one record of N splits": (qif_splits, 100_000, 0),
    "QIF, an M line of N MB": (qif_memo, 10, 65),
    "OFX, a <MEMO> of N MB": (ofx_memo, 10, 65),
    "CAMT.053, one statement of N entries": (camt_entries, 100_000, 0),
    "MT940, an :86: field of N kB": (mt940_field, 1_000, 65),
}
SUFFIX = {qif_splits: "qif", qif_memo: "qif", ofx_memo: "ofx", camt_entries: "xml", mt940_field: "sta"}


def one_import(binary: str, path: str, folder: str, expected_exit: int, rows: int) -> float:
    db = os.path.join(folder, f"w-{time.monotonic_ns()}.sqlite")
    start = time.monotonic()
    proc = subprocess.run([binary, "import", path, "--db", db, "--format", "json"], capture_output=True,
                          env={**os.environ, "NO_COLOR": "1"})
    elapsed = time.monotonic() - start
    if proc.returncode != expected_exit:
        sys.exit(f"{path}: exit {proc.returncode}, expected {expected_exit}: {proc.stderr.decode()[:300]}")
    if expected_exit == 0 and f'"new":{rows}' not in proc.stdout.decode().replace(" ", ""):
        sys.exit(f"{path}: expected {rows} new rows: {proc.stdout.decode()[:300]}")
    for suffix in ("", "-wal", "-shm"):
        try:
            os.remove(db + suffix)
        except FileNotFoundError:
            pass
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    folder = os.path.join(HERE, "data", "worst-shapes")
    os.makedirs(folder, exist_ok=True)
    print(f"worst shapes, median of {args.runs} runs, {platform.machine()} {os.cpu_count()} cores, "
          f"{os.path.basename(args.binary)}")
    print("| shape | N | file MB | exit | median s | s/MB | s/MB vs N/2 |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(dir=folder) as scratch:
        for name, (writer, full, exit_code) in SHAPES.items():
            per_mb = {}
            for size in (full // 2, full):
                path = os.path.join(folder, f"{writer.__name__}-{size}.{SUFFIX[writer]}")
                rows = writer(path, size)
                mb = os.path.getsize(path) / 1e6
                t = statistics.median(one_import(args.binary, path, scratch, exit_code, rows)
                                      for _ in range(args.runs))
                per_mb[size] = t / mb
                ratio = f"{per_mb[size] / per_mb[full // 2]:.2f}x" if size == full else ""
                print(f"| {name} | {size:,} | {mb:.1f} | {exit_code} | {t:.3f} | {t / mb:.3f} | {ratio} |")


if __name__ == "__main__":
    main()
