// Debian's libuchardet (package libuchardet-dev): the charset detector the importer asks about
// files that are not UTF-8. See Sources/ExpenseImport/Text/Uchardet.swift.
#include <uchardet/uchardet.h>
