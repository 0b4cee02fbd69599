#!/usr/bin/env python3
"""Records what the build before stored for every import fixture: the oracle of
`PreviousReleaseTests` ("nothing already imported comes in twice").

    Tools/previous-release/record.py BINARY REVISION

BINARY is an `expenses` built from REVISION (the release users have). Each fixture in
Fixtures/import (good ones, with NAME.options.json as flags), Fixtures/statements and
Fixtures/accounts is imported by BINARY into a fresh database; the keys of the rows it stored
(the identity a re-import compares) are written to Fixtures/previous-release/keys.json with the
options used. A fixture the build before refused is left out. Needs sqlite3.
"""
import json, os, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
binary, revision = sys.argv[1], sys.argv[2]
# Options a statement fixture needs that its file does not say (the reader tests pass them too).
statement_options = {"qif/de_giro_comma.qif": {"dateFormat": "DD.MM.YYYY"}}


def flags(options):
    out = []
    for key, value in sorted(options.items()):
        flag = "--" + "".join("-" + c.lower() if c.isupper() else c for c in key)
        if isinstance(value, bool):
            if value:
                out.append(flag)
            continue
        out += [flag, ",".join(value) if isinstance(value, list) else str(value)]
    return out


def fixtures():
    folder = os.path.join(root, "Fixtures/import")
    for name in sorted(os.listdir(folder)):
        if name.endswith(".csv") and not name.startswith(("bad_", "refuse_")):
            path = os.path.join(folder, name[:-4] + ".options.json")
            yield "import/" + name, json.load(open(path)) if os.path.exists(path) else {}
    for kind in sorted(os.listdir(os.path.join(root, "Fixtures/statements"))):
        for name in sorted(os.listdir(os.path.join(root, "Fixtures/statements", kind))):
            yield "statements/" + kind + "/" + name, statement_options.get(kind + "/" + name, {})
    for name in sorted(os.listdir(os.path.join(root, "Fixtures/accounts"))):
        yield "accounts/" + name, {}


recorded = {"revision": revision, "fixtures": {}}
for fixture, options in fixtures():
    with tempfile.TemporaryDirectory() as scratch:
        db = os.path.join(scratch, "before.sqlite")
        run = subprocess.run(
            [binary, "import", os.path.join(root, "Fixtures", fixture), "--db", db, "--format", "json"] + flags(options),
            capture_output=True, text=True)
        if run.returncode != 0:
            print(f"left out {fixture}: exit {run.returncode}", file=sys.stderr)
            continue
        keys = subprocess.run(["sqlite3", db, "SELECT key FROM expenseRow ORDER BY key"], capture_output=True,
                              text=True, check=True).stdout.split()
        recorded["fixtures"][fixture] = {"options": options, "keys": [int(k) for k in keys]}
json.dump(recorded, open(os.path.join(root, "Fixtures/previous-release/keys.json"), "w"), indent=1, sort_keys=True)
print(f"{len(recorded['fixtures'])} fixtures recorded with {revision}")
