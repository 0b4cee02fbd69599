#!/usr/bin/env python3
"""Deterministic, seeded generator of a realistic bank CSV for the `expenses` benchmarks.

    python3 Benchmarks/generate.py --rows 1m --out Benchmarks/data

writes DIR/expenses-1m.csv (header `Date,Description,Amount,Category`, ISO dates in date order
from 2016-01-01 to 2026-10-31, `.` decimals, negative = money out, RFC 4180 quoting, UTF-8)
and DIR/budgets.csv (`category,amount`, one monthly budget per category).

The same --rows and --seed always give byte-identical files. Rows are streamed to disk in
batches, so 10M rows need no more memory than 10k. Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import math
import os
import random
import sys

FIRST_DAY = _dt.date(2016, 1, 1)
LAST_DAY = _dt.date(2026, 10, 31)
HEADER = "Date,Description,Amount,Category\n"
DEFAULT_SEED = 20261022

# category -> (monthly budget in whole currency units, weight of rows, (low, high) amount range,
#              merchants). Amounts are drawn log-uniformly between low and high.
CATEGORIES: list[tuple[str, int, float, tuple[float, float], list[str]]] = [
    ("Groceries", 600, 14.0, (4.0, 180.0), [
        "Trader Joe's, #552", "Whole Foods Market", "Safeway #1234", "Aldi Süd", "Edeka Müller",
        "Carrefour Market", "Kroger", "Lidl, Filiale 0815", "Costco Wholesale", "Migros"]),
    ("Restaurants", 300, 9.0, (8.0, 120.0), [
        'Thai "Basil" House', "Café Müller", "Olive Garden", "Pizzeria Da Michele",
        "Sushi Zen, Downtown", "Le Petit Bistro", "Taquería El Güero", "Noodle Bar 麺",
        'The "Golden" Dragon', "Brasserie Lipp"]),
    ("Coffee", 60, 8.0, (2.5, 9.0), [
        "Starbucks #10293", "Blue Bottle Coffee", "Café Central, Wien", "Dunkin'", "Tim Hortons",
        "Espresso Bar «Roma»"]),
    ("Rent", 1800, 0.6, (1750.0, 1850.0), ["Property Mgmt, LLC — Rent", "Hausverwaltung Schäfer"]),
    ("Utilities", 180, 1.5, (30.0, 160.0), [
        "PG&E Electric", "City Water, Dept. 7", "Stadtwerke München", "Comcast Xfinity"]),
    ("Phone", 70, 0.6, (35.0, 75.0), ["Verizon Wireless", "T-Mobile, Inc.", "Telefónica"]),
    ("Internet", 60, 0.5, (49.0, 59.0), ["Sonic.net", "Deutsche Telekom"]),
    ("Transport", 150, 6.0, (1.5, 45.0), [
        "BART Clipper", "Uber Trip", "Lyft, Ride 4412", "MVG Ticket", "SNCF — TGV", "Bolt"]),
    ("Fuel", 160, 2.5, (20.0, 90.0), ["Shell Station 0042", "Chevron", "Aral Tankstelle", "BP, Exit 12"]),
    ("Car", 120, 0.7, (25.0, 900.0), ["Jiffy Lube", "AutoZone #3301", "ADAC Mitgliedschaft", "Geico Insurance"]),
    ("Health", 120, 1.5, (10.0, 400.0), ["CVS Pharmacy #8812", "Walgreens", "Apotheke am Markt", "Dr. Smith, DDS"]),
    ("Fitness", 60, 1.0, (15.0, 90.0), ["24 Hour Fitness", "Urban Sports Club", "Yoga Studio \"Om\""]),
    ("Clothing", 120, 1.5, (12.0, 250.0), ["Uniqlo", "H&M", "Zara, Store 21", "Patagonia", "C&A"]),
    ("Electronics", 100, 0.6, (15.0, 1500.0), ["Apple Store", "Best Buy #0231", "MediaMarkt", "Amazon.com"]),
    ("Household", 100, 2.0, (5.0, 200.0), ["IKEA", "Target T-1932", "Bed Bath & Beyond", "dm-drogerie markt"]),
    ("Entertainment", 80, 2.0, (8.0, 90.0), [
        "Cinema Paradiso", "AMC Theatres", "Ticketmaster", "Museo del Prado", "Steam Games"]),
    ("Subscriptions", 50, 1.2, (4.99, 19.99), ["Netflix.com", "Spotify AB", "NYTimes Digital", "iCloud Storage"]),
    ("Books", 40, 0.8, (6.0, 60.0), ["Powell's Books", "Thalia Bücher", "Barnes & Noble", "Kindle Store"]),
    ("Travel", 300, 0.8, (40.0, 1200.0), [
        "Lufthansa", "Delta Air Lines", "Airbnb, Inc.", "Hotel Zürich", "Booking.com", "Ryanair"]),
    ("Gifts", 80, 0.6, (10.0, 200.0), ["Etsy, Inc.", "Blumen Fleurop", "Hallmark"]),
    ("Education", 60, 0.4, (10.0, 500.0), ["Coursera", "Udemy", "Volkshochschule"]),
    ("Pets", 60, 1.0, (5.0, 150.0), ["Petco #771", "Fressnapf", "Vet Clinic, Dr. Ruiz"]),
    ("Personal Care", 50, 1.0, (5.0, 80.0), ["Supercuts", "Sephora", "Friseur Lockenpracht"]),
    ("Charity", 40, 0.3, (5.0, 100.0), ["Red Cross", "Ärzte ohne Grenzen", "Wikimedia"]),
    ("Fees", 15, 0.5, (1.0, 35.0), ["Bank Fee: ATM", "Foreign Tx Fee", "Overdraft, Fee"]),
]

REFUND_RATE = 0.01  # share of rows that are refunds (positive amounts)


def parse_rows(text: str) -> int:
    """'10k' -> 10_000, '1m' / '1M' -> 1_000_000, '2500' -> 2500."""
    t = text.strip().lower().replace("_", "")
    mult = 1
    if t.endswith("k"):
        mult, t = 1_000, t[:-1]
    elif t.endswith("m"):
        mult, t = 1_000_000, t[:-1]
    value = float(t) * mult
    if value < 1 or value != int(value):
        raise argparse.ArgumentTypeError(f"not a row count: {text!r}")
    return int(value)


def size_label(rows: int) -> str:
    """10_000 -> '10k', 1_000_000 -> '1m', 2500 -> '2500'."""
    if rows % 1_000_000 == 0:
        return f"{rows // 1_000_000}m"
    if rows % 1_000 == 0:
        return f"{rows // 1_000}k"
    return str(rows)


def csv_field(text: str) -> str:
    """RFC 4180: quote a field holding a comma, quote, CR or LF; double inner quotes."""
    if any(c in text for c in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def category_names() -> list[str]:
    return [c[0] for c in CATEGORIES]


def budgets() -> list[tuple[str, int]]:
    return [(c[0], c[1]) for c in CATEGORIES]


def csv_path(out_dir: str, rows: int) -> str:
    return os.path.join(out_dir, f"expenses-{size_label(rows)}.csv")


def budgets_path(out_dir: str) -> str:
    return os.path.join(out_dir, "budgets.csv")


def write_budgets(out_dir: str) -> str:
    path = budgets_path(out_dir)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        f.write("category,amount\n")
        for name, amount in budgets():
            f.write(f"{csv_field(name)},{amount}.00\n")
    os.replace(tmp, path)
    return path


def write_csv(out_dir: str, rows: int, seed: int = DEFAULT_SEED) -> str:
    """Writes DIR/expenses-<label>.csv with exactly `rows` data rows; returns its path."""
    os.makedirs(out_dir, exist_ok=True)
    path = csv_path(out_dir, rows)
    tmp = path + ".tmp"
    rng = random.Random(seed * 1_000_003 + rows)
    rand = rng.random

    # Precompute per-category choice tables: pick a category by weight through a flat table.
    table: list[int] = []
    for index, (_, _, weight, _, _) in enumerate(CATEGORIES):
        table.extend([index] * int(round(weight * 10)))
    table_len = len(table)
    cat_fields = [csv_field(c[0]) for c in CATEGORIES]
    merchants = [c[4] for c in CATEGORIES]
    log_ranges = [(math.log(c[3][0]), math.log(c[3][1]) - math.log(c[3][0])) for c in CATEGORIES]

    first = FIRST_DAY.toordinal()
    days = LAST_DAY.toordinal() - first + 1
    date_text = [(_dt.date.fromordinal(first + d)).isoformat() for d in range(days)]
    # Quoted descriptions are cached: (category, merchant index, suffix) -> field.
    cache: dict[tuple[int, int, int], str] = {}
    exp = math.exp

    batch: list[str] = []
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        f.write(HEADER)
        for i in range(rows):
            day = i * days // rows  # date order, evenly spread over the whole range
            c = table[int(rand() * table_len)]
            names = merchants[c]
            m = int(rand() * len(names))
            # A few merchants carry a varying store/reference number, like real statements.
            suffix = int(rand() * 40) if rand() < 0.3 else -1
            key = (c, m, suffix)
            desc = cache.get(key)
            if desc is None:
                text = names[m] if suffix < 0 else f"{names[m]} {suffix:03d}"
                desc = csv_field(text)
                cache[key] = desc
            low, span = log_ranges[c]
            cents = int(exp(low + span * rand()) * 100 + 0.5)
            if rand() < REFUND_RATE:
                amount = f"{cents // 100}.{cents % 100:02d}"  # refund: money in
                if rand() < 0.5:
                    desc = csv_field("REFUND " + (names[m] if suffix < 0 else f"{names[m]} {suffix:03d}"))
            else:
                amount = f"-{cents // 100}.{cents % 100:02d}"
            batch.append(f"{date_text[day]},{desc},{amount},{cat_fields[c]}\n")
            if len(batch) >= 8192:
                f.write("".join(batch))
                batch.clear()
        f.write("".join(batch))
    os.replace(tmp, path)
    return path


def ensure(out_dir: str, rows: int, seed: int = DEFAULT_SEED, quiet: bool = False) -> str:
    """Generates the CSV (and budgets) unless an up-to-date copy exists; returns the CSV path.

    A file is reused when its stamp (DIR/expenses-<label>.csv.stamp) names the same rows, seed
    and generator version."""
    path = csv_path(out_dir, rows)
    stamp = path + ".stamp"
    want = f"rows={rows} seed={seed} version={GENERATOR_VERSION}\n"
    write_budgets_if_missing(out_dir)
    if os.path.exists(path) and os.path.exists(stamp):
        with open(stamp, encoding="utf-8") as s:
            if s.read() == want:
                return path
    if not quiet:
        print(f"generating {rows:,} rows -> {path}", file=sys.stderr, flush=True)
    write_csv(out_dir, rows, seed)
    with open(stamp, "w", encoding="utf-8") as s:
        s.write(want)
    return path


def write_budgets_if_missing(out_dir: str) -> None:
    os.makedirs(out_dir, exist_ok=True)
    path = budgets_path(out_dir)
    want = "".join(f"{csv_field(n)},{a}.00\n" for n, a in budgets())
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            if f.read() == "category,amount\n" + want:
                return
    write_budgets(out_dir)


GENERATOR_VERSION = 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=parse_rows, required=True, help="row count: 10k, 100k, 1m, 10m or a number")
    parser.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "data"),
                        help="output directory (default: Benchmarks/data)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"random seed (default {DEFAULT_SEED})")
    parser.add_argument("--force", action="store_true", help="regenerate even if an identical file exists")
    args = parser.parse_args(argv)
    if args.force:
        os.makedirs(args.out, exist_ok=True)
        write_budgets(args.out)
        path = write_csv(args.out, args.rows, args.seed)
        with open(path + ".stamp", "w", encoding="utf-8") as s:
            s.write(f"rows={args.rows} seed={args.seed} version={GENERATOR_VERSION}\n")
    else:
        path = ensure(args.out, args.rows, args.seed)
    print(path)
    print(budgets_path(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
