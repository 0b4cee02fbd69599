import ExpenseCore

/// Turns one CSV record into a row, an exclusion or an issue, working on the field bytes.
///
/// Amount rules:
/// - one signed amount column: the value as is (negated with `--spending positive`);
/// - debit/credit columns: `|credit| − |debit|` (an empty cell or `0.00` counts as zero, so a
///   row with both filled is netted);
/// - amount + direction column: `−|amount|` for `Af`, `D`, `Debit`, `DR`, `Out`, `-`, `Soll`,
///   `S`, `Withdrawal`; `+|amount|` for `Bij`, `C`, `Credit`, `CR`, `In`, `+`, `Haben`, `H`, `Deposit`;
/// - a fee column is charged on top: `amount − |fee|`. With PayPal's Gross and Fee (signed,
///   negative fees) this equals PayPal's Net column; with Revolut's positive fees it is the
///   amount plus the fee as an outflow.
struct RowMapper {
  enum Outcome {
    case row(ImportedRow)
    case excluded(String)
    case rejected(ImportIssue)
  }

  let plan: Plan
  let file: String
  var text: TextDecoder
  let parser: AmountParser
  var occurrences = OccurrenceCounter()
  /// Description bytes of the current row (a raw buffer: no per-byte Array bookkeeping).
  var scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
  var scratchCapacity = 256
  var scratchCount = 0
  var lastCurrencyKey: UInt32 = 0
  var lastCurrency: Currency
  var lastAccountBytes: [UInt8] = []
  var lastAccount: String?
  var lastStatusBytes: [UInt8] = [0xFF]
  var lastStatusExcluded = false
  var lastCategoryBytes: [UInt8] = [0xFF]
  var lastCategory: String?
  var unknownStatuses: Set<String> = []
  /// Warnings produced while mapping (unsorted dates, unknown statuses); drained by the importer.
  var warnings: [String] = []

  init(plan: Plan, file: String) {
    self.plan = plan
    self.file = file
    text = TextDecoder(mode: plan.fieldText)
    parser = AmountParser(decimalMark: plan.decimalMark)
    lastCurrency = plan.currency
    lastAccount = plan.account
  }

  static let excludedStatuses: Set<String> = [
    "pending", "declined", "reverted", "failed", "cancelled", "canceled", "rejected", "void", "voided", "denied",
    "vorgemerkt", "offen", "abgelehnt", "storniert", "in behandeling", "geweigerd", "en attente", "pendiente",
    "authorized", "authorised", "on hold", "held",
  ]
  static let countedStatuses: Set<String> = [
    "", "completed", "complete", "booked", "posted", "settled", "cleared", "gebucht", "success", "successful",
    "processed", "paid", "done", "refunded", "partially refunded", "verwerkt", "geboekt", "ok", "approved",
  ]

  @inline(__always)
  static func cell(_ reader: CSVReader, _ index: Int?) -> UnsafeBufferPointer<UInt8> {
    guard let index, index >= 0, index < reader.fieldCount else { return UnsafeBufferPointer(start: nil, count: 0) }
    return reader.field(index)
  }

  func issue(
    _ kind: ImportIssue.Kind, _ reader: CSVReader, _ column: Int?, _ message: String, _ hint: String
  ) -> ImportIssue {
    let raw: String
    if let column, column < reader.fieldCount {
      raw = String(decoding: reader.field(column), as: UTF8.self)
    } else {
      raw = ""
    }
    return ImportIssue(
      kind: kind, file: file, line: reader.line, column: column.map { $0 + 1 },
      columnName: column.flatMap { plan.columnName($0) }, rawValue: raw, message: message, hint: hint)
  }

  static func trimmedLowercase(_ p: UnsafeBufferPointer<UInt8>) -> String {
    var start = 0
    var end = p.count
    while start < end && (p[start] == 0x20 || p[start] == 0x09) { start += 1 }
    while end > start && (p[end - 1] == 0x20 || p[end - 1] == 0x09) { end -= 1 }
    return String(decoding: UnsafeBufferPointer(rebasing: p[start..<end]), as: UTF8.self).lowercased()
  }

  static func equal(_ p: UnsafeBufferPointer<UInt8>, _ array: [UInt8]) -> Bool {
    guard p.count == array.count else { return false }
    for i in 0..<p.count where p[i] != array[i] { return false }
    return true
  }

