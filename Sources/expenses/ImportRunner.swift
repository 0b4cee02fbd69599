import ExpenseCore
import ExpenseImport
import ExpenseRender
import ExpenseStore
import Foundation

/// Runs one file through import → categorize → store, in one transaction, and counts what
/// happened. Shared by `import` and `demo`.
struct ImportRunner {
  var database: AppDatabase
  var terminal: TerminalEnvironment
  /// How many excluded/rejected/duplicate rows the summary explains one by one.
  var detailLimit = 20
  /// When the import runs, kept in its record (`expenses imports`); read from the clock by the
  /// command, never by the store.
  var importedAt: Date?
  /// How many rows a dry run lists (a dry run of a million rows prints a capped listing).
  var previewLimit = 50

  func run(
    path: String, options: ImportOptions, skipInvalid: Bool, rejectsPath: String?, forceRejects: Bool = false,
    dryRun: Bool, showProgress: Bool
  ) throws -> ImportSummary {
    do {
      return try runChecked(
        path: path, options: options, skipInvalid: skipInvalid, rejectsPath: rejectsPath, forceRejects: forceRejects,
        dryRun: dryRun, showProgress: showProgress)
    } catch let overflow as TotalOverflow {
      let location = overflow.line.map { "\(path):\($0)" } ?? path
      throw CLIFailure(
        message:
          "\(TerminalText.sanitize(location)): \(overflow.description)\n  hint: an amount this large is almost always a misread column or decimal mark; check the file",
        code: SysExit.dataError)
    }
  }

