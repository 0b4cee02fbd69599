import ExpenseCore
import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Reads an ISO 20022 bank-to-customer statement (CAMT.053, `BkToCstmrStmt`), versions
/// .001.02 through .001.13, one `Stmt` after another; each booked `Ntry` becomes an entry (a
/// batch entry whose `TxDtls` carry their own amounts becomes one entry per detail), and
/// entries that are not booked (`PDNG`, `INFO`, …) are reported as excluded.
///
/// Why FoundationXML's `XMLParser`: it is the XML parser the toolchain ships on Linux and macOS
/// (libxml2 underneath), so the package needs no other dependency; it is used as a SAX parser
/// over an `InputStream` (`XMLGuardStream`) fed from the `ByteSource`, so the file streams and
/// memory stays at one entry whatever the file's size. The raw bytes are handed over
/// untranscoded: the parser honours the encoding the XML declaration names.
///
/// Elements are matched on their local names (any prefix), so the versions' namespaces all
/// read alike; the version the namespace names is reported in `settings`. A file declaring a
/// DTD or entities is refused before the parser sees the declaration (see `XMLGuardStream`).
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
    let stream = XMLGuardStream(source: source, file: file)
    let parser = XMLParser(stream: stream)
    parser.shouldProcessNamespaces = true
    parser.shouldReportNamespacePrefixes = false
    parser.shouldResolveExternalEntities = false
    parser.externalEntityResolvingPolicy = .never
    let handler = CAMTHandler(file: file, options: options, defaultCurrency: defaultCurrency)
    withoutActuallyEscaping(body) { body in
      handler.body = body
      handler.parser = parser
      parser.delegate = handler
      _ = parser.parse()
      parser.delegate = nil
      handler.body = nil
      handler.parser = nil
    }
    settings = handler.settings
    if let failure = stream.failure { throw failure }
    if let failure = handler.failure { throw failure }
    if let (line, code) = handler.xmlError {
      throw ImportError.undetectable(
        file: file, message: "the XML is not well formed at line \(line): \(CAMTHandler.describe(xmlError: code))",
        hint: "the file is damaged or cut short; export the statement again from the bank")
    }
    try handler.finish()
  }
}
