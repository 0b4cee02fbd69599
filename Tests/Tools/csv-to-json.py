#!/usr/bin/env python3
"""Reads CSV on stdin with Python's csv module (an independent RFC 4180 reader) and prints the
records as a JSON array of arrays of strings. Used by the CSV round-trip tests."""
import csv
import io
import json
import sys

text = sys.stdin.buffer.read().decode("utf-8")
rows = list(csv.reader(io.StringIO(text, newline=""), strict=True))
json.dump(rows, sys.stdout, ensure_ascii=False)