  private func runChecked(
    path: String, options: ImportOptions, skipInvalid: Bool, rejectsPath: String?, forceRejects: Bool = false,
    dryRun: Bool, showProgress: Bool
  ) throws -> ImportSummary {
    let started = DispatchTime.now().uptimeNanoseconds
    let defaultCurrency = try database.defaultCurrency()
    let importer = try CSVImporter(path: path, options: options, defaultCurrency: defaultCurrency)
    let dialect = try importer.detect()
    let matcher = RuleMatcher(rules: try database.rules())
    // One name per category: each distinct category cell is mapped once, on the parse thread.
    let names = NamesOnParseThread(try database.categoryNames())
    importer.categoryName = { names.value.canonical($0) }
    var summary = ImportSummary(file: path == "-" ? "<stdin>" : path)
    summary.dialect = "\(dialect)"
    summary.detected = dialect
    let rejects = try rejectsPath.map {
      try RejectsWriter(path: $0, force: forceRejects, database: database.path, input: path)
    }
    var committed = false
    defer { if !committed { rejects?.discard() } }
    let progress = ProgressBar(
      enabled: showProgress, width: TerminalEnvironment.columns(of: STDERR_FILENO) ?? 80,
      ascii: !terminal.localeIsUTF8)
    defer { progress.finish() }
    let fileName = path == "-" ? "<stdin>" : (path as NSString).lastPathComponent

    // Parsing, rule matching and cutting rows into sorted batches run on their own thread;
    // this one only stores.
    let pipeline = ImportPipeline<Parsed>(chunkSize: 1, depth: 8)  // a batch is ~1,024 rows: at most 8 in flight
    let shared = Unchecked((importer, progress))
    pipeline.start { emit in
      let (importer, progress) = shared.value
      var batcher = ImportBatcher(names: nil)  // rows carry their stored spelling already
      var rules: [Int: Int64] = [:]  // line -> rule that categorized it, for a dry run's preview
      try importer.run(
        skipInvalid: skipInvalid,
        progress: { progress.update(bytes: $0.bytesRead, total: $0.totalBytes, rows: $0.rows) }
      ) { event in
        guard case .row(let row) = event else { return try emit(.event(event)) }
        var category = row.category
        var source = CategorySource.file
        if category == nil {
          if let rule = matcher.match(description: row.description, account: row.account) {
            category = rule.category
            source = .rule
            if dryRun { rules[row.line] = rule.id }
          } else if let pattern = TransferPatterns.category(description: row.description) {
            // A built-in pattern is a rule the user did not write: `rules apply` may re-sort it.
            category = names.value.canonical(pattern)
            source = .rule
          }
        }
        let stored = ImportRow(
          date: row.date, amount: row.amount, description: row.description, category: category,
          account: row.account, fingerprintHash: row.fingerprintHash, line: row.line, categorySource: source)
        if let batch = try batcher.add(stored) {
          try emit(.batch(batch, rules: rules))
          rules.removeAll()
        }
      }
      if let batch = try batcher.finish() { try emit(.batch(batch, rules: rules)) }
    }
    defer { pipeline.finish() }

    let session = try database.importFile(
      sourceFile: fileName, dryRun: dryRun, explainLimit: detailLimit, importedAt: importedAt
    ) { session in
      var rules: [Int: Int64] = [:]
      if dryRun {
        session.onOutcome = { row, outcome in
          guard summary.preview.count < previewLimit else { return }
          summary.preview.append(
            .init(
              line: row.line, date: row.date, amount: row.amount, description: row.description,
              category: row.category, ruleID: rules[row.line], duplicate: outcome == .duplicate))
        }
      }
      while let chunk = try pipeline.next() {
        for parsed in chunk {
          switch parsed {
          case .batch(let batch, let batchRules):
            if dryRun { rules = batchRules }
            try session.write(batch)
          case .event(.row):
            break  // rows travel in batches
          case .event(.excluded(let line, let reason)):
            summary.excluded += 1
            if summary.excludedDetails.count < detailLimit {
              summary.excludedDetails.append(.init(line: line, reason: reason))
            }
          case .event(.rejected(let issue)):
            summary.rejected += 1
            if summary.rejectedDetails.count < detailLimit { summary.rejectedDetails.append(issue.description) }
            try rejects?.write(issue)
          case .event(.warning(let message)):
            summary.warnings.append(message)
          }
        }
      }
      if session.inserted + session.duplicates == 0 && summary.excluded > 0 && summary.rejected == 0 {
        // Exit 0 with nothing imported reads as success; say why instead.
        let reasons = summary.excludedDetails.prefix(3).map { "line \($0.line): \($0.reason)" }
        throw CLIFailure(
          message:
            "\(TerminalText.sanitize(path)): every row was excluded (\(summary.excluded)), nothing to import; "
            + TerminalText.sanitize(reasons.joined(separator: "; "))
            + "\n  hint: check the status or date column, or use --skip-when to choose what is excluded",
          code: SysExit.dataError)
      }
      return session
    }
    summary.new = session.inserted
    summary.importId = dryRun ? nil : session.recordID
    summary.duplicates = session.duplicates
    summary.duplicateDetails = session.explained
    try rejects?.commit()
    committed = true
    summary.seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    return summary
  }
}

/// What the parse thread hands over: a batch of rows ready to store (and, in a dry run, which
/// rule categorized which line), or any other import event.
enum Parsed {
  case batch(PreparedBatch, rules: [Int: Int64])
  case event(ImportEvent)
}

/// The category spellings, used (and learnt from) only by the parse thread.
final class NamesOnParseThread: @unchecked Sendable {
  var value: CategoryNames
  init(_ value: CategoryNames) { self.value = value }
}

/// Hands values that are only ever used by one thread at a time to the parse thread.
struct Unchecked<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

/// Writes rejected rows and their reasons as CSV: line, column, value, message, hint and the
/// record as the file held it, through a checked `OutputFile` (never the database, the input
/// or an existing file), renamed into place only when the import has committed.
struct RejectsWriter {
  let file: OutputFile

  init(path: String, force: Bool, database: String, input: String) throws {
    file = try OutputFile(path: path, force: force, database: database, inputs: [input])
    try file.write("line,column,value,message,hint,record\n")
  }

  func write(_ issue: ImportIssue) throws {
    let column = issue.columnName ?? issue.column.map(String.init) ?? ""
    let fields = [String(issue.line), column, issue.rawValue, issue.message, issue.hint, issue.record ?? ""]
    try file.write(fields.map(RejectsWriter.quote).joined(separator: ",") + "\n")
  }

  func commit() throws { try file.commit() }

  func discard() { file.discard() }

  static func quote(_ field: String) -> String {
    guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
    return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
