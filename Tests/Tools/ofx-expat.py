#!/usr/bin/env python3
"""The XML oracle of the OFX reader's tests: Python's expat reads OFX 2.x statements.

    ofx-expat.py FILE...

Prints one JSON object per file, one per line:

  {"verdict": "error", "line": N}     expat finds the file not well-formed (N: its line)
  {"verdict": "doctype"}              a document type declaration: the reader refuses every
                                      DTD on purpose (entities could expand), a policy
  {"verdict": "ok", "statements": S, "curdefs": [...], "entries": [...]}

For a well-formed file, S counts the STMTRS and CCSTMTRS elements, curdefs holds each one's
CURDEF (null when it has none), and each entry is a STMTTRN
inside a BANKTRANLIST of a statement and not in a PENDINGTRNLIST, in document order, with the
values read from its children as OFX 2.x defines them (never with the reader's code):

  line      the line of its start tag, as expat counts it
  date      DTPOSTED's day as YYYY-MM-DD when its first 8 characters are a real day, else null
  strict    whether all of DTPOSTED is OFX's datetime syntax, YYYYMMDD[HHMMSS[.XXX]][[gmt:TZ]]
  amount    TRNAMT as a plain decimal ("-12.5", "0"; "." or "," the decimal mark), else null
  currency  the transaction's CURRENCY/CURSYM, else its statement's CURDEF, else null
  account   ACCTID of the statement's BANKACCTFROM or CCACCTFROM, else null
  name, payee (PAYEE/NAME), memo, fitid, dtposted, trnamt: the texts, XML white space stripped
            from their ends; null when the element is absent

Element names are compared exactly (OFX 2.x is XML: `<name>` is not `<NAME>`), without
namespace processing (OFX declares none).
"""
import datetime
import decimal
import json
import re
import sys
import xml.parsers.expat

DATETIME = re.compile(r"^\d{8}(\d{6}(\.\d{3})?)?(\[[+-]?\d{1,2}(\.\d{1,2})?(:[A-Za-z]{1,10})?\])?$")
AMOUNT = re.compile(r"^[+-]?(\d+([.,]\d*)?|[.,]\d+)$")
STATEMENTS = ("STMTRS", "CCSTMTRS")
WHITE = " \t\r\n"


def day(text):
    if len(text) < 8 or not text[:8].isdigit() or not text[:8].isascii():
        return None
    try:
        return datetime.date(int(text[:4]), int(text[4:6]), int(text[6:8])).isoformat()
    except ValueError:
        return None


def amount(text):
    if not AMOUNT.match(text) or not text.isascii():
        return None
    value = decimal.Decimal(text.replace(",", "."))
    if value == 0:
        return "0"
    return format(value.normalize(), "f")


class Element:
    def __init__(self, name, line):
        self.name = name
        self.line = line
        self.text = []  # character data directly inside, across CDATA sections and comments
        self.children = []

    def child(self, name):
        for c in self.children:
            if c.name == name:
                return c
        return None

    def value(self, name):
        c = self.child(name)
        return None if c is None else "".join(c.text).strip(WHITE)


def read(data):
    parser = xml.parsers.expat.ParserCreate()
    root = Element("", 0)
    stack = [root]
    saw_doctype = []

    def start(name, attributes):
        element = Element(name, parser.CurrentLineNumber)
        stack[-1].children.append(element)
        stack.append(element)

    def end(name):
        stack.pop()

    def text(data):
        stack[-1].text.append(data)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    parser.StartDoctypeDeclHandler = lambda *args: saw_doctype.append(True)
    try:
        parser.Parse(data, True)
    except xml.parsers.expat.ExpatError as error:
        return {"verdict": "doctype"} if saw_doctype else {"verdict": "error", "line": error.lineno}
    except Exception as error:  # an encoding expat does not know, and the like: not read
        return {"verdict": "doctype"} if saw_doctype else {"verdict": "error", "line": 0, "why": type(error).__name__}
    if saw_doctype:
        return {"verdict": "doctype"}
    statements = 0
    entries = []

    def walk(element, path):
        nonlocal statements
        if element.name in STATEMENTS:
            statements += 1
        if element.name == "STMTTRN" and "BANKTRANLIST" in path and "PENDINGTRNLIST" not in path:
            statement = next((e for e in reversed(path_elements) if e.name in STATEMENTS), None)
            if statement is not None:
                entries.append(entry(element, statement))
        path_elements.append(element)
        for c in element.children:
            walk(c, path + [element.name])
        path_elements.pop()

    path_elements = []
    walk(root, [])
    curdefs = []

    def currencies(element):
        if element.name in STATEMENTS:
            curdefs.append(element.value("CURDEF"))
        for c in element.children:
            currencies(c)

    currencies(root)
    return {"verdict": "ok", "statements": statements, "curdefs": curdefs, "entries": entries}


def entry(transaction, statement):
    posted = transaction.value("DTPOSTED")
    trnamt = transaction.value("TRNAMT")
    currency = None
    own = transaction.child("CURRENCY")
    if own is not None:
        currency = own.value("CURSYM")
    if currency is None:
        currency = statement.value("CURDEF")
    account = None
    for holder in ("BANKACCTFROM", "CCACCTFROM"):
        a = statement.child(holder)
        if a is not None and a.value("ACCTID") is not None:
            account = a.value("ACCTID")
            break
    payee = transaction.child("PAYEE")
    return {
        "line": transaction.line,
        "dtposted": posted,
        "date": None if posted is None else day(posted),
        "strict": posted is not None and bool(DATETIME.match(posted)) and posted.isascii(),
        "trnamt": trnamt,
        "amount": None if trnamt is None else amount(trnamt),
        "currency": currency,
        "account": account,
        "name": transaction.value("NAME"),
        "payee": None if payee is None else payee.value("NAME"),
        "memo": transaction.value("MEMO"),
        "fitid": transaction.value("FITID"),
    }


for path in sys.argv[1:]:
    with open(path, "rb") as f:
        print(json.dumps(read(f.read()), ensure_ascii=True))
