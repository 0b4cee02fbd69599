import ExpenseCore

#if canImport(Glibc)
  import Glibc
#endif

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
  /// What `map` makes of a record: `.row`, `.excluded` or `.rejected` (never `.warning`).
  typealias Outcome = ImportEvent

  let plan: Plan
  let file: String
  var text: TextDecoder
  let parser: AmountParser
  var occurrences = OccurrenceCounter()
  /// Description bytes of the current row (a raw buffer: no per-byte Array bookkeeping).
  var scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
  var scratchCapacity = 256
  var scratchCount = 0
  /// `plan.descriptions`, so the hot loop does not retain the plan's array.
  let descriptionColumns: UnsafeMutableBufferPointer<Int>
  let dateOrder: DateFormat.Order
  /// Bytes of the last date that parsed, and what they gave (dates repeat row after row).
  let lastDateBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: RowMapper.dateCacheLength)
  var lastDateCount = -1
  var lastDate = CivilDate(year: 1970, month: 1, day: 1)!
  var lastDay = 0
  var lastCurrencyKey: UInt32 = 0
  var lastCurrency: Currency
  var accounts = FieldStringCache()
  var lastAccountSlot = -1
  var lastAccount: String?
  var lastStatusBytes: [UInt8] = [0xFF]
  var lastStatusExcluded = false
  var categories = FieldStringCache()
  /// Maps a category as read to the spelling to store (`CSVImporter.categoryName`); applied
  /// once per distinct cell, when it enters `categories`.
  var categoryName: ((String) -> String?)?
  var descriptionCache = TextCache()
  /// Until the first category cell that is not the single byte 0xFF, rows get no category (the
  /// behaviour of the original one-entry cache, whose empty state was those bytes).
  var categoryUnset = true
  var unknownStatuses: Set<String> = []
  /// Fingerprint state after `account|date|CUR|`, valid while those stay the same.
  var prefix = Fingerprint.Hasher64()
  var prefixValid = false
  var prefixCurrencyKey: UInt32 = 0
  /// Warnings produced while mapping (unsorted dates, unknown statuses); drained by the importer.
  var warnings: [String] = []

  static let dateCacheLength = 32

  init(plan: Plan, file: String) {
    self.plan = plan
    self.file = file
    text = TextDecoder(mode: plan.fieldText)
    parser = AmountParser(decimalMark: plan.decimalMark)
    lastCurrency = plan.currency
    lastAccount = plan.account
    descriptionColumns = .allocate(capacity: plan.descriptions.count)
    _ = descriptionColumns.initialize(from: plan.descriptions)
    dateOrder = plan.dateFormat.order
  }

  static let excludedStatuses: Set<String> = [
    "pending", "declined", "reverted", "failed", "cancelled", "canceled", "rejected", "void", "voided", "denied",
    "vorgemerkt", "offen", "abgelehnt", "storniert", "in behandeling", "geweigerd", "en attente", "pendiente",
    "authorized", "authorised", "on hold", "held",
  ]
  /// Words a bank prints in the date column of a reservation not yet booked (Finnish `Varaus`,
  /// German `Vorgemerkt`, ...): such rows are excluded as pending, like a pending status.
  static let pendingDates: Set<String> = [
    "varaus", "pending", "vorgemerkt", "reserved", "reservation", "reservering", "en attente", "pendiente",
    "in attesa", "reserverad", "reservert", "reserveret", "autorisation", "authorization", "authorisation",
  ]

  static let countedStatuses: Set<String> = [
    "", "completed", "complete", "booked", "posted", "settled", "cleared", "gebucht", "success", "successful",
    "processed", "paid", "done", "refunded", "partially refunded", "verwerkt", "geboekt", "ok", "approved",
    "udført", "utført", "genomförd", "bokförd", "bokført", "contabilizzato", "eseguito", "contabilizado",
    "comptabilisé",
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

  /// Whether a cell holds nothing but spaces and tabs.
  static func isBlankCell(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
    !p.contains { $0 != 0x20 && $0 != 0x09 }
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

  /// Space, tab, LF, VT, FF or CR: collapsed to one space inside a description, dropped at its ends.
  @inline(__always)
  static func isSpace(_ b: UInt8) -> Bool { b <= 0x20 && (b == 0x20 || b &- 0x09 < 5) }

  /// A category or account cell as stored: decoded, trimmed, `nil` when empty.
  mutating func cellText(_ p: UnsafeBufferPointer<UInt8>) -> String? {
    let t = text.decode(p).map(trimmingASCIIBlanks) ?? ""
    return t.isEmpty ? nil : t
  }

  /// The date of a cell, parsed once per run of equal cells.
  @inline(__always)
  mutating func date(_ p: UnsafeBufferPointer<UInt8>) -> CivilDate? {
    let n = p.count
    if n == lastDateCount && (n == 0 || bytesEqual(lastDateBytes, p.baseAddress!, n)) { return lastDate }
    guard let date = DateTokens(p)?.date(dateOrder) else { return nil }
    prefixValid = false
    if n <= RowMapper.dateCacheLength {
      if n > 0 { lastDateBytes.update(from: p.baseAddress!, count: n) }
      lastDateCount = n
    } else {
      lastDateCount = -1
    }
    lastDate = date
    lastDay = date.daysSinceEpoch
    return date
  }

  mutating func map(_ reader: CSVReader) -> Outcome {
    // --skip-when
    if !plan.skipWhen.isEmpty {
      for rule in plan.skipWhen where RowMapper.trimmedLowercase(RowMapper.cell(reader, rule.column)) == rule.value {
        return .excluded(line: reader.line, reason: "--skip-when \(rule.text)")
      }
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
        return .excluded(
          line: reader.line,
          reason: "status \(String(decoding: lastStatusBytes, as: UTF8.self).trimmingASCIIWhitespace())")
      }
    }
    // Date.
    let dateBytes = RowMapper.cell(reader, plan.date)
    guard let date = date(dateBytes) else {
      let empty = !dateBytes.contains { $0 != 0x20 && $0 != 0x09 }
      return .rejected(
        issue(
          .badDate, reader, plan.date,
          empty ? "the date is empty" : "not a date in the format \(plan.dateFormat)",
          "dates in this file are read as \(plan.dateFormat); use --date-format to override"))
    }
    // Currency.
    var currency = plan.currency
    var currencyKey: UInt32 = 0
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
          currencyKey = key
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
      if let v = AmountParser.plain(RowMapper.cell(reader, plan.amount), minorUnits: units, mark: plan.decimalMark) {
        minor = v
      } else {
        switch amountValue(reader, plan.amount, units, currency, emptyIsZero: false) {
        case .success(let v): minor = v
        case .failure(let issue): return .rejected(issue)
        }
      }
      switch plan.sign {
      case .signedPositiveIsSpending: minor = -minor
      case .direction:
        let word = RowMapper.trimmedLowercase(RowMapper.cell(reader, plan.direction))
        let magnitude = minor < 0 ? -minor : minor
        if DetectorColumns.outWords.contains(word) {
          minor = -magnitude
        } else if DetectorColumns.inWords.contains(word) {
          minor = magnitude
        } else {
          return .rejected(
            issue(
              .badAmount, reader, plan.direction, "not a direction",
              "expected Af/Bij, D/C, Debit/Credit, DR/CR, Out/In or -/+"))
        }
      default: break
      }
    case .debitCredit:
      // Both cells empty is a row without an amount, not a zero.
      if RowMapper.isBlankCell(RowMapper.cell(reader, plan.debit))
        && RowMapper.isBlankCell(RowMapper.cell(reader, plan.credit))
      {
        return .rejected(
          issue(
            .badAmount, reader, plan.debit ?? plan.credit, "both the debit and the credit cell are empty",
            "every row needs an amount in one of them"))
      }
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
    // Account (cached: it rarely changes), then the fingerprint up to the description.
    if plan.account == nil, let column = plan.accountColumn {
      let p = RowMapper.cell(reader, column)
      let slot = accounts.slot(p)
      if let slot {
        if slot != lastAccountSlot {
          lastAccountSlot = slot
          lastAccount = accounts.values[slot]
          prefixValid = false
        }
      } else {
        let value = cellText(p)
        accounts.store(p, value)
        lastAccountSlot = -1
        lastAccount = value
        prefixValid = false
      }
    }
    if !prefixValid || currencyKey != prefixCurrencyKey {
      var h = Fingerprint.Hasher64()
      if let account = lastAccount { h.string(account) }
      h.byte(0x7C)
      h.date(date)
      h.byte(0x7C)
      h.string(currency.code)
      h.byte(0x7C)
      prefix = h
      prefixValid = true
      prefixCurrencyKey = currencyKey
    }
    var h = prefix
    h.decimal(minor)
    h.byte(0x7C)
    let beforeDescription = h
    // Description: whitespace runs collapsed, columns joined with " / ", hashed (ASCII letters
    // lower-cased) while it is copied.
    scratchCount = 0
    var state = h.state
    var bits: UInt8 = 0  // every byte written, or-ed: ASCII when below 0x80
    let lowercase = Fingerprint.lowercase
    for k in 0..<descriptionColumns.count {
      let p = RowMapper.cell(reader, descriptionColumns[k])
      let n = p.count
      guard n > 0, let source = p.baseAddress else { continue }
      var i = 0
      while i < n && RowMapper.isSpace(source[i]) { i &+= 1 }
      if i == n { continue }
      if scratchCount + n + 3 > scratchCapacity { growScratch(scratchCount + n + 3) }
      let buffer = scratch
      var out = scratchCount
      if out > 0 {
        buffer[out] = 0x20  // " / " between columns
        buffer[out &+ 1] = 0x2F
        buffer[out &+ 2] = 0x20
        out &+= 3
        state = (state ^ 0x20) &* Fingerprint.prime
        state = (state ^ 0x2F) &* Fingerprint.prime
        state = (state ^ 0x20) &* Fingerprint.prime
      }
      var pendingSpace = false
      while i < n {
        let b = source[i]
        i &+= 1
        if RowMapper.isSpace(b) {
          pendingSpace = true
          continue
        }
        if pendingSpace {
          buffer[out] = 0x20
          out &+= 1
          state = (state ^ 0x20) &* Fingerprint.prime
          pendingSpace = false
        }
        bits |= b
        buffer[out] = b
        out &+= 1
        state = (state ^ UInt64(lowercase[Int(b)])) &* Fingerprint.prime
      }
      scratchCount = out
    }
    let ascii = bits < 0x80
    h.state = state
    let scratchBytes = UnsafeBufferPointer(start: scratch, count: scratchCount)
    var description: String
    // A description whose bytes are its UTF-8 (ASCII, or valid UTF-8 read as UTF-8) may come
    // from the cache of earlier ones.
    let sameBytes = ascii || text.mode == .utf8Strict || text.mode == .utf8Fallback
    var key: UInt64 = 0
    if sameBytes && scratchCount >= TextCache.minLength && scratchCount <= TextCache.maxLength
      && descriptionCache.use()
    {
      key = TextCache.key(scratchBytes)
    }
    if key != 0, let known = descriptionCache.find(scratchBytes, key) {
      description = known
    } else if ascii || (sameBytes && isValidUTF8(scratchBytes)) {
      description = String(decoding: scratchBytes, as: UTF8.self)
      if key != 0 { descriptionCache.store(scratchBytes, key, description) }
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
            "the file may be in another encoding: name it with --encoding (windows-1252, shift_jis, gb18030, euc-kr, ...)"
          ))
      }
      description = decoded
      // The text is not the bytes that were hashed: hash what is stored.
      h = beforeDescription
      var copy = description
      copy.withUTF8 { h.lowercasedBytes($0) }
    }
    // SQLite text ends at a NUL (the description would be cut off there): the visible symbol
    // for it is stored instead (`memchr`: a vectorized scan, a few nanoseconds a row).
    if scratchCount > 0, memchr(scratch, 0, scratchCount) != nil {
      description = String(String.UnicodeScalarView(description.unicodeScalars.map { $0 == "\u{0}" ? "\u{2400}" : $0 }))
    }
    // Category (cached: categories repeat).
    var category: String?
    if let column = plan.category {
      let p = RowMapper.cell(reader, column)
      if categoryUnset && p.count == 1 && p[0] == 0xFF {
        category = nil
      } else {
        categoryUnset = false
        if let slot = categories.slot(p) {
          category = categories.values[slot]
        } else {
          category = cellText(p)
          if let name = category, let categoryName { category = categoryName(name) }
          categories.store(p, category)
        }
      }
    }
    let (occurrence, unsortedNow) = occurrences.next(day: lastDay, key: h.state)
    if unsortedNow {
      warnings.append(
        "dates are not in order (line \(reader.line)); counting identical rows now keeps every row in memory")
    }
    Fingerprint.finish(&h, occurrence: occurrence)
    return .row(
      ImportedRow(
        line: reader.line, date: date, amount: Money(minor: minor, currency: currency), description: description,
        category: category, account: lastAccount, fingerprintHash: h.state))
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

  /// Frees the buffers; call once when the import is done.
  func release() {
    scratch.deallocate()
    descriptionColumns.deallocate()
    lastDateBytes.deallocate()
    accounts.release()
    categories.release()
    descriptionCache.release()
  }

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
