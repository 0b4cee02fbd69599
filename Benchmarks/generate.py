#!/usr/bin/env python3
"""Deterministic, seeded generator of a realistic bank CSV for the `expenses` benchmarks.

    python3 Benchmarks/generate.py --rows 1m --out Benchmarks/data [--profile bank|simple]

writes DIR/expenses-1m.csv (header `Date,Description,Amount,Category`, ISO dates in date order
from 2016-01-01 to 2026-10-31, `.` decimals, negative = money out, RFC 4180 quoting, UTF-8)
and DIR/budgets.csv (`category,amount`, one monthly budget per category).

Two profiles. `bank` (the default) builds descriptions the ways banks build them, so about a
third of them are distinct, as on real statements: card purchases with terminal, store and
card numbers, a city and the day ("POS 4417 STARBUCKS #10234 SEATTLE WA 11/03"), direct
debits with mandate and reference ids ("SEPA-LASTSCHRIFT MREF 2026-0931-77 ..."), ACH
entries with company ids, transfers with confirmation numbers; merchants in several scripts
(Latin with accents, Cyrillic, Greek, CJK, Arabic), quoted commas, refunds and a few
salary and interest credits. `simple` is the earlier profile (`expenses-simple-1m.csv`):
about 4,500 distinct descriptions in a million rows, which flatters any per-text dictionary.

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

PROFILES = ("bank", "simple")
DEFAULT_PROFILE = "bank"

# The bank profile's building blocks. Cities with their state or country code, as card
# terminals print them.
CITIES = [
    "SEATTLE WA", "SAN FRANCISCO CA", "NEW YORK NY", "AUSTIN TX", "CHICAGO IL", "PORTLAND OR", "BERLIN DE",
    "MUENCHEN DE", "HAMBURG DE", "WIEN AT", "ZUERICH CH", "PARIS FR", "LYON FR", "MADRID ES", "LISBOA PT",
    "LONDON GB", "AMSTERDAM NL", "KRAKOW PL", "ATHINA GR", "TOKYO JP",
]
# Merchants in other scripts, spread over the categories by index.
FOREIGN = [
    "Пятёрочка", "Кофе Хауз", "Ашан, гипермаркет", "Σκλαβενίτης", "Καφέ Μικέλ", "ローソン", "セブン-イレブン",
    "スターバックス", "全家便利店", "美团外卖", "كارفور", "مقهى السعادة", "Żabka", "Biedronka, sklep 1123",
]
# How an entry is worded, by share of rows: card purchase, direct debit, ACH, plain.
BANK_SHAPES = (0.55, 0.12, 0.08)
# Chance that a card purchase prints its own reference (an authorization code): a unique text.
UNIQUE_REFERENCE = 0.06
# Share of card purchases that print the day.
DATED_PURCHASE = 0.8
# Stores of one merchant a statement meets.
STORES = 10


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


def csv_path(out_dir: str, rows: int, profile: str = DEFAULT_PROFILE) -> str:
    prefix = "expenses" if profile == "bank" else f"expenses-{profile}"
    return os.path.join(out_dir, f"{prefix}-{size_label(rows)}.csv")


def data_label(rows: int, profile: str = DEFAULT_PROFILE) -> str:
    """What names the files made from a generated CSV: its size, and its profile unless `bank`."""
    return size_label(rows) if profile == "bank" else f"{profile}-{size_label(rows)}"


def add_profile_argument(parser: argparse.ArgumentParser) -> None:
    """`--profile bank|simple` for a benchmark script (every one reads the generated files)."""
    parser.add_argument("--profile", choices=PROFILES, default=DEFAULT_PROFILE,
                        help=f"generated file's shape: bank (about 30%% distinct descriptions, the default) "
                             f"or simple (the earlier profile, about 4,500 distinct in 1m rows)")


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


def bank_description(rng: random.Random, name: str, category: int, day: _dt.date, card: int) -> str:
    """One entry's text as a bank prints it (see the module doc); `card` is the account's card.

    What makes a text distinct is what makes it so on a statement: a card purchase names one
    of the merchant's few stores (its number, terminal and city are fixed) and, on most of
    them, the day; a few print an authorization code; a direct debit's end-to-end reference
    changes each month. At a million rows about 30% of the texts are distinct."""
    seed = sum(map(ord, name)) * 31 + category
    merchant = name.upper() if seed % 10 < 7 else name
    r = rng.random()
    if r < BANK_SHAPES[0]:
        store = int(rng.random() * STORES)
        city = CITIES[(seed + store * 7) % len(CITIES)]
        text = f"POS {1000 + (seed * 13 + store) % 9000} {merchant} #{(seed * 101 + store * 977) % 40_000} {city}"
        if rng.random() < DATED_PURCHASE:
            text += f" {day.month:02d}/{day.day:02d}"
        if rng.random() < UNIQUE_REFERENCE:
            text += f" AUTH {int(rng.random() * 1_000_000):06d}"
        return text
    r -= BANK_SHAPES[0]
    if r < BANK_SHAPES[1]:
        mandate = f"{2016 + seed % 9}-{seed % 10_000:04d}-{seed % 97:02d}"
        return f"SEPA-LASTSCHRIFT MREF {mandate} {merchant} EREF {day.year}{day.month:02d}{seed % 1000:03d}"
    r -= BANK_SHAPES[1]
    if r < BANK_SHAPES[2]:
        return f"ACH DEBIT {merchant} PPD ID: {1_000_000_000 + seed * 7919 % 10**9:010d}"
    if rng.random() < 0.5:
        return f"CARD {card:04d} {merchant}"
    return name


def write_csv(out_dir: str, rows: int, seed: int = DEFAULT_SEED, profile: str = DEFAULT_PROFILE) -> str:
    """Writes DIR/expenses-<label>.csv with exactly `rows` data rows; returns its path."""
    os.makedirs(out_dir, exist_ok=True)
    path = csv_path(out_dir, rows, profile)
    bank = profile == "bank"
    card = 4417
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
            if bank:
                if rand() < 0.04:
                    name = FOREIGN[(c + m) % len(FOREIGN)]
                else:
                    name = names[m]
                low, span = log_ranges[c]
                cents = int(exp(low + span * rand()) * 100 + 0.5)
                today = _dt.date.fromordinal(first + day)
                if rand() < 0.003:
                    desc, amount = csv_field(f"PAYROLL DEPOSIT ACME CORP ID {int(rand() * 10**6):06d}"), "3250.00"
                    batch.append(f"{date_text[day]},{desc},{amount},Salary\n")
                    continue
                if rand() < 0.002:
                    desc = csv_field(f"ONLINE TRANSFER TO SAV ...{card + 3:04d} CONF# {int(rand() * 10**8):08d}")
                    batch.append(f"{date_text[day]},{desc},-{cents // 100}.{cents % 100:02d},Transfers\n")
                    continue
                if rand() < REFUND_RATE:
                    desc = csv_field("REFUND " + bank_description(rng, name, c, today, card))
                    amount = f"{cents // 100}.{cents % 100:02d}"
                else:
                    desc = csv_field(bank_description(rng, name, c, today, card))
                    amount = f"-{cents // 100}.{cents % 100:02d}"
                batch.append(f"{date_text[day]},{desc},{amount},{cat_fields[c]}\n")
                if len(batch) >= 8192:
                    f.write("".join(batch))
                    batch.clear()
                continue
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


def ensure(
    out_dir: str, rows: int, seed: int = DEFAULT_SEED, quiet: bool = False, profile: str = DEFAULT_PROFILE
) -> str:
    """Generates the CSV (and budgets) unless an up-to-date copy exists; returns the CSV path.

    A file is reused when its stamp (DIR/expenses-<label>.csv.stamp) names the same rows, seed,
    profile and generator version."""
    path = csv_path(out_dir, rows, profile)
    stamp = path + ".stamp"
    want = stamp_text(rows, seed, profile)
    write_budgets_if_missing(out_dir)
    if os.path.exists(path) and os.path.exists(stamp):
        with open(stamp, encoding="utf-8") as s:
            if s.read() == want:
                return path
    if not quiet:
        print(f"generating {rows:,} rows -> {path}", file=sys.stderr, flush=True)
    write_csv(out_dir, rows, seed, profile)
    with open(stamp, "w", encoding="utf-8") as s:
        s.write(want)
    return path


def stamp_text(rows: int, seed: int, profile: str) -> str:
    return f"rows={rows} seed={seed} profile={profile} version={GENERATOR_VERSION}\n"


def write_budgets_if_missing(out_dir: str) -> None:
    os.makedirs(out_dir, exist_ok=True)
    path = budgets_path(out_dir)
    want = "".join(f"{csv_field(n)},{a}.00\n" for n, a in budgets())
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            if f.read() == "category,amount\n" + want:
                return
    write_budgets(out_dir)


GENERATOR_VERSION = 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=parse_rows, required=True, help="row count: 10k, 100k, 1m, 10m or a number")
    parser.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "data"),
                        help="output directory (default: Benchmarks/data)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"random seed (default {DEFAULT_SEED})")
    parser.add_argument("--force", action="store_true", help="regenerate even if an identical file exists")
    add_profile_argument(parser)
    parser.add_argument("--stats", action="store_true", help="print the share of distinct descriptions")
    args = parser.parse_args(argv)
    if args.force:
        os.makedirs(args.out, exist_ok=True)
        write_budgets(args.out)
        path = write_csv(args.out, args.rows, args.seed, args.profile)
        with open(path + ".stamp", "w", encoding="utf-8") as s:
            s.write(stamp_text(args.rows, args.seed, args.profile))
    else:
        path = ensure(args.out, args.rows, args.seed, profile=args.profile)
    if args.stats:
        import csv as _csv
        with open(path, encoding="utf-8", newline="") as f:
            reader = _csv.reader(f)
            next(reader)
            texts = [row[1] for row in reader]
        distinct = len(set(texts))
        print(f"{distinct:,} distinct descriptions of {len(texts):,} ({100 * distinct / max(1, len(texts)):.1f}%)",
              file=sys.stderr)
    print(path)
    print(budgets_path(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
