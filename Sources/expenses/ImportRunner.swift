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

  func run(
    path: String, options: ImportOptions, skipInvalid: Bool, rejectsPath: String?, dryRun: Bool,
    showProgress: Bool
  ) throws -> ImportSummary {
    let started = DispatchTime.now().uptimeNanoseconds
    let defaultCurrency = try database.defaultCurrency()
    let importer = try CSVImporter(path: path, options: options, defaultCurrency: defaultCurrency)
    let dialect = try importer.detect()
    let matcher = RuleMatcher(rules: try database.rules())
    // One name per category: each distinct category cell is mapped once, on the parse thread.
    let names = NamesOnParseThread(try database.categoryNames())
    importer.categoryName = { names.value.canonical($0) }
    var summary = ImportSummary(file: path)
    summary.dialect = "\(dialect)"
    var rejects = try rejectsPath.map { try RejectsWriter(path: $0) }
    let progress = ProgressBar(
      enabled: showProgress, width: TerminalEnvironment.columns(of: STDERR_FILENO) ?? 80,
      ascii: !terminal.localeIsUTF8)
    defer { progress.finish() }
    let fileName = (path as NSString).lastPathComponent

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
        if category == nil, let rule = matcher.match(description: row.description, account: row.account) {
          category = rule.category
          source = .rule
          if dryRun { rules[row.line] = rule.id }
        }
        let stored = ImportRow(
          date: row.date, amount: row.amount, description: row.description, category: category,
          account: row.account, fingerprintHash: row.fingerprintHash, line: row.line, categorySource: source)
        if let batch = batcher.add(stored) {
          try emit(.batch(batch, rules: rules))
          rules.removeAll()
        }
      }
      if let batch = batcher.finish() { try emit(.batch(batch, rules: rules)) }
    }
    defer { pipeline.finish() }

    let session = try database.importFile(
      sourceFile: fileName, dryRun: dryRun, explainLimit: detailLimit, importedAt: importedAt
    ) { session in
      var rules: [Int: Int64] = [:]
      if dryRun {
        session.onOutcome = { row, outcome in
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
      return session
    }
    summary.new = session.inserted
    summary.importId = dryRun ? nil : session.recordID
    summary.duplicates = session.duplicates
    summary.duplicateDetails = session.explained
    try rejects?.close()
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

/// Writes rejected rows and their reasons as CSV: line, column, value, message, hint.
struct RejectsWriter {
  let handle: FileHandle

  init(path: String) throws {
    guard FileManager.default.createFile(atPath: path, contents: nil) else {
      throw CLIFailure(message: "cannot write rejects file \(path)", code: SysExit.ioError)
    }
    handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    handle.write(Data("line,column,value,message,hint\n".utf8))
  }

  mutating func write(_ issue: ImportIssue) throws {
    let column = issue.columnName ?? issue.column.map(String.init) ?? ""
    let fields = [String(issue.line), column, issue.rawValue, issue.message, issue.hint]
    handle.write(Data((fields.map(RejectsWriter.quote).joined(separator: ",") + "\n").utf8))
  }

  func close() throws { try handle.close() }

  static func quote(_ field: String) -> String {
    guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
    return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
