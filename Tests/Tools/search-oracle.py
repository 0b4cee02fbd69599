#!/usr/bin/env python3
"""An independent reading of `expenses list --search`: which rows of `list --format json` a
search keeps, by Python's own Unicode folding (NFKD, combining marks dropped, casefold) and
decimal arithmetic, never the program's code.

Usage: search-oracle.py LIST_JSON QUERY_JSON
QUERY_JSON: {"search": str|null, "min": str|null, "max": str|null, "from": str|null, "to": str|null}
Prints the ids kept, newest first as `list` orders them, one per line.
"""
import json
import sys
import unicodedata
from decimal import Decimal

DIGITS = {"JPY": 0, "KRW": 0, "BHD": 3, "KWD": 3, "JOD": 3, "OMR": 3, "TND": 3}


def fold(text):
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return stripped.casefold().strip()


def main():
    rows = json.load(open(sys.argv[1]))
    query = json.loads(sys.argv[2])
    needle = fold(query["search"]) if query.get("search") else ""
    kept = []
    for row in rows:
        size = abs(Decimal(row["amountMinor"])) / (Decimal(10) ** DIGITS.get(row["currency"], 2))
        if query.get("min") and size < Decimal(query["min"]):
            continue
        if query.get("max") and size > Decimal(query["max"]):
            continue
        if query.get("from") and row["date"] < query["from"]:
            continue
        if query.get("to") and row["date"] > query["to"]:
            continue
        if needle:
            texts = [row.get("description") or "", row.get("category") or "", row.get("account") or ""]
            if not any(needle in fold(t) for t in texts):
                continue
        kept.append(row["id"])
    print("\n".join(str(i) for i in kept))


if __name__ == "__main__":
    main()
