"""The rows of a generated CSV as the stores keep them, for the floor benchmarks.

`made_rows(csv)` reads Benchmarks/generate.py's file (header `Date,Description,Amount,Category`)
and returns, in key order as the import writes them, one tuple per row:
(key, id, date, amount in minor units, description, category, source line). The key is laid
out as `ExpenseKey` lays it out (the day since 1970 in the top bits, 43 bits of a hash below);
the hash is not the import's fingerprint, only as spread as it. Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import csv as csvmodule
import datetime as _dt
import hashlib
import importlib.util
import os
from types import ModuleType

EPOCH = _dt.date(1970, 1, 1)
HASH_BITS = 43


def made_rows(source: str) -> list[tuple[int, int, str, int, str, str, int]]:
    rows = []
    with open(source, newline="", encoding="utf-8") as f:
        reader = csvmodule.reader(f)
        next(reader)
        for number, (date, description, amount, category) in enumerate(reader, start=1):
            day = (_dt.date.fromisoformat(date) - EPOCH).days
            digest = hashlib.blake2b(f"{date}\x1f{description}\x1f{amount}\x1f{number}".encode(), digest_size=8)
            key = (day << HASH_BITS) | (int.from_bytes(digest.digest(), "little") & ((1 << HASH_BITS) - 1))
            rows.append((key, number, date, round(float(amount) * 100), description, category, number + 1))
    rows.sort()
    return rows


def fresh(target: str, source: str) -> bool:
    """Whether `target` was made from `source` as it is now."""
    return os.path.exists(target) and os.path.getmtime(target) >= os.path.getmtime(source)


def script(name: str) -> ModuleType:
    """Another benchmark script of this folder as a module (its file name has a dash)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"{name}.py")
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), path)
    if spec is None or spec.loader is None:
        raise ImportError(path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def arguments(doc: str | None) -> argparse.Namespace:
    """The floor scripts' options: --rows, --runs and the --binary of `expenses import`."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", default="1m", help="10k, 100k, 1m, 10m or a number (default 1m)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--profile", choices=("bank", "simple"), default="bank",
                        help="the generated file's shape (Benchmarks/generate.py; default bank)")
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--binary", default=os.path.join(here, "..", ".build-rel", "release", "expenses"))
    return parser.parse_args()
