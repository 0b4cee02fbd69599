import ExpenseCore

/// Works out a file's layout from a sample of its first bytes (up to 1 MiB).
struct Detector {
  let file: String
  let options: ImportOptions
  let defaultCurrency: Currency

  struct Record {
    var line: Int
    var fields: [String]
  }

  static let candidates: [UInt8] = [0x2C, 0x3B, 0x09, 0x7C]

  /// The layout of a file from `sample`, its first bytes (`truncated`: the file goes on). Each
  /// stage decides one thing from the evidence its comment names, in this order: what the
  /// bytes are (`Detector+Text`: encoding, how fields become text, delimiter, the sample's
  /// records), where the table is (`Detector+Layout`: header, preamble, data rows), what each
  /// column is (`Detector+Roles`), then how the values read (date format, currency, decimal
  /// mark, sign: `DetectorValues`, `DetectorColumns`). A later stage may rely on every earlier
  /// one, and the errors come in this order too.
  func detect(sample: [UInt8], truncated: Bool) throws(ImportError) -> Plan {
    let sample = try Detector.textSample(sample, file: file)
    let (encoding, encodingReason) = try chooseEncoding(sample, truncated: truncated)
    let fieldText = self.fieldText(sample, encoding: encoding, reason: encodingReason)
    let skipLines = max(0, options.skipLines ?? 0)
    let delimiter = try chooseDelimiter(sample, encoding: encoding, skipLines: skipLines)
    let records = try sampleRecords(
      sample, encoding: encoding, fieldText: fieldText, delimiter: delimiter, skipLines: skipLines,
      truncated: truncated)

    var plan = try initialPlan(
      records: records, encoding: encoding, encodingReason: encodingReason, fieldText: fieldText,
      delimiter: delimiter)
    let mode = Detector.widthMode(records)
    let dataIndex = locateTable(records, mode: mode, &plan)
    let data = Detector.dataRows(records, from: dataIndex, plan)
    let sampledWidth = data.reduce(max(plan.width, 0)) { max($0, $1.fields.count) }
    plan.columnValues = (0..<sampledWidth).map { DetectorValues.values(data, $0) }

    try assignRoles(&plan, data: data, mode: mode)
    try requireColumns(&plan)

    try DetectorValues.dateFormat(&plan, data: data, options: options, file: file)
    try DetectorColumns.currency(&plan, data: data, options: options, file: file)
    try DetectorValues.decimalMark(&plan, data: data, options: options, file: file)
    DetectorColumns.refine(&plan, data: data, options: options)
    try DetectorValues.signConvention(&plan, data: data, options: options, file: file)
    DetectorValues.runningBalance(&plan, data: data)
    try parseSkipWhen(&plan)
    if encoding != .utf8 && encoding != .utf16le && encoding != .utf16be && options.encoding == nil {
      plan.warnings.append(EncodingGuess.warning(sample, encoding: encoding, reason: encodingReason))
    }
    return plan
  }

  /// Where a sample shows it is not text: control bytes, NUL included (other than tab, line
  /// breaks and form feed) in more than 1 % of it (16 at least: a stray escape is text with a
  /// control character, not binary). Known kinds of file are named before, by `FileKind`.
  static func binaryContent(_ sample: [UInt8]) -> (line: Int, what: String)? {
    var controls = 0
    var line = 1
    var firstLine: Int?
    for b in sample {
      if b == 0x0A { line += 1 }
      if b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0D && b != 0x0C {
        controls += 1
        if firstLine == nil { firstLine = line }
      }
    }
    if controls >= 16 && controls * 100 > sample.count, let firstLine {
      return (firstLine, "binary data: it holds control bytes")
    }
    return nil
  }

  static func parseDelimiter(_ text: String) throws(ImportError) -> UInt8 {
    switch text {
    case "\\t", "tab", "TAB", "\t": return 0x09
    default:
      let bytes = Array(text.utf8)
      guard bytes.count == 1, bytes[0] != 0x22, bytes[0] != 0x0A, bytes[0] != 0x0D else {
        throw .invalidOption(
          option: "--delimiter", message: "'\(text)' is not a single-byte delimiter (use , ; | or tab)")
      }
      return bytes[0]
    }
  }

