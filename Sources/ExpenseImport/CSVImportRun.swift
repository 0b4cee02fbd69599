import ExpenseCore

/// One pass of `CSVImporter.run` over a file's records, cut into the stages a record goes
/// through. Each stage looks at the current record and either deals with it (excludes it,
/// rejects it, holds it back, or hands over its row) and returns true, or leaves it to the next
/// stage. The order is the decision: a record is judged by the first stage that claims it.
///
/// Rows whose field count does not fit the header and whose date cell has no date are held
/// back (`held`): at the end of the file they are `.excluded` (balance and summary lines); if a
/// good row follows, they were in the middle of the data and are reported as wrong column count.
///
/// A class, not a struct: it holds the `RowMapper` (about 1.5 KB inline with its plan), and the
/// optimizer copied a struct this size whole around every non-mutating stage it called, once
/// or more per record (18% of the parse thread of a re-import, by `perf`).
final class CSVImportRun {
  /// A record held back, with the issue it is reported with if a good row follows.
  struct Held {
    var line: Int
    var issue: ImportIssue
  }

  /// What reading the next record gave.
  enum Next {
    /// A record to take.
    case record
    /// A record too long to keep, rejected: the reader has read past it and goes on.
    case skipped
    /// The end of the file, or an error that ends the reading (after rejecting it).
    case end
  }

  let plan: Plan
  let file: String
  let skipInvalid: Bool
  let reader: CSVReader
  var mapper: RowMapper
  var held: [Held] = []
  var warnedFallback = false
  /// Lines whose invalid bytes were replaced (`--replace-invalid`).
  var replacedLines = 0
  /// The running balance column's values (`Plan.balanceColumn`): for each account and day, the
  /// first and the last row's in file order, and the first and last dates the rows had (which
  /// say whether the file runs oldest or newest first, so which of the two ends the day).
  var dayBalances: [DayKey: (first: DayBalance, last: DayBalance)] = [:]
  var firstDate: CivilDate?
  var lastDate: CivilDate?
  /// The earliest day of a row left out (pending, declined, reverted) that has a balance: the
  /// bank's running balance counts it from then on where the rows do not, so only the days
  /// before it are kept.
  var excludedWithBalance: CivilDate?

  /// An account's day in one currency: a file of several currencies (Revolut's) runs one
  /// balance per currency.
  struct DayKey: Hashable {
    var account: String?
    var currency: Currency
    var date: CivilDate
  }

  struct DayBalance {
    var line: Int
    var amount: Money
  }

  init(
    plan: Plan, file: String, source: any ByteSource, skipInvalid: Bool, categoryName: ((String) -> String?)?,
    storedKeys: (any StoredKeys)? = nil
  ) {
    self.plan = plan
    self.file = file
    self.skipInvalid = skipInvalid
    reader = CSVReader(source: source, delimiter: plan.delimiter, file: file)
    mapper = RowMapper(plan: plan, file: file)
    mapper.categoryName = categoryName
    mapper.storedKeys = storedKeys
  }

  // MARK: Outcomes

  /// A bad row: an error that stops the import, or with `skipInvalid` a `.rejected` event.
  func reject(_ issue: ImportIssue, _ body: ImportEventHandler) throws {
    if skipInvalid { try body(.rejected(issue)) } else { throw ImportError.row(issue) }
  }

  /// The issue with the reader's current record attached, when rows are being skipped.
  func withRecord(_ issue: ImportIssue) -> ImportIssue {
    guard skipInvalid else { return issue }
    var issue = issue
    issue.record = RowMapper.record(reader)
    return issue
  }

  /// The held records were in the middle of the data: each is a bad row.
  func flushHeldAsErrors(_ body: ImportEventHandler) throws {
    for p in held { try reject(p.issue, body) }
    held.removeAll()
  }

  // MARK: Reading

  /// Reads the next record. A reader error first makes the held records bad rows, then is
  /// rejected itself when it is about a record (else thrown).
  func next(_ body: ImportEventHandler) throws -> Next {
    do {
      return try reader.next() ? .record : .end
    } catch {
      try flushHeldAsErrors(body)
      guard let issue = error.issue else { throw error }
      try reject(issue, body)
      return issue.kind == .recordTooLong ? .skipped : .end
    }
  }

  /// Takes the current record through the stages, in order.
  func take(_ body: ImportEventHandler) throws {
    if reader.line < plan.dataStartLine { return }
    let count = reader.fieldCount
    if count == 0 || RowMapper.isBlank(reader) { return }
    if try refuseLongField(body) { return }
    if try excludeSectionTitle(count: count, body) { return }
    if try holdMisfit(count: count, body) { return }
    let dateCell = RowMapper.cell(reader, plan.date)
    if try excludePendingWord(dateCell, body) { return }
    if try holdUndated(dateCell, count: count, body) { return }
    if try excludeDatedBalanceLine(body) { return }
    try map(count: count, body)
  }

  // MARK: Stages

