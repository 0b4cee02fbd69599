#!/usr/bin/env python3
"""Writes Sources/ExpenseRender/Layout/WidthTables.swift from the PyPI `wcwidth` package.

    Tools/generate-width-tables.py           rewrite the committed file
    Tools/generate-width-tables.py --check   exit 1 (naming the difference) when it differs

Run it with the oracles' python, which holds the pinned `wcwidth` (`scripts/test` makes it):
`.build/oracles/bin/python3 Tools/generate-width-tables.py --check`.

Why from `wcwidth` and not from Unicode's data files: `DisplayWidth` must measure exactly what
the independent width checker (`Tests/Tools/max-line-width.py`, which calls `wcwidth`)
measures, and `wcwidth`'s tables are the ones that checker reads, with its own choices (which
characters are zero width, which viramas join a conjunct) already made. The version is pinned
because releases disagree (0.9 counts a virama before any character as a 2-cell conjunct);
another version exits 3 without writing, as the checker does.
"""
import difflib
import os
import sys

WCWIDTH_VERSION = "0.7.0"
TARGET = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "ExpenseRender", "Layout", "WidthTables.swift"
)

HEADER = """\
// Generated from the Python `wcwidth` {version} tables (Unicode data), so that
// `DisplayWidth` measures exactly what `Tests/Tools/max-line-width.py` measures. Do not edit by hand.

/// Sorted, inclusive code point ranges as flat `[lo, hi, lo, hi, …]` arrays.
enum WidthTables {{
"""

FOOTER = """
  /// Binary search of a flat range table.
  static func contains(_ table: [UInt32], _ value: UInt32) -> Bool {
    var low = 0
    var high = table.count / 2 - 1
    guard high >= 0, value >= table[0], value <= table[table.count - 1] else { return false }
    while low <= high {
      let mid = (low + high) / 2
      if value < table[mid * 2] {
        high = mid - 1
      } else if value > table[mid * 2 + 1] {
        low = mid + 1
      } else {
        return true
      }
    }
    return false
  }
}
"""


def tables():
    """(Swift name, doc comment, ranges) for each table, in the file's order."""
    from wcwidth import table_grapheme, table_mc, table_vs16, table_wide, table_zero
    from wcwidth._constants import _ISC_VIRAMA_SET, _LATEST_VERSION

    return [
        (
            "zero",
            "Zero-width code points (combining marks, format characters, ZWJ, variation selectors).",
            table_zero.ZERO_WIDTH[_LATEST_VERSION],
        ),
        (
            "wide",
            "East Asian Wide and Fullwidth code points, including emoji presentation: two cells.",
            table_wide.WIDE_EASTASIAN[_LATEST_VERSION],
        ),
        (
            "spacingMark",
            "Spacing combining marks (Mc): one cell after a base character.",
            table_mc.CATEGORY_MC[_LATEST_VERSION],
        ),
        # wcwidth keeps the VS16 table under the Unicode version that introduced the rule.
        (
            "vs16Wide",
            "Narrow characters that VS16 (U+FE0F) turns into two-cell emoji.",
            table_vs16.VS16_NARROW_TO_WIDE["9.0.0"],
        ),
        (
            "indicConsonant",
            "Indic consonants that join a preceding virama into one conjunct.",
            table_grapheme.ISC_CONSONANT,
        ),
        (
            "extendedPictographic",
            "Extended_Pictographic code points (emoji that skin tones attach to).",
            table_grapheme.EXTENDED_PICTOGRAPHIC,
        ),
        ("virama", "Indic viramas.", [(c, c) for c in sorted(_ISC_VIRAMA_SET)]),
    ]


def merged(ranges):
    """Sorted, with touching or overlapping ranges joined (the binary search needs disjoint ones)."""
    out = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(hi, out[-1][1]))
        else:
            out.append((lo, hi))
    return out


def render():
    parts = [HEADER.format(version=WCWIDTH_VERSION)]
    for name, doc, ranges in tables():
        numbers = [f"0x{n:X}" for lo, hi in merged(ranges) for n in (lo, hi)]
        parts.append(f"  /// {doc}\n  static let {name}: [UInt32] = [\n")
        for start in range(0, len(numbers), 8):
            parts.append("    " + ", ".join(numbers[start : start + 8]) + ",\n")
        parts.append("  ]\n")
    parts.append(FOOTER)
    return "".join(parts)


def main(argv):
    check = argv[1:] == ["--check"]
    if argv[1:] and not check:
        print("usage: Tools/generate-width-tables.py [--check]", file=sys.stderr)
        return 64
    try:
        import importlib.metadata

        version = importlib.metadata.version("wcwidth")
    except importlib.metadata.PackageNotFoundError:
        version = None
    if version != WCWIDTH_VERSION:
        print(
            f"generate-width-tables.py: needs wcwidth {WCWIDTH_VERSION}, found {version or 'none'}: "
            f"run it with .build/oracles/bin/python3 (scripts/test installs it there)",
            file=sys.stderr,
        )
        return 3
    text = render()
    path = os.path.normpath(TARGET)
    if check:
        with open(path, encoding="utf-8") as f:
            committed = f.read()
        if committed == text:
            print("width tables are up to date")
            return 0
        sys.stdout.writelines(
            difflib.unified_diff(
                committed.splitlines(True), text.splitlines(True), "committed WidthTables.swift", "generated"
            )
        )
        print(
            "Sources/ExpenseRender/Layout/WidthTables.swift differs from what wcwidth generates: "
            "run Tools/generate-width-tables.py",
            file=sys.stderr,
        )
        return 1
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
