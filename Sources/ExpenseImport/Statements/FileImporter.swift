import ExpenseCore

/// Reads one statement file of any format into import events: what `ImportService` drives.
/// `CSVImporter` is one; `StatementImporter` (OFX, QIF, CAMT.053, MT940) the other.
public protocol FileImporter: AnyObject {
  /// The name errors use (the path, `<stdin>`, or an upload's own name).
  var displayName: String { get }
  /// Maps each category as read to the spelling to store; called on the parsing thread.
  var categoryName: ((String) -> String?)? { get set }
  /// The keys the ledger held before the import (see `StoredKeys`): a reader that asks them
  /// hands over rows among them as `.stored`. A reader that does not ask ignores them.
  var storedKeys: (any StoredKeys)? { get set }
  /// The settings the import uses and where each came from. For a statement format, what the
  /// reader found in the file is complete once `run` has returned.
  func detect() throws(ImportError) -> DetectedDialect
  /// Streams the whole file's events in file order (see `CSVImporter.run`).
  func run(skipInvalid: Bool, progress: ((ImportProgress) -> Void)?, _ body: ImportEventHandler)
    throws
  /// Categories (as stored) that hold transfers between the user's own accounts, known once
  /// `run` has returned: the import gives them the kind transfer where they have none.
  var transferCategories: Set<String> { get }
}

extension FileImporter {
  /// Statement readers hand over every row whole (their files are small).
  public var storedKeys: (any StoredKeys)? {
    get { nil }
    set {}
  }
}

extension CSVImporter {
  /// A CSV file states no transfers (a category's kind is set with `categories kind`).
  public var transferCategories: Set<String> { [] }
}

/// Chooses the importer for a file by its content.
public enum FileImporters {
  /// The importer for `path` (`-` is standard input, sampled once and handed over): a CSV
  /// importer unless the first bytes are OFX, QIF, CAMT.053 or MT940.
  public static func open(path: String, options: ImportOptions, defaultCurrency: Currency, displayName: String? = nil)
    throws(ImportError) -> any FileImporter
  {
    let name = displayName ?? (path == "-" ? "<stdin>" : path)
    let source = path == "-" ? FileSource(standardInput: ()) : try FileSource(path: path)
    let (sample, truncated) = try CSVImporter.readSample(source)
    let format = StatementFormat.sniff(sample)
    if format == .csv {
      let importer = try CSVImporter(path: path, options: options, defaultCurrency: defaultCurrency, displayName: name)
      if path == "-" { importer.adopt(standardInput: source, sample: sample) }
      return importer
    }
    return StatementImporter(
      path: path, format: format, options: options, defaultCurrency: defaultCurrency, displayName: name,
      sample: sample, truncated: truncated, standardInput: path == "-" ? source : nil)
  }
}