  mutating func map(_ reader: CSVReader) -> Outcome {
    // --skip-when
    for rule in plan.skipWhen where RowMapper.trimmedLowercase(RowMapper.cell(reader, rule.column)) == rule.value {
      return .excluded("--skip-when \(rule.text)")
    }
    // Status.
    if let status = plan.status {
      let p = RowMapper.cell(reader, status)
      if !RowMapper.equal(p, lastStatusBytes) {
        lastStatusBytes = Array(p)
        let key = RowMapper.trimmedLowercase(p)
        lastStatusExcluded = RowMapper.excludedStatuses.contains(key)
        if !lastStatusExcluded && !RowMapper.countedStatuses.contains(key) && unknownStatuses.count < 5
          && unknownStatuses.insert(key).inserted
        {
          warnings.append(
            "status \"\(visibleControlCharacters(key))\" is not known; its rows are imported (use --skip-when to exclude them)"
          )
        }
      }
      if lastStatusExcluded {
        return .excluded("status \(String(decoding: lastStatusBytes, as: UTF8.self).trimmingASCIIWhitespace())")
      }
    }
    // Date.
    let dateBytes = RowMapper.cell(reader, plan.date)
    guard let date = plan.dateFormat.date(dateBytes) else {
      let empty = !dateBytes.contains { $0 != 0x20 && $0 != 0x09 }
      return .rejected(
        issue(
          .badDate, reader, plan.date,
          empty ? "the date is empty" : "not a date in the format \(plan.dateFormat)",
          "dates in this file are read as \(plan.dateFormat); use --date-format to override"))
    }
    // Currency.
    var currency = plan.currency
    if let column = plan.currencyColumn {
      let p = RowMapper.cell(reader, column)
      var start = 0
      var end = p.count
      while start < end && p[start] == 0x20 { start += 1 }
      while end > start && p[end - 1] == 0x20 { end -= 1 }
      if end > start {
        if end - start == 3 {
          let key = UInt32(p[start] & 0xDF) << 16 | UInt32(p[start + 1] & 0xDF) << 8 | UInt32(p[start + 2] & 0xDF)
          if key == lastCurrencyKey {
            currency = lastCurrency
          } else if let found = Currency(
            code: String(decoding: UnsafeBufferPointer(rebasing: p[start..<end]), as: UTF8.self))
          {
            lastCurrencyKey = key
            lastCurrency = found
            currency = found
          } else {
            return .rejected(
              issue(
                .unknownCurrency, reader, column, "not an ISO 4217 currency code",
                "use a code such as USD, EUR, GBP or JPY"))
          }
        } else {
          return .rejected(
            issue(
              .unknownCurrency, reader, column, "not an ISO 4217 currency code",
              "use a code such as USD, EUR, GBP or JPY"))
        }
      }
    }
    // Amount.
    let units = currency.minorUnits
    var minor: Int64
    switch plan.sign {
    case .signedNegativeIsSpending, .signedPositiveIsSpending, .direction:
      switch amountValue(reader, plan.amount, units, currency, emptyIsZero: false) {
      case .success(let v): minor = v
      case .failure(let issue): return .rejected(issue)
      }
      if plan.sign == .signedPositiveIsSpending { minor = -minor }
      if plan.sign == .direction {
        let word = RowMapper.trimmedLowercase(RowMapper.cell(reader, plan.direction))
        let magnitude = minor < 0 ? -minor : minor
        switch word {
        case "af", "d", "debit", "dr", "debet", "out", "-", "soll", "s", "withdrawal", "uit", "db": minor = -magnitude
        case "bij", "c", "credit", "cr", "in", "+", "haben", "h", "deposit", "k", "krediet": minor = magnitude
        default:
          return .rejected(
            issue(
              .badAmount, reader, plan.direction, "not a direction",
              "expected Af/Bij, D/C, Debit/Credit, DR/CR, Out/In or -/+"))
        }
      }
    case .debitCredit:
      var debit: Int64 = 0
      var credit: Int64 = 0
      switch amountValue(reader, plan.debit, units, currency, emptyIsZero: true) {
      case .success(let v): debit = v < 0 ? -v : v
      case .failure(let issue): return .rejected(issue)
      }
      switch amountValue(reader, plan.credit, units, currency, emptyIsZero: true) {
      case .success(let v): credit = v < 0 ? -v : v
      case .failure(let issue): return .rejected(issue)
      }
      minor = credit &- debit
    }
    if plan.fee != nil {
      switch amountValue(reader, plan.fee, units, currency, emptyIsZero: true) {
      case .success(let v): minor = minor &- (v < 0 ? -v : v)
      case .failure(let issue): return .rejected(issue)
      }
    }
    // Description.
    scratchCount = 0
    var ascii = true
    for column in plan.descriptions {
      let p = RowMapper.cell(reader, column)
      if scratchCount + p.count + 3 > scratchCapacity { growScratch(scratchCount + p.count + 3) }
      var pendingSpace = false
      var wrote = false
      let before = scratchCount
      var out = scratchCount
      let buffer = scratch
      for b in p {
        if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0B || b == 0x0C {
          pendingSpace = wrote
          continue
        }
        if pendingSpace {
          buffer[out] = 0x20
          out += 1
          pendingSpace = false
        } else if !wrote && before > 0 {
          buffer[out] = 0x20  // " / " between columns
          buffer[out + 1] = 0x2F
          buffer[out + 2] = 0x20
          out += 3
        }
        if b >= 0x80 { ascii = false }
        buffer[out] = b
        out += 1
        wrote = true
      }
      scratchCount = out
    }
    let scratchBytes = UnsafeBufferPointer(start: scratch, count: scratchCount)
    let description: String
    if ascii {
      description = String(decoding: scratchBytes, as: UTF8.self)
    } else {
      guard let decoded = text.decode(scratchBytes) else {
        var bad = plan.descriptions.first
        var probe = TextDecoder(mode: plan.fieldText)
        for column in plan.descriptions where probe.decode(RowMapper.cell(reader, column)) == nil {
          bad = column; break
        }
        return .rejected(
          issue(
            .invalidText, reader, bad, "bytes that are not valid \(plan.encoding.rawValue)",
            "the file may be in another encoding; try --encoding windows-1252 (or latin1, utf-16le)"))
      }
      description = decoded
    }
    // Category and account (cached: they repeat).
    var category: String?
    if let column = plan.category {
      let p = RowMapper.cell(reader, column)
      if !RowMapper.equal(p, lastCategoryBytes) {
        lastCategoryBytes = Array(p)
        let t = text.decode(p)?.trimmingASCIIWhitespace() ?? ""
        lastCategory = t.isEmpty ? nil : t
      }
      category = lastCategory
    }
    if plan.account == nil, let column = plan.accountColumn {
      let p = RowMapper.cell(reader, column)
      if !RowMapper.equal(p, lastAccountBytes) {
        lastAccountBytes = Array(p)
        let t = text.decode(p)?.trimmingASCIIWhitespace() ?? ""
        lastAccount = t.isEmpty ? nil : t
      }
    }
    let account = lastAccount
    // Fingerprint.
    var h = Fingerprint.Hasher64()
    if let account { h.string(account) }
    h.byte(0x7C)
    h.date(date)
    h.byte(0x7C)
    h.string(currency.code)
    h.byte(0x7C)
    h.decimal(minor)
    h.byte(0x7C)
    if ascii {
      h.lowercasedBytes(scratchBytes)
    } else {
      var copy = description
      copy.withUTF8 { h.lowercasedBytes($0) }
    }
    let (occurrence, unsortedNow) = occurrences.next(day: date.daysSinceEpoch, key: h.state)
    if unsortedNow {
      warnings.append(
        "dates are not in order (line \(reader.line)); counting identical rows now keeps every row in memory")
    }
    Fingerprint.finish(&h, occurrence: occurrence)
    return .row(
      ImportedRow(
        line: reader.line, date: date, amount: Money(minor: minor, currency: currency), description: description,
        category: category, account: account, fingerprintHash: h.state))
  }

