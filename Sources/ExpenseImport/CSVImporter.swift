import ExpenseCore

/// Imports one bank CSV file: detects its layout from a sample, then streams every row.
///
/// Memory is bounded by the read buffer (256 KiB), the detection sample (1 MiB, released after
/// detection), one record, the occurrence map of the current date (see `OccurrenceCounter`) and
/// fixed-size caches of repeated cells (`TextCache`, `FieldStringCache`: about 350 KiB with the
/// Strings they keep).
public final class CSVImporter: FileImporter {
  public let path: String
  public let options: ImportOptions
  public let defaultCurrency: Currency
  /// Lines whose replaced bytes (`--replace-invalid`) are warned one by one; the rest are counted.
  static let replacedWarningLimit = 100
  /// How many bytes detection reads.
  public static let sampleSize = 1 << 20
  /// Maps each category cell to the spelling to store (one name per category); called on the
  /// parsing thread once per distinct cell, not per row. `nil` keeps cells as they are.
  public var categoryName: ((String) -> String?)?
  /// The keys the ledger held before the import, asked on the parsing thread: a row among them
  /// is handed over as `.stored` (a duplicate, without its texts). Nil: every row is `.row`.
  public var storedKeys: (any StoredKeys)?
  var plan: Plan?

  /// Checks the file can be opened; throws `.noInput` or `.io`.
  /// The name errors use: the path, or `<stdin>` for `-`, unless the caller names the input
  /// itself (an upload is named by what the client called it, never by its temporary file).
  public let displayName: String
  /// For `-`: standard input, opened once, and the sample detection read from it, replayed
  /// in front of the rest (a pipe cannot be read twice).
  var standardInput: (source: FileSource, sample: [UInt8])?

  public init(path: String, options: ImportOptions, defaultCurrency: Currency, displayName: String? = nil)
    throws(ImportError)
  {
    self.path = path
    self.displayName = displayName ?? (path == "-" ? "<stdin>" : path)
    self.options = options
    self.defaultCurrency = defaultCurrency
    if path != "-" { _ = try FileSource(path: path) }
  }

  /// The layout `run` will use.
  public func detect() throws(ImportError) -> DetectedDialect { try loadPlan().dialect }

  func loadPlan() throws(ImportError) -> Plan {
    if let plan { return plan }
    let sample: [UInt8]
    let truncated: Bool
    if let standardInput {
      (sample, truncated) = (standardInput.sample, standardInput.sample.count == CSVImporter.sampleSize)
    } else {
      let source = path == "-" ? FileSource(standardInput: ()) : try FileSource(path: path)
      (sample, truncated) = try CSVImporter.readSample(source)
      if path == "-" { standardInput = (source, sample) }
    }
    let plan = try Detector(file: displayName, options: options, defaultCurrency: defaultCurrency)
      .detect(sample: sample, truncated: truncated)
    self.plan = plan
    return plan
  }

  /// The first `sampleSize` bytes of `source`, and whether there is more.
  static func readSample(_ source: any ByteSource) throws(ImportError) -> (sample: [UInt8], truncated: Bool) {
    var sample = [UInt8](repeating: 0, count: CSVImporter.sampleSize)
    var filled = 0
    while filled < sample.count {
      let n = try sample.withUnsafeMutableBufferPointer { (p) throws(ImportError) -> Int in
        guard let base = p.baseAddress else { return 0 }
        return try source.read(into: base + filled, capacity: p.count - filled)
      }
      if n == 0 { break }
      filled += n
    }
    let truncated = filled == sample.count
    sample.removeSubrange(filled...)
    return (sample, truncated)
  }

  /// Takes over standard input that `FileImporters.open` already sampled (a pipe is read once).
  func adopt(standardInput source: FileSource, sample: [UInt8]) { standardInput = (source, sample) }

  /// Streams the whole file. If `skipInvalid` is false, the first bad row throws `ImportError`
  /// (with its `ImportIssue`); if true, bad rows are delivered as `.rejected` and the import
  /// goes on. `progress` is called every 65,536 records and once at the end.
  ///
  /// Rows whose field count does not fit the header and whose date cell has no date are held
  /// back: at the end of the file they are `.excluded` (balance and summary lines); if a good
  /// row follows, they were in the middle of the data and are reported as wrong column count.
  public func run(
    skipInvalid: Bool, progress: ((ImportProgress) -> Void)?, _ body: ImportEventHandler
  )
    throws
  {
    let plan = try loadPlan()
    for warning in plan.warnings { try body(.warning(warning)) }
    let fileSource: any ByteSource & ProgressSource
    if let standardInput {
      fileSource = ReplaySource(prefix: standardInput.sample, rest: standardInput.source)
    } else {
      fileSource = try FileSource(path: path)
    }
    let source = TrailingNULSource(try plan.encoding.transcoder(fileSource))
    let rows = CSVImportRun(
      plan: plan, file: displayName, source: source, skipInvalid: skipInvalid, categoryName: categoryName,
      storedKeys: storedKeys)
    var records = 0
    reading: while true {
      switch try rows.next(body) {
      case .end: break reading
      case .skipped: continue
      case .record: break
      }
      records += 1
      if records & 0xFFFF == 0, let progress {
        progress(ImportProgress(bytesRead: fileSource.bytesRead, totalBytes: fileSource.totalBytes, rows: records))
      }
      try rows.take(body)
    }
    try rows.finish(body)
    if source.dropped > 0 {
      let unit: Int64 = plan.encoding == .utf16le || plan.encoding == .utf16be ? 2 : 1
      try body(.warning(NULPadding.warning(source.dropped * unit)))
    }
    progress?(ImportProgress(bytesRead: fileSource.bytesRead, totalBytes: fileSource.totalBytes, rows: records))
  }
}
