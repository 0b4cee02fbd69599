#!/usr/bin/env python3
"""The XML oracle of the CAMT reader's tests: Python's expat (the C parser most tools use).

    xml-well-formed.py FILE...

Prints one line per file: "ok" when expat reads it as well-formed XML, else "error LINE"
(the line expat names). A document type declaration is reported as "doctype": the importer
refuses every DTD on purpose (entities could expand), so its verdict there is a policy, not
well-formedness.
"""
import sys
import xml.parsers.expat

for path in sys.argv[1:]:
    data = open(path, "rb").read()
    # With namespace processing: an undeclared prefix is an error, as in the importer.
    parser = xml.parsers.expat.ParserCreate(namespace_separator=" ")
    saw_doctype = []
    parser.StartDoctypeDeclHandler = lambda *args: saw_doctype.append(True)
    try:
        parser.Parse(data, True)
        print("doctype" if saw_doctype else "ok")
    except xml.parsers.expat.ExpatError as error:
        print("doctype" if saw_doctype else f"error {error.lineno}")
    except Exception as error:  # an encoding expat does not know, and the like: not read
        print("doctype" if saw_doctype else f"error 0 {type(error).__name__}")
