import ExpenseService
import Testing

/// The importer's hints as each front end words them: the command line keeps its flags, the
/// API names its query parameters (`openapi.yaml`), so the advice in a problem can be followed.
@Suite struct ImportWordingTests {
  @Test(arguments: [
    (
      "say which with --spending positive (charges are positive) or --spending negative (charges are negative)",
      "say which with spending=positive (charges are positive) or spending=negative (charges are negative)"
    ),
    (
      "say which with --date-format DD/MM/YYYY or --date-format MM/DD/YYYY",
      "say which with dateFormat=DD/MM/YYYY or dateFormat=MM/DD/YYYY"
    ),
    ("say which with --decimal-mark . or --decimal-mark ,", "say which with decimalMark=. or decimalMark=,"),
    (
      "give the format with --date-format, e.g. --date-format DD.MM.YYYY",
      "give the format with the dateFormat parameter, e.g. dateFormat=DD.MM.YYYY"
    ),
    ("drop --currency to use EUR", "drop the currency parameter to use EUR"),
    ("say which with --currency EUR or --currency GBP", "say which with currency=EUR or currency=GBP"),
    (
      "name it with --column NAME=date, or give all roles with --columns",
      "name it with column=NAME=date, or give all roles with the columns parameter"
    ),
    ("e.g. --columns date,description,amount", "e.g. columns=date,description,amount"),
    (
      "the file may be damaged; --skip-invalid skips the row", "the file may be damaged; skipInvalid=true skips the row"
    ),
    ("--replace-invalid keeps the row", "replaceInvalid=true keeps the row"),
    ("line 2: --skip-when Status=pending", "line 2: skipWhen=Status=pending"),
    ("use --encoding to override", "use the encoding parameter to override"),
    ("or use --skip-lines if it only has a preamble", "or use the skipLines parameter if it only has a preamble"),
    // Not the import's options: kept.
    ("add --force to replace it; set --width", "add --force to replace it; set --width"),
  ])
  func theAPINamesItsParameters(_ cli: String, _ api: String) {
    #expect(ImportFrontEnd.api.word(cli) == api)
    #expect(ImportFrontEnd.commandLine.word(cli) == cli)
  }

  @Test func aBadFlagIsNamedAsEachFrontEndSpellsIt() {
    var raw = RawImportFlags()
    raw.decimalMark = ";"
    do {
      _ = try ImportFlags.parse(raw)
      Issue.record("';' was taken as a decimal mark")
    } catch {
      #expect(error.message(for: ImportFrontEnd.commandLine) == "--decimal-mark must be '.' or ','")
      #expect(error.message(for: ImportFrontEnd.api) == "'decimalMark' must be '.' or ','")
    }
  }
}
