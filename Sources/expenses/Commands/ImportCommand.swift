import ArgumentParser
import ExpenseCore
import ExpenseImport
import ExpenseRender
import ExpenseService
import ExpenseStore
import Foundation

/// `expenses import FILE`: reads a bank's CSV export into the database, all or nothing.
struct ImportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Import a statement exported by a bank or app: CSV, OFX/QFX, QIF, CAMT.053 or MT940.",
    discussion: """
      The format is told by the file's content. For a CSV file, detects the encoding, delimiter, header row, column roles, date order and decimal mark from the whole file. The file is imported in one transaction: a bad row stops the import with its file:line:column and nothing is written (or use --skip-invalid). Rows already imported are skipped as duplicates.

      Examples:
        expenses import checking.csv
        expenses import statement.ofx
        expenses import visa.csv --spending positive --account Visa
        expenses import export.csv --date-format DD.MM.YYYY --save-profile mybank
        expenses import export.csv --profile mybank
        expenses import noheader.csv --columns date,description,amount
        expenses import paypal.csv --column Net=amount --dry-run
      """)

  @OptionGroup var database: DatabaseOptions

  @Argument(help: "The CSV file to import ('-' reads standard input).")
  var file: String

  @Option(
    help: "Column roles by position for files without a header: date,description,amount,... ('-' ignores a column).")
  var columns: String?

  @Option(
    name: .customLong("column"), help: "Set the role of one named column, NAME=ROLE (repeatable), e.g. Net=amount.")
  var namedColumns: [String] = []

  @Option(help: "Field separator: , ; tab | (default: detected).")
  var delimiter: String?

  @Option(
    help:
      "Text encoding (default: detected, by uchardet when not UTF-8): utf-8, utf-16le/be, windows-1252, latin1, shift_jis, euc-jp, euc-kr, gb18030, big5, windows-1250/1251, iso-8859-2/15, koi8-r (aliases such as cp1252, sjis, gbk work)."
  )
  var encoding: String?

  @Option(help: "Date format with tokens YYYY YY MM M DD D, e.g. DD.MM.YYYY (default: detected).")
  var dateFormat: String?

  @Option(help: "Decimal mark: . or , (default: detected from every amount).")
  var decimalMark: String?

  @Option(help: "Which sign is money out in a single amount column: negative (default) or positive.")
  var spending: String?

  @Option(help: "Currency for files without a currency column (default: the database's).")
  var currency: String?

  @Option(help: "Account name to store with every row.")
  var account: String?

  @Option(help: "Skip this many lines before the header.")
  var skipLines: Int?

  @Option(name: .customLong("skip-when"), help: "Exclude rows where COLUMN=VALUE (repeatable).")
  var skipWhen: [String] = []

  @Option(help: "Use the options saved under this name.")
  var profile: String?

  @Option(help: "Save these options under a name for the next import from the same bank.")
  var saveProfile: String?

  @Flag(
    help:
      "Keep rows whose text has bytes invalid in the file's encoding, with U+FFFD (�) for them; a warning names each line and column (saved with --save-profile)."
  )
  var replaceInvalid = false

  @Flag(help: "Import the good rows and skip invalid ones (write them to --rejects).")
  var skipInvalid = false

  @Option(help: "With --skip-invalid: write the rejected rows and their reasons to this CSV file.")
  var rejects: String?

  @Flag(help: "Let --rejects replace an existing file (never the database or the input).")
  var force = false

  @Flag(
    help:
      "Add rows that are probably already stored from another file of the account (same amount and payee, dates at most 4 days apart); without it they are listed and left out."
  )
  var keepProbableDuplicates = false

  @Flag(help: "Show what would be imported and which rule matched each row; write nothing.")
  var dryRun = false

  @Flag(
    help:
      "Show how the file will be read (settings and where each came from, the columns, the first rows as stored); write nothing."
  )
  var preview = false

  @Option(help: "With --preview: how many rows to show (default 10).")
  var limit: Int = 10

  @Option(help: "The width the summary, --dry-run and --preview fit (default: $COLUMNS, the terminal, else 80).")
  var width: Int?

  @Option(help: "Summary format: text or json.")
  var format: SummaryFormat = .text

  func validate() throws {
    if limit < 0 { throw ValidationError("--limit must be 0 or more") }
    if let width, width < 20 { throw ValidationError("--width must be at least 20") }
    if rejects != nil && !skipInvalid {
      throw ValidationError("--rejects needs --skip-invalid (without it a bad row stops the import)")
    }
    do { _ = try ImportFlags.parse(rawFlags()) } catch {
      throw ValidationError(error.message(for: .commandLine))
    }
  }

  /// The flags as typed, for the service's one validation (shared with the HTTP API).
  func rawFlags() -> RawImportFlags {
    var raw = RawImportFlags()
    raw.columns = columns
    raw.namedColumns = namedColumns
    raw.delimiter = delimiter
    raw.encoding = encoding
    raw.dateFormat = dateFormat
    raw.decimalMark = decimalMark
    raw.spending = spending
    raw.currency = currency
    raw.account = account
    raw.skipLines = skipLines
    raw.skipWhen = skipWhen
    raw.replaceInvalid = replaceInvalid
    raw.profile = profile
    return raw
  }

  /// The flags given on this command line (checked by `validate`), as the service's
  /// `ImportFlags`: the one mapping of flags over a saved profile, shared with the HTTP API.
  func flags() throws -> ImportFlags { try ImportFlags.parse(rawFlags()) }

  func run() throws {
    let service = try (dryRun || preview ? database.dryRun() : database.importing())
    let options = try service.importOptions(flags())
    if preview { return try printPreview(service, options) }
    var request = ImportRequest(path: file, options: options)
    request.skipInvalid = skipInvalid
    request.rejectsPath = rejects
    request.forceRejects = force
    request.keepProbableDuplicates = keepProbableDuplicates
    request.dryRun = dryRun
    request.saveProfileAs = saveProfile
    let progress = ProgressBar(
      enabled: TerminalEnvironment.isTerminal(STDERR_FILENO),
      width: TerminalEnvironment.columns(of: STDERR_FILENO) ?? 80, ascii: !TerminalEnvironment().localeIsUTF8)
    let summary: ImportSummary
    do {
      defer { progress.finish() }
      summary = try service.importFile(request, progress: progress.callback)
    }
    let width = TerminalEnvironment().width(option: self.width)
    let text =
      format == .json
      ? summary.json() : FittedText.fit(summary.text(dryRun: dryRun, today: service.clock.today()), width: width)
    do {
      let warnings = summary.warningText()
      if format == .text && !warnings.isEmpty { try Console.err(FittedText.fit(warnings, width: width)) }
      try Console.out(text)
      try Console.flush()
    } catch {
      // The rows are in: a script must not read a failed summary as a failed import.
      throw CommittedOutputFailure(
        failure: error,
        committed: dryRun ? nil : "the import of \(TerminalText.sanitize(file)) was committed (\(summary.new) new rows)"
      )
    }
  }
}

/// `--format` of the import summary.
enum SummaryFormat: String, CaseIterable, ExpressibleByArgument {
  case text, json
}