  /// A field over the limit: the row is refused whatever else it holds (and a held record
  /// before it was in the middle of the data).
  func refuseLongField(_ body: ImportEventHandler) throws -> Bool {
    guard let column = reader.firstField(longerThan: ImportLimits.maxFieldBytes) else { return false }
    if !held.isEmpty { try flushHeldAsErrors(body) }
    try reject(withRecord(RowMapper.tooLong(reader, column, plan: plan)), body)
    return true
  }

  /// A short record of one text and no date in a table of more than two columns: a section
  /// title ("Pending Transactions"), excluded with its text.
  func excludeSectionTitle(count: Int, _ body: ImportEventHandler) throws -> Bool {
    guard plan.width > 2, count < plan.width || count == 1 else { return false }
    let fields = (0..<count).map { reader.string($0) }
    guard Detector.isSectionTitle(fields) else { return false }
    let title = fields.first { !$0.trimmingASCIIWhitespace().isEmpty } ?? ""
    try body(
      .excluded(
        line: reader.line,
        reason: "a section title (\"\(visibleControlCharacters(String(title.prefix(60))))\"), not a transaction"))
    return true
  }

  /// A record whose field count does not fit the header (or whose extra fields are not empty):
  /// held back when its date cell holds no date (it may be a summary line after the data, at
  /// most 10,000 of them), else a bad row.
  func holdMisfit(count: Int, _ body: ImportEventHandler) throws -> Bool {
    guard !Detector.fits(count, plan) || (count > plan.width && !RowMapper.extraFieldsEmpty(reader, plan.width))
    else { return false }
    let dateCell = RowMapper.cell(reader, plan.date)
    let issue = withRecord(
      ImportIssue(
        kind: .wrongColumnCount, file: file, line: reader.line, column: nil, columnName: nil,
        rawValue: RowMapper.preview(reader),
        message: "\(count) fields where the header has \(plan.width)",
        hint: "a field with the delimiter in it must be quoted; or the row is not a transaction"))
    if plan.dateFormat.date(dateCell) == nil && held.count < 10_000 {
      held.append(Held(line: reader.line, issue: issue))
    } else {
      try flushHeldAsErrors(body)
      try reject(issue, body)
    }
    return true
  }

  /// A word for a pending booking in the date column (`Vorgemerkt`, `Pending`): excluded as
  /// pending, never imported.
  func excludePendingWord(_ dateCell: UnsafeBufferPointer<UInt8>, _ body: ImportEventHandler)
    throws -> Bool
  {
    guard dateCell.count < 24, dateCell.first.map({ $0 &- 0x30 >= 10 }) == true,
      RowMapper.pendingDates.contains(RowMapper.trimmedLowercase(dateCell))
    else { return false }
    if !held.isEmpty { try flushHeldAsErrors(body) }
    try body(
      .excluded(
        line: reader.line,
        reason: "pending (\"\(reader.string(plan.date).trimmingASCIIWhitespace())\" in the date column)"))
    return true
  }

  /// A fitting record without a digit in its date cell: the header printed again or a balance
  /// line (excluded, said why), else held back as a bad date (a balance or summary line after
  /// the data, unless a good row follows).
  func holdUndated(
    _ dateCell: UnsafeBufferPointer<UInt8>, count: Int, _ body: ImportEventHandler
  ) throws -> Bool {
    guard !dateCell.contains(where: { $0 &- 0x30 < 10 }) else { return false }
    let fields = (0..<count).map { reader.string($0) }
    if let reason = Detector.repeatsHeader(fields, plan.header)
      ? "repeats the header row" : Detector.isBalanceRow(fields) ? "a balance line, not a transaction" : nil
    {
      try body(.excluded(line: reader.line, reason: reason))
      return true
    }
    let issue = withRecord(
      mapper.issue(.badDate, reader, plan.date, "the date is empty or not a date", "every row needs a date"))
    held.append(Held(line: reader.line, issue: issue))
    return true
  }

  /// A dated opening or closing balance ("Anfangssaldo", "Closing balance"): its only text is a
  /// balance line's (`Detector.balanceLineTexts`), so it is excluded, never money in or out.
  func excludeDatedBalanceLine(_ body: ImportEventHandler) throws -> Bool {
    guard !plan.descriptions.isEmpty else { return false }
    // Most rows are settled by their bytes, without a String: a cell with a digit, or longer
    // than any balance text could be once lower-cased (a letter shrinks at most from three
    // bytes to one), is not empty and not a balance text, so the row is none. An ASCII cell is
    // its own text in every encoding, and trimming its bytes is trimming its characters: a row
    // of ASCII cells is settled on their bytes (`LowercaseWords`), and only a balance line
    // makes its String.
    var nonEmpty = 0
    var isBalance = false
    var ascii = true
    for column in plan.descriptions where column < reader.fieldCount {
      let bytes = reader.field(column)
      guard bytes.count <= 3 * Detector.longestBalanceLineText else { return false }
      var bits: UInt8 = 0
      for b in bytes {
        if b &- 0x30 < 10 { return false }
        bits |= b
      }
      guard ascii && bits < 0x80 else {
        ascii = false
        continue
      }
      var (start, end) = (0, bytes.count)
      while start < end && isASCIIBlank(bytes[start]) { start += 1 }
      while end > start && isASCIIBlank(bytes[end - 1]) { end -= 1 }
      if start < end {
        nonEmpty += 1
        isBalance = Detector.balanceLineWords.contains(trimmedASCII: UnsafeBufferPointer(rebasing: bytes[start..<end]))
      }
    }
    if ascii && (nonEmpty != 1 || !isBalance) { return false }
    let text = plan.descriptions.map { reader.string($0).trimmingASCIIWhitespace() }.filter { !$0.isEmpty }
    guard text.count == 1, let only = text.first, Detector.balanceLineTexts.contains(only.lowercased()) else {
      return false
    }
    try body(
      .excluded(line: reader.line, reason: "a balance line (\"\(visibleControlCharacters(only))\"), not a transaction"))
    return true
  }