  mutating func growScratch(_ needed: Int) {
    var capacity = scratchCapacity * 2
    while capacity < needed { capacity *= 2 }
    let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    bigger.update(from: scratch, count: scratchCount)
    scratch.deallocate()
    scratch = bigger
    scratchCapacity = capacity
  }

  /// Frees the scratch buffer; call once when the import is done.
  func release() { scratch.deallocate() }

  func amountValue(_ reader: CSVReader, _ column: Int?, _ units: Int, _ currency: Currency, emptyIsZero: Bool)
    -> Result<Int64, ImportIssue>
  {
    guard let column else { return .success(0) }
    let mark = plan.decimalMark == 0x2C ? "," : "."
    switch parser.parse(RowMapper.cell(reader, column), minorUnits: units) {
    case .success(let v): return .success(v)
    case .failure(.empty):
      if emptyIsZero { return .success(0) }
      return .failure(issue(.badAmount, reader, column, "the amount is empty", "every row needs an amount"))
    case .failure(.tooManyDecimals):
      return .failure(
        issue(
          .badAmount, reader, column, "more decimals than \(currency.code) has (\(units))",
          "amounts in this file are read with '\(mark)' as decimal mark; use --decimal-mark to override"))
    case .failure(.outOfRange):
      return .failure(issue(.badAmount, reader, column, "the amount is too large", "check the value"))
    case .failure(.invalid):
      return .failure(
        issue(
          .badAmount, reader, column, "not an amount",
          "amounts in this file are read with '\(mark)' as decimal mark; use --decimal-mark to override"))
    }
  }
}
