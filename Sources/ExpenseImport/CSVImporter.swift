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

  struct Pending {
    var line: Int
    var issue: ImportIssue
  }

  /// Streams the whole file. If `skipInvalid` is false, the first bad row throws `ImportError`
  /// (with its `ImportIssue`); if true, bad rows are delivered as `.rejected` and the import
  /// goes on. `progress` is called every 65,536 records and once at the end.
  ///
  /// Rows whose field count does not fit the header and whose date cell has no date are held
  /// back: at the end of the file they are `.excluded` (balance and summary lines); if a good
  /// row follows, they were in the middle of the data and are reported as wrong column count.
  public func run(skipInvalid: Bool, progress: ((ImportProgress) -> Void)?, _ body: (ImportEvent) throws -> Void)
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
    let reader = CSVReader(source: source, delimiter: plan.delimiter, file: displayName)
    var mapper = RowMapper(plan: plan, file: displayName)
    mapper.categoryName = categoryName
    var pending: [Pending] = []
    var records = 0
    var warnedFallback = false
    var replacedLines = 0

    func reject(_ issue: ImportIssue) throws {
      if skipInvalid { try body(.rejected(issue)) } else { throw ImportError.row(issue) }
    }
    /// The issue with the reader's current record attached, when rows are being skipped.
    func withRecord(_ issue: ImportIssue) -> ImportIssue {
      guard skipInvalid else { return issue }
      var issue = issue
      issue.record = RowMapper.record(reader)
      return issue
    }
    func flushPendingAsErrors() throws {
      for p in pending { try reject(p.issue) }
      pending.removeAll()
    }

    while true {
      let more: Bool
      do {
        more = try reader.next()
      } catch {
        try flushPendingAsErrors()
        guard let issue = error.issue else { throw error }
        try reject(issue)
        // The reader has read past a record too long to keep and can go on; other errors end it.
        if issue.kind == .recordTooLong { continue }
        break
      }
      if !more { break }
      records += 1
      if records & 0xFFFF == 0, let progress {
        progress(ImportProgress(bytesRead: fileSource.bytesRead, totalBytes: fileSource.totalBytes, rows: records))
      }
      if reader.line < plan.dataStartLine { continue }
      let count = reader.fieldCount
      if count == 0 || RowMapper.isBlank(reader) { continue }
      if let column = reader.firstField(longerThan: ImportLimits.maxFieldBytes) {
        if !pending.isEmpty { try flushPendingAsErrors() }
        try reject(withRecord(RowMapper.tooLong(reader, column, plan: plan)))
        continue
      }
      if plan.width > 2, count < plan.width || count == 1 {
        let fields = (0..<count).map { reader.string($0) }
        if Detector.isSectionTitle(fields) {
          let title = fields.first { !$0.trimmingASCIIWhitespace().isEmpty } ?? ""
          try body(
            .excluded(
              line: reader.line,
              reason: "a section title (\"\(visibleControlCharacters(String(title.prefix(60))))\"), not a transaction"))
          continue
        }
      }
      if !Detector.fits(count, plan) || (count > plan.width && !RowMapper.extraFieldsEmpty(reader, plan.width)) {
        let dateCell = RowMapper.cell(reader, plan.date)
        let issue = withRecord(
          ImportIssue(
            kind: .wrongColumnCount, file: displayName, line: reader.line, column: nil, columnName: nil,
            rawValue: RowMapper.preview(reader),
            message: "\(count) fields where the header has \(plan.width)",
            hint: "a field with the delimiter in it must be quoted; or the row is not a transaction"))
        if plan.dateFormat.date(dateCell) == nil && pending.count < 10_000 {
          pending.append(Pending(line: reader.line, issue: issue))
        } else {
          try flushPendingAsErrors()
          try reject(issue)
        }
        continue
      }
      let dateCell = RowMapper.cell(reader, plan.date)
      if dateCell.count < 24, dateCell.first.map({ $0 &- 0x30 >= 10 }) == true,
        RowMapper.pendingDates.contains(RowMapper.trimmedLowercase(dateCell))
      {
        if !pending.isEmpty { try flushPendingAsErrors() }
        try body(
          .excluded(
            line: reader.line,
            reason: "pending (\"\(reader.string(plan.date).trimmingASCIIWhitespace())\" in the date column)"))
        continue
      }
      // A fitting row without any date digits after the data is a balance/summary line.
      if !dateCell.contains(where: { $0 &- 0x30 < 10 }) {
        // The header printed again, or an opening/closing balance: announced, not data.
        let fields = (0..<count).map { reader.string($0) }
        if let reason = Detector.repeatsHeader(fields, plan.header)
          ? "repeats the header row" : Detector.isBalanceRow(fields) ? "a balance line, not a transaction" : nil
        {
          try body(.excluded(line: reader.line, reason: reason))
          continue
        }
        let issue = withRecord(
          mapper.issue(.badDate, reader, plan.date, "the date is empty or not a date", "every row needs a date"))
        pending.append(Pending(line: reader.line, issue: issue))
        continue
      }
      // A dated opening or closing balance ("Anfangssaldo", "Closing balance"): announced,
      // never money in or out.
      if !plan.descriptions.isEmpty {
        let text = plan.descriptions.map { reader.string($0).trimmingASCIIWhitespace() }.filter { !$0.isEmpty }
        if text.count == 1, let only = text.first, Detector.balanceLineTexts.contains(only.lowercased()) {
          try body(
            .excluded(
              line: reader.line, reason: "a balance line (\"\(visibleControlCharacters(only))\"), not a transaction"))
          continue
        }
      }
      var outcome = mapper.map(reader)
      if mapper.text.failed {
        // A category or account cell with bytes invalid in the encoding: refused, never emptied.
        mapper.text.failed = false
        if case .row = outcome, let issue = mapper.invalidTextCell(reader) { outcome = .rejected(issue) }
      }
      if skipInvalid, case .rejected(let issue) = outcome { outcome = .rejected(withRecord(issue)) }
      if !pending.isEmpty { try flushPendingAsErrors() }
      for warning in mapper.warnings { try body(.warning(warning)) }
      mapper.warnings.removeAll()
      if mapper.text.replaced {
        mapper.text.replaced = false
        replacedLines += 1
        if replacedLines <= CSVImporter.replacedWarningLimit {
          for column in 0..<count where !isValidUTF8(reader.field(column)) {
            let warning = InvalidText.replacedWarning(
              line: reader.line, column: column + 1, reader.field(column), encoding: plan.encoding)
            try body(.warning(warning))
          }
        }
      }
      if mapper.text.usedFallback && !warnedFallback {
        warnedFallback = true
        try body(.warning("line \(reader.line) is not valid UTF-8; such fields are read as Windows-1252"))
      }
      if !skipInvalid, case .rejected(let issue) = outcome { throw ImportError.row(issue) }
      try body(outcome)
    }
    for p in pending { try body(.excluded(line: p.line, reason: "not a transaction row (after the data)")) }
    if replacedLines > CSVImporter.replacedWarningLimit {
      let more = replacedLines - CSVImporter.replacedWarningLimit
      try body(.warning("invalid UTF-8 replaced with U+FFFD on \(more) more line\(more == 1 ? "" : "s")"))
    }
    if source.dropped > 0 {
      let unit: Int64 = plan.encoding == .utf16le || plan.encoding == .utf16be ? 2 : 1
      try body(.warning(NULPadding.warning(source.dropped * unit)))
    }
    progress?(ImportProgress(bytesRead: fileSource.bytesRead, totalBytes: fileSource.totalBytes, rows: records))
  }
}
