import ExpenseCore
import ExpenseImport
import ExpenseStore
import Foundation

/// Runs one file through import → categorize → store, in one transaction, and counts what
/// happened: what `import`, `demo`, `import --preview` and `POST /v1/imports` all call.
///
/// Parsing, rule matching and cutting rows into sorted batches run on their own thread; the
/// calling thread only stores. A failure anywhere rolls the whole file back.
public struct ImportService {
  public var store: any LedgerStore
  /// The files a `--rejects` file must not be: every database the caller knows.
  public var protected: ProtectedFiles

  public init(store: any LedgerStore, protected: ProtectedFiles? = nil) {
    self.store = store
    self.protected =
      protected
      ?? {
        var files = ProtectedFiles()
        files.addDatabase(store.filePath, named: "the database")
        return files
      }()
  }

  /// Imports `request`; `progress` (called on the parse thread) sees bytes and rows read.
  public func run(_ request: ImportRequest, progress: (@Sendable (ImportProgress) -> Void)? = nil) throws
    -> ImportSummary
  {
    do {
      return try runChecked(request, progress: progress)
    } catch let overflow as TotalOverflow {
      let location = overflow.line.map { "\(request.displayName):\($0)" } ?? request.displayName
      throw ServiceError.totalTooLarge(location: location, detail: overflow.description)
    }
  }