  /// Whether `byte` occurs in `p`, 8 bytes at a time.
  static func contains(_ p: UnsafeBufferPointer<UInt8>, _ byte: UInt8) -> Bool {
    guard let base = p.baseAddress else { return false }
    let n = p.count
    let pattern = UInt64(byte) &* 0x0101_0101_0101_0101
    var i = 0
    while i &+ 8 <= n {
      if CSVReader.zeroBytes(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) ^ pattern) != 0 { return true }
      i &+= 8
    }
    while i < n {
      if base[i] == byte { return true }
      i &+= 1
    }
    return false
  }

  /// Whether a row's field count is acceptable for the plan (trailing empty fields tolerated).
  static func fits(_ count: Int, _ plan: Plan) -> Bool {
    count >= plan.minWidth && count <= plan.width + 1
  }

  static func parsesAsDate(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { p in
      guard let t = DateTokens(p) else { return false }
      return DateFormat.Order.allCases.contains { t.date($0) != nil }
    }
  }

  /// Whether the text is only spaces, tabs, CRs and LFs (`trimmingASCIIWhitespace().isEmpty`:
  /// those bytes are whole Characters, and any other byte is part of another Character).
  static func isBlank(_ text: String) -> Bool {
    text.utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
  }

  static func looksLikeAmount(_ text: String) -> Bool {
    guard text.utf8.contains(where: { $0 &- 0x30 < 10 }) else { return false }
    for mark in [UInt8(ascii: "."), UInt8(ascii: ",")] {
      switch AmountParser(decimalMark: mark).parse(text, minorUnits: 4) {
      // A number too large to store is still a number: its row is rejected, not its column.
      case .success, .failure(.tooManyDecimals), .failure(.outOfRange): return true
      default: continue
      }
    }
    return false
  }

  /// A row whose date is a pending word (`Varaus`, `Vorgemerkt`) beside an amount.
  static func isPendingRow(_ fields: [String]) -> Bool {
    fields.contains(where: isPendingWord) && fields.contains(where: looksLikeAmount)
  }

  /// Whether `field` is a word banks write for a pending row's date.
  static func isPendingWord(_ field: String) -> Bool {
    pendingWords.contains(cell: field)
  }

  static let pendingWords = LowercaseWords(RowMapper.pendingDates)

  /// Whether a row could be a transaction, even a broken one: a field shaped like a date (in
  /// range or not: `9999-12-31`) or like an amount. Such a row is never a header or preamble.
  static func mayBeData(_ fields: [String]) -> Bool {
    isPendingRow(fields) || fields.contains { looksLikeDateShape($0) || looksLikeAmount($0) }
  }

  /// Three date parts (`9999-12-31`, `31.12.99`, `1 Oct 2026`) or eight digits (`20261001`),
  /// whether or not the date exists.
  static func looksLikeDateShape(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { p in
      guard let t = DateTokens(p) else { return false }
      return t.count == 3 || (t.count == 1 && t.widths.0 == 8)
    }
  }

  /// Whether a row repeats the header (case-insensitive, trimmed): a header printed again after
  /// the data (per page, per account) is skipped and announced, never read as data.
  static func repeatsHeader(_ fields: [String], _ header: [String]) -> Bool {
    guard !header.isEmpty, fields.count >= header.count else { return false }
    for (i, field) in fields.enumerated() {
      let name = i < header.count ? header[i] : ""
      if !sameIgnoringCase(trimmingASCIIBlanks(field), name) { return false }
    }
    return true
  }

  /// `a.lowercased() == b.lowercased()`, settled on the bytes when both are ASCII (then their
  /// lower cases are ASCII, and equal only byte for byte).
  static func sameIgnoringCase(_ a: String, _ b: String) -> Bool {
    let settled = a.utf8.withContiguousStorageIfAvailable { x in
      b.utf8.withContiguousStorageIfAvailable { y -> Bool? in
        guard x.allSatisfy({ $0 < 0x80 }), y.allSatisfy({ $0 < 0x80 }) else { return nil }
        guard x.count == y.count else { return false }
        func lower(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }
        for i in 0..<x.count where lower(x[i]) != lower(y[i]) { return false }
        return true
      }
    }
    switch settled {
    case .some(.some(.some(let answer))): return answer
    default: return lowercasedFast(a) == lowercasedFast(b)
    }
  }

  /// The row that names a date and an amount column (`HeaderNames`) and is followed by a row
  /// of data, when it is below rows that are not data of its layout: the header below a
  /// preamble. Nil when none is, or when a row above it has a date where its date column is
  /// (that row could be a transaction: the positional rule then decides, and never skips it).
  static func namedHeader(_ records: [Record], mode: Int) -> Int? {
    // A record that may be data is no header: asked first, as it is cheap and most records
    // of a sample are data (naming each of their cells was a tenth of a large import's time).
    for (index, record) in records.enumerated()
    where index > 0 && abs(record.fields.count - mode) <= 1 && !mayBeData(record.fields) {
      let roles = record.fields.map { HeaderNames.match($0)?.role }
      guard let dateColumn = roles.firstIndex(of: .date),
        roles.contains(where: { [.amount, .debit, .credit].contains($0) }),
        // Section titles between the header and the data ("Posted Transactions") are skipped.
        let next = records[(index + 1)...].first(where: { !isSectionTitle($0.fields) }), looksLikeData(next.fields)
      else { continue }
      let above = records[..<index]
      if above.contains(where: { dateColumn < $0.fields.count && parsesAsDate($0.fields[dateColumn]) }) { return nil }
      return index
    }
    return nil
  }

  /// A line of one text and no date, among a table's rows: a section title ("Posted
  /// Transactions", "Pending Transactions are not reflected…"), never a transaction.
  static func isSectionTitle(_ fields: [String]) -> Bool {
    let filled = fields.filter { !$0.trimmingASCIIWhitespace().isEmpty }
    guard filled.count == 1, let only = filled.first else { return false }
    return !parsesAsDate(only) && !looksLikeDateShape(only) && only.contains(where: \.isLetter)
  }

  /// Words of a balance line (`Opening Balance`, `Saldo`, `Kontostand`, `Solde initial`).
  static let balanceWords = ["balance", "saldo", "solde", "kontostand", "brought forward", "carried forward"]

  /// The whole text of a dated opening or closing balance line's description
  /// (`Anfangssaldo`, `Endsaldo`, `Opening balance`, `Solde final`): a statement's balance,
  /// never a transaction.
  static let balanceLineTexts: Set<String> = [
    "anfangssaldo", "endsaldo", "schlusssaldo", "kontostand", "opening balance", "closing balance",
    "balance brought forward", "balance carried forward", "brought forward", "carried forward", "solde initial",
    "solde final", "ancien solde", "nouveau solde", "saldo iniziale", "saldo finale", "saldo inicial", "saldo final",
    "beginsaldo", "eindsaldo", "startsaldo", "ingående saldo", "utgående saldo", "alkusaldo", "loppusaldo",
  ]
  static let balanceLineWords = LowercaseWords(balanceLineTexts)

  /// The UTF-8 length of the longest `balanceLineTexts` text.
  static let longestBalanceLineText = balanceLineWords.longest

  /// A dated opening or closing balance line: one of its cells is a `balanceLineTexts` text.
  /// Kept out of detection's sample (its empty payee is not a memo's gap); the import
  /// excludes it by its description (`CSVImporter`).
  static func isDatedBalanceLine(_ fields: [String]) -> Bool {
    fields.contains { balanceLineWords.contains(cell: $0) }
  }

  /// A line that states a balance and has no date: not a transaction.
  static func isBalanceRow(_ fields: [String]) -> Bool {
    !fields.contains(where: looksLikeDateShape)
      && fields.contains { field in
        let text = field.lowercased()
        return balanceWords.contains { text.contains($0) }
      }
  }

  /// A row is data when one field is a date and another one an amount.
  static func looksLikeData(_ fields: [String]) -> Bool {
    for (i, f) in fields.enumerated() where parsesAsDate(f) {
      for (j, g) in fields.enumerated() where j != i && looksLikeAmount(g) { return true }
    }
    return false
  }

  /// The `--skip-when COLUMN=VALUE` rules into `plan`, each column found by its 1-based number,
  /// its header name or its role (refused when none is; the value compared lower-cased).
  func parseSkipWhen(_ plan: inout Plan) throws(ImportError) {
    for rule in options.skipWhen {
      guard let eq = rule.firstIndex(of: "=") else {
        throw .invalidOption(option: "--skip-when", message: "'\(rule)' is not COLUMN=VALUE")
      }
      let name = String(rule[..<eq]).trimmingASCIIWhitespace()
      let value = String(rule[rule.index(after: eq)...]).trimmingASCIIWhitespace().lowercased()
      var index: Int?
      if let n = Int(name), n >= 1 { index = n - 1 }
      if index == nil { index = plan.header.firstIndex { $0.lowercased() == name.lowercased() } }
      if index == nil, let role = ColumnRole(rawValue: name.lowercased()) {
        index = plan.roles.firstIndex { $0 == role }
      }
      guard let index else {
        throw .invalidOption(
          option: "--skip-when", message: "no column '\(name)'; use a header name, a role or a 1-based column number")
      }
      plan.skipWhen.append((index, value, rule))
    }
  }
}
