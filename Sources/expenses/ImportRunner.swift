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

  func run(
    path: String, options: ImportOptions, skipInvalid: Bool, rejectsPath: String?, dryRun: Bool,
    showProgress: Bool
  ) throws -> ImportSummary {
    let started = DispatchTime.now().uptimeNanoseconds
    let defaultCurrency = try database.defaultCurrency()
    let importer = try CSVImporter(path: path, options: options, defaultCurrency: defaultCurrency)
    let dialect = try importer.detect()
    let matcher = RuleMatcher(rules: try database.rules())
    var summary = ImportSummary(file: path)
    summary.dialect = "\(dialect)"
    var rejects = try rejectsPath.map { try RejectsWriter(path: $0) }
    let progress = ProgressBar(
      enabled: showProgress, width: TerminalEnvironment.columns(of: STDERR_FILENO) ?? 80,
      ascii: !terminal.localeIsUTF8)
    defer { progress.finish() }
    let fileName = (path as NSString).lastPathComponent

    // Parsing (and rule matching) runs on its own thread while this one stores the rows.
    let pipeline = ImportPipeline<Parsed>()
    let shared = Unchecked((importer, progress))
    pipeline.start { emit in
      let (importer, progress) = shared.value
      try importer.run(
        skipInvalid: skipInvalid,
        progress: { progress.update(bytes: $0.bytesRead, total: $0.totalBytes, rows: $0.rows) }
      ) { event in
        guard case .row(let row) = event, row.category == nil,
          let rule = matcher.match(description: row.description, account: row.account)
        else { return try emit(Parsed(event: event)) }
        try emit(Parsed(event: event, ruleCategory: rule.category, ruleID: rule.id))
      }
    }
    defer { pipeline.finish() }

    let session = try database.importFile(sourceFile: fileName, dryRun: dryRun, explainLimit: detailLimit) { session in
      // Outcomes arrive in file order when each batch is written; the preview rows were queued
      // in the same order.
      var previewed = 0
      if dryRun {
        session.onOutcome = { _, outcome in
          summary.preview[previewed].duplicate = outcome == .duplicate
          previewed += 1
        }
      }
      while let chunk = try pipeline.next() {
        for parsed in chunk {
          switch parsed.event {
          case .row(let row):
            let category = row.category ?? parsed.ruleCategory
            let ruleID = parsed.ruleID
            if dryRun {
              summary.preview.append(
                .init(
                  line: row.line, date: row.date, amount: row.amount, description: row.description,
                  category: category, ruleID: ruleID, duplicate: false))
            }
            try session.insert(
              date: row.date, amount: row.amount, description: row.description, category: category,
              account: row.account, fingerprintHash: row.fingerprintHash, line: row.line)
          case .excluded(let line, let reason):
            summary.excluded += 1
            if summary.excludedDetails.count < detailLimit {
              summary.excludedDetails.append(.init(line: line, reason: reason))
            }
          case .rejected(let issue):
            summary.rejected += 1
            if summary.rejectedDetails.count < detailLimit { summary.rejectedDetails.append(issue.description) }
            try rejects?.write(issue)
          case .warning(let message):
            summary.warnings.append(message)
          }
        }
      }
      return session
    }
    summary.new = session.inserted
    summary.duplicates = session.duplicates
    summary.duplicateDetails = session.explained
    try rejects?.close()
    summary.seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    return summary
  }
}

/// One parsed event and the rule that categorized it, if any (rules run on the parse thread).
struct Parsed {
  var event: ImportEvent
  var ruleCategory: String?
  var ruleID: Int64?
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