  private func runChecked(_ request: ImportRequest, progress: (@Sendable (ImportProgress) -> Void)?) throws
    -> ImportSummary
  {
    let started = DispatchTime.now().uptimeNanoseconds
    let importer = try FileImporters.open(
      path: request.path, options: request.options, defaultCurrency: try store.defaultCurrency(),
      displayName: request.messageName)
    var dialect = try importer.detect()
    let rules = try store.rules()
    let kinds = try store.categoryKinds()
    // The names the user gave accounts (`accounts rename`): stored instead of the file's,
    // after the fingerprint (which keeps the file's), before the rules (which see the name).
    let accountNames = try store.accountNames()
    // What the stored files cover, for the probable duplicates (read before the import's
    // transaction: a store's reads do not nest in it).
    let records = try store.imports()
    // The statement balances stored before: a file imported again adds none twice.
    let storedBalances = try StatementBalances.load(store).map(\.body)
    let categorizer = RowCategorizer(matcher: RuleMatcher(rules: rules), names: try store.categoryNames())
    // One name per category: each distinct category cell is mapped once, on the parse thread.
    importer.categoryName = { categorizer.canonical($0) }
    var summary = ImportSummary(file: request.displayName)
    summary.dialect = "\(dialect)"
    if request.dryRun { summary.rulePatterns = Dictionary(rules.map { ($0.id, $0.pattern) }) { first, _ in first } }
    summary.detected = dialect
    let rejects = try request.rejectsPath.map {
      try RejectsWriter(
        path: $0, force: request.forceRejects, protected: protected, input: request.path)
    }

    let shared = Unchecked((importer, categorizer))
    let skipInvalid = request.skipInvalid
    let dryRun = request.dryRun

    let session = try store.importRows(
      sourceFile: request.storedName, dryRun: request.dryRun, explainLimit: request.detailLimit,
      importedAt: request.importedAt
    ) { session in
      // Parsing starts once the writer holds the ledger: the keys it held then are the ones a
      // row can duplicate, and rows among them are handed over as `.stored`.
      let storedKeys = try session.storedKeysBefore()
      importer.storedKeys = storedKeys
      defer { session.closeStoredKeys() }
      let pipeline = ImportPipeline<ParsedBatch>(chunkSize: 1, depth: 8)  // a batch is ~1,024 rows: at most 8 in flight
      pipeline.start { emit in
        let (importer, categorizer) = shared.value
        var batcher = ImportBatcher(names: nil)  // rows carry their stored spelling already
        // In a dry run, which rule categorized which row of the batch being gathered (the preview).
        var batchRules: [Int: Int64] = [:]
        // Stored rows since the last batch, handed over before it (or in chunks of 4,096).
        var stored: [StoredRow] = []
        try importer.run(skipInvalid: skipInvalid, progress: progress) { event in
          // The event is taken, not borrowed, so its row moves into the batch: matching a
          // borrowed event copied the row, a retain and a release per text of every row.
          var row: ImportedRow
          switch consume event {
          case .row(let taken): row = taken
          case .stored(let taken):
            stored.append(consume taken)
            if stored.count == 4096 {
              try emit(.stored(stored))
              stored.removeAll(keepingCapacity: true)
            }
            return
          case let other: return try emit(.event(other))
          }
          if !accountNames.isEmpty, let account = row.account, let name = accountNames[account] { row.account = name }
          let rule = categorizer.categorize(&row)
          let line = row.line
          // The row closes the batch before it and opens the next, where its rule belongs.
          if let batch = try batcher.add(row) {
            if !stored.isEmpty {
              try emit(.stored(stored))
              stored.removeAll(keepingCapacity: true)
            }
            try emit(.batch(batch, rules: batchRules))
            batchRules.removeAll()
          }
          if dryRun, let rule { batchRules[line] = rule }
        }
        if !stored.isEmpty { try emit(.stored(stored)) }
        if let batch = try batcher.finish() { try emit(.batch(batch, rules: batchRules)) }
      }
      // Stops the parse thread (on an error, before it ends) before the stored keys close.
      defer { pipeline.finish() }
      var rules: [Int: Int64] = [:]
      var balances: [StatementBalance] = []
      let collector = MatchCollector(
        storedSpan: session.storedSpan, matching: ImportMatching(file: request.storedName, kinds: kinds))
      session.onBatchWritten = { batch, isNew in collector.see(batch, isNew: isNew) }
      if request.dryRun {
        session.onOutcome = { row, outcome in
          guard summary.preview.count < request.previewLimit else { return }
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
            rules = batchRules
            try session.write(batch)
          case .stored(let rows):
            try session.recordStored(rows)
            for row in rows { collector.seeStored(row) }
          case .event(let event):
            if case .balance(var balance) = event {
              // Under the account's name, as its rows are stored, and the file as recorded.
              if let account = balance.account, let name = accountNames[account] { balance.account = name }
              balance.file = request.storedName
              balances.append(balance)
              summary.balanceAccounts.insert(balance.account)
            }
            try summary.record(event, rejects: rejects, detailLimit: request.detailLimit)
          }
        }
        pipeline.giveBack(chunk)
      }
      try session.storeWritten()
      for balance in StatementBalances.new(balances, stored: storedBalances) {
        let body = StatementBalances.Body(
          balance: balance, importedAt: request.importedAt.map(ImportRecord.timestamp))
        try session.addRecord(kind: StatementBalances.records.name, body: try StatementBalances.records.encoded(body))
      }
      try match(
        collector, session: session, request: request, kinds: kinds, records: records,
        transfers: categorizer.canonical(transfersName) ?? transfersName, summary: &summary)
      // A statement's transfers between own accounts: their categories are transfers.
      let transfers = importer.transferCategories
      if !transfers.isEmpty && !request.dryRun { try session.markTransfers(transfers) }
      if session.inserted + session.duplicates == 0 && summary.excluded > 0 && summary.rejected == 0 {
        throw ServiceError.everyRowExcluded(
          file: request.displayName, count: summary.excluded,
          reasons: summary.excludedDetails.prefix(3).map { "line \($0.line): \($0.reason)" })
      }
      // The profile `--save-profile` names is saved with the rows: both or neither.
      if let name = request.saveProfileAs, !request.dryRun {
        try session.saveProfile(name: name, json: try request.options.profileJSON())
      }
      // The import is a change of the history, recorded with its rows: `undo` removes it.
      if !request.dryRun, session.inserted > 0, let at = request.importedAt.map(ImportRecord.timestamp) {
        let entry = History.Entry(
          action: "import", summary: "import \(request.storedName): \(session.inserted) rows",
          by: request.changedBy ?? DirectoryName.localUser, at: at, undoes: nil, rows: session.inserted,
          effect: nil, inline: .importedFile(file: request.storedName, at: at))
        try session.addRecord(kind: History.changes.name, body: try History.changes.encoded(entry))
      }
      return session
    }
    // A statement reader's settings (account, currency, version) are known once it has read.
    if dialect.format != .csv {
      dialect = try importer.detect()
      summary.dialect = "\(dialect)"
      summary.detected = dialect
      // The statement states its currency (or each entry's): the reader's setting says which.
      let stated = dialect.settings.first { $0.name == "currency" }
      summary.currency = stated?.value
      summary.currencyReason = stated?.source
    }
    summary.new = session.inserted
    summary.lastDate = session.lastDate
    summary.importId = request.dryRun ? nil : session.recordID
    summary.duplicates = session.duplicates
    summary.duplicateDetails = session.explained
    try rejects?.commit()
    summary.seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    return summary
  }
}

/// What the parse thread hands over: a batch of rows ready to store (and, in a dry run, which
/// rule categorized which line), or any other import event.
enum ParsedBatch {
  case batch(PreparedBatch, rules: [Int: Int64])
  /// Rows whose keys the ledger held (`StoredKeys`): duplicates, in file order.
  case stored([StoredRow])
  case event(ImportEvent)
}

/// Hands values that are only ever used by one thread at a time to the parse thread.
struct Unchecked<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
