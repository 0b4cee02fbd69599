import ExpenseCore

/// Reads an ISO 20022 bank-to-customer statement (CAMT.053, `BkToCstmrStmt`), versions
/// .001.02 through .001.13, one `Stmt` after another; each booked `Ntry` becomes an entry (a
/// batch entry whose `TxDtls` carry their own amounts becomes one entry per detail), and
/// entries that are not booked (`PDNG`, `INFO`, …) are reported as excluded.
///
/// The file streams through `XMLGuardSource` (which refuses a DTD or entity declaration before
/// anything is parsed), `XMLEncoding` (the encoding the file's first bytes or its declaration
/// name, as UTF-8) and `XMLScanner` (well-formed XML, tag by tag); `CAMTHandler` keeps one entry
/// at a time, so memory stays flat whatever the file's size.
///
/// Elements are matched on their local names (any prefix), so the versions' namespaces all
/// read alike; the version the namespace names is reported in `settings`.
public struct CAMT053Reader: StatementReader {
  let file: String
  let options: ImportOptions
  let defaultCurrency: Currency
  public private(set) var settings: [StatementSetting] = []

  public init(file: String, options: ImportOptions, defaultCurrency: Currency) {
    self.file = file
    self.options = options
    self.defaultCurrency = defaultCurrency
  }

  public mutating func read(_ source: any ByteSource, _ body: (StatementEvent) throws -> Void) throws {
    let guarded = XMLGuardSource(source: source, file: file)
    let head = try guarded.readHead()
    var handler = CAMTHandler(file: file, options: options, defaultCurrency: defaultCurrency)
    defer { settings = handler.settings }
    // A file of fewer than four bytes was never parsed (libxml2 starts from four): it holds
    // no statement.
    guard head.count >= 4 else { return try handler.finish(innermost: nil) }
    var scanner = XMLScanner(try XMLEncoding.utf8(guarded, head: head, file: file), file: file)
    try handler.read(&scanner, body)
  }
}
