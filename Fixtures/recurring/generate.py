#!/usr/bin/env python3
"""Writes ledger.csv: 18 months (2025-06 to 2026-11, "today" 2026-11-20) of a household's
card and bank rows, for the recurring-payment tests. Deterministic (a fixed seed).

The true series, which `expenses recurring` must find and nothing else:
- rent, monthly on the 1st, 1,500.00; March 2026's paid early (2026-02-26); November's not yet
  paid (late on the 20th);
- Netflix, monthly on the 15th, 15.49, then 17.99 from February 2026 (a price change);
- Spotify, monthly on the 25th, 10.99, April 2026 skipped; November's still due;
- the gym, weekly on Mondays, 12.00, the bank's reference changing each week; the 23rd's and
  the 30th's still due;
- water, quarterly on the 5th of Feb/May/Aug/Nov, 80.00 to 120.00 (an amount band).
Not series: the yearly insurance (two payments in 18 months: a series needs three), groceries,
fuel, a cafe visited about monthly on any day for any amount, the salary (money in).
"""
import csv
import datetime
import random

rng = random.Random(37)
rows = []
first = datetime.date(2025, 6, 1)
today = datetime.date(2026, 11, 20)


def add(day, description, amount, category):
    if day <= today:
        rows.append((day, description, amount, category))


def months():
    y, m = 2025, 6
    while (y, m) <= (2026, 11):
        yield y, m
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)


for y, m in months():
    if (y, m) == (2026, 3):
        add(datetime.date(2026, 2, 26), "RENT OAK STREET APTS REF 202603", "-1500.00", "Rent")
    elif (y, m) != (2026, 11):
        add(datetime.date(y, m, 1), "RENT OAK STREET APTS REF %d%02d" % (y, m), "-1500.00", "Rent")
    price = "-15.49" if (y, m) < (2026, 2) else "-17.99"
    add(datetime.date(y, m, 15), "NETFLIX.COM 866-579-7172", price, "Subscriptions")
    if (y, m) != (2026, 4):
        add(datetime.date(y, m, 25), "SPOTIFY P%07d" % rng.randrange(10**7), "-10.99", "Subscriptions")
    if m in (2, 5, 8, 11):
        add(datetime.date(y, m, 5), "CITY WATER QUARTERLY BILL", "-%d.%02d" % (rng.randrange(80, 120), rng.randrange(100)),
            "Utilities")
    if m == 7:
        add(datetime.date(y, m, 10), "ACME INSURANCE ANNUAL POLICY", "-480.00", "Insurance")
    add(datetime.date(y, m, 28), "ACME CORP PAYROLL", "4200.00", "Salary")
    # Irregular spending.
    for _ in range(rng.randrange(6, 11)):
        day = datetime.date(y, m, rng.randrange(1, 29))
        add(day, "WHOLE FOODS MKT #%d" % rng.choice([10234, 10571]), "-%d.%02d" % (rng.randrange(15, 180), rng.randrange(100)),
            "Groceries")
    for _ in range(rng.randrange(2, 5)):
        day = datetime.date(y, m, rng.randrange(1, 29))
        add(day, "SHELL OIL %d" % rng.randrange(10000, 99999), "-%d.%02d" % (rng.randrange(25, 70), rng.randrange(100)),
            "Transport")
    add(datetime.date(y, m, rng.randrange(1, 29)), "CORNER CAFE", "-%d.%02d" % (rng.randrange(5, 60), rng.randrange(100)),
        "Dining out")

monday = datetime.date(2025, 6, 2)
while monday <= today:
    add(monday, "PURE GYM WEEKLY %s" % monday.strftime("%d%m"), "-12.00", "Fitness")
    monday += datetime.timedelta(days=7)

rows.sort(key=lambda r: (r[0], r[1]))
with open("ledger.csv", "w", newline="") as out:
    writer = csv.writer(out)
    writer.writerow(["Date", "Description", "Amount", "Category"])
    for day, description, amount, category in rows:
        writer.writerow([day.isoformat(), description, amount, category])