  /// A transaction row: mapped (`RowMapper`), the held records before it made bad rows, the
  /// mapper's warnings and those about the row's text (replaced or read as Windows-1252)
  /// given, then the row or its rejection.
  func map(count: Int, _ body: ImportEventHandler) throws {
    let outcome = mapper.map(reader)
    // Most records: a row read whole, with nothing held, warned or noted beside it. Handed
    // over as it is (each step below copies the event, about 150 bytes).
    if !mapper.text.failed && !mapper.text.replaced && held.isEmpty && mapper.warnings.isEmpty
      && (warnedFallback || !mapper.text.usedFallback) && plan.balanceColumn == nil
    {
      switch outcome {
      case .row, .stored: return try body(outcome)
      default: break
      }
    }
    try mapFully(outcome, count: count, body)
  }

  /// `map` for a record with something to check, warn of or note.
  func mapFully(_ mapped: ImportEvent, count: Int, _ body: ImportEventHandler) throws {
    var outcome = mapped
    if mapper.text.failed {
      // A category or account cell with bytes invalid in the encoding: refused, never emptied.
      mapper.text.failed = false
      switch outcome {
      case .row, .stored: if let issue = mapper.invalidTextCell(reader) { outcome = .rejected(issue) }
      default: break
      }
    }
    if skipInvalid, case .rejected(let issue) = outcome { outcome = .rejected(withRecord(issue)) }
    if !held.isEmpty { try flushHeldAsErrors(body) }
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
    if plan.balanceColumn != nil {
      if case .row(let row) = outcome {
        noteBalance(account: row.account, currency: row.amount.currency, date: row.date)
      }
      if case .stored(let row) = outcome, let currency = mapper.storedCurrency {
        noteBalance(account: mapper.lastAccount, currency: currency, date: row.date)
      }
    }
    if case .excluded = outcome, let column = plan.balanceColumn,
      !RowMapper.isBlankCell(RowMapper.cell(reader, column)),
      let day = plan.dateFormat.date(RowMapper.cell(reader, plan.date))
    {
      excludedWithBalance = min(excludedWithBalance ?? day, day)
    }
    try body(outcome)
  }

  /// Keeps the running balance of `row`'s line, when its cell is an amount.
  func noteBalance(account: String?, currency: Currency, date: CivilDate) {
    guard let column = plan.balanceColumn,
      case .success(let minor) = mapper.parser.parse(RowMapper.cell(reader, column), minorUnits: currency.minorUnits)
    else { return }
    let value = DayBalance(
      line: reader.line, amount: Money(minor: plan.balanceNegated ? -minor : minor, currency: currency))
    let key = DayKey(account: account, currency: currency, date: date)
    if let seen = dayBalances[key] {
      dayBalances[key] = (seen.first, value)
    } else {
      dayBalances[key] = (value, value)
    }
    if firstDate == nil { firstDate = date }
    lastDate = date
  }

  // MARK: End

  /// The end of the file: the records still held were after the data (excluded), and how many
  /// more lines had bytes replaced than were warned one by one.
  func finish(_ body: ImportEventHandler) throws {
    for p in held { try body(.excluded(line: p.line, reason: "not a transaction row (after the data)")) }
    // Each day's balance: its last row's in a file that runs oldest first, its first row's in
    // one that runs newest first.
    let newestFirst = (lastDate ?? .supportedRange.lowerBound) < (firstDate ?? .supportedRange.lowerBound)
    let name = plan.balanceColumn.map { "balance column \"\(visibleControlCharacters(plan.header[$0]))\"" } ?? ""
    for (key, ends) in dayBalances.sorted(by: {
      ($0.key.date, $0.value.first.line) < ($1.key.date, $1.value.first.line)
    })
    where excludedWithBalance.map({ key.date < $0 }) ?? true {
      let chosen = newestFirst ? ends.first : ends.last
      try body(
        .balance(
          StatementBalance(
            account: key.account, date: key.date, amount: chosen.amount, file: file, line: chosen.line, source: name)))
    }
    if replacedLines > CSVImporter.replacedWarningLimit {
      let more = replacedLines - CSVImporter.replacedWarningLimit
      try body(.warning("invalid UTF-8 replaced with U+FFFD on \(more) more line\(more == 1 ? "" : "s")"))
    }
  }
}
