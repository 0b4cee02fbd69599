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

  func detect(sample: [UInt8], truncated: Bool) throws(ImportError) -> Plan {
    // Padding at the end of the file is not text (`run` drops it too, and says so). A sample that
    // ends in NULs is trimmed even when the file goes on: NULs before more text reach `run` as
    // they are.
    let sample = NULPadding.trimmed(sample)
    if sample.isEmpty {
      throw .undetectable(file: file, message: "the file is empty", hint: "export the statement again from the bank")
    }
    if let kind = FileKind.sniff(sample) { throw kind.refusal(file: file) }
    // Encoding.
    let encoding: TextEncoding
    let encodingReason: String
    if let forced = options.encoding {
      encoding = forced
      encodingReason = "--encoding"
    } else {
      (encoding, encodingReason) = try EncodingGuess.detect(sample, truncated: truncated, file: file)
    }
    if encoding != .utf16le && encoding != .utf16be, let binary = Detector.binaryContent(sample) {
      throw .undetectable(
        file: file, message: "line \(binary.line): not a text file (\(binary.what))",
        hint: "export the statement from the bank as CSV (a spreadsheet can save a sheet as CSV)")
    }
    var fieldText: FieldText
    switch encoding {
    case .utf8:
      // Fallback only for a sample of plain ASCII; once the file has shown real UTF-8 (in the sample
      // or before the bad bytes), a field with invalid bytes is damage: its row is refused.
      fieldText =
        options.encoding == nil && encodingReason == "valid UTF-8" && !sample.contains(where: { $0 >= 0x80 })
        ? .utf8Fallback : .utf8Strict
    case .windows1252: fieldText = .windows1252
    case .latin1: fieldText = .latin1
    default: fieldText = .utf8Strict  // UTF-16 and the iconv encodings arrive as UTF-8
    }
    if options.replaceInvalid == true && (fieldText == .utf8Strict || fieldText == .utf8Fallback) {
      fieldText = .utf8Replacing
    }
    let skipLines = max(0, options.skipLines ?? 0)
    func source() throws(ImportError) -> any ByteSource { try encoding.transcoder(MemorySource(sample)) }

    // Delimiter.
    let delimiter: UInt8
    if let given = options.delimiter {
      delimiter = try Detector.parseDelimiter(given)
    } else {
      var best: (score: Int, width: Int, byte: UInt8) = (-1, 0, 0x2C)
      let transcoded = encoding == .utf16le || encoding == .utf16be || encoding.iconvName != nil
      for candidate in Detector.candidates {
        // Without the byte in the sample no record has two fields: nothing to count.
        if !transcoded && !sample.withUnsafeBufferPointer({ Detector.contains($0, candidate) }) { continue }
        let reader = CSVReader(source: try source(), delimiter: candidate, file: file)
        var counts: [Int: Int] = [:]
        var seen = 0
        while seen < 400, (try? reader.next()) == true {
          if reader.line <= skipLines || reader.fieldCount < 2 { continue }
          counts[reader.fieldCount, default: 0] += 1
          seen += 1
        }
        guard let mode = counts.max(by: { ($0.value, $0.key) < ($1.value, $1.key) }) else { continue }
        // Consistent rows times extra fields: a comma inside German amounts ("-45,67") splits
        // every row in two, but `;` splits them in twelve.
        let score = mode.value * (mode.key - 1)
        if score > best.score || (score == best.score && mode.key > best.width) {
          best = (score, mode.key, candidate)
        }
      }
      delimiter = best.byte
    }

    // Sample records.
    var decoder = TextDecoder(mode: fieldText == .utf8Strict ? .utf8Fallback : fieldText)
    var records: [Record] = []
    let reader = CSVReader(source: try source(), delimiter: delimiter, file: file)
    do {
      while try reader.next() {
        if reader.line <= skipLines { continue }
        var fields: [String] = []
        fields.reserveCapacity(reader.fieldCount)
        for i in 0..<reader.fieldCount { fields.append(decoder.decode(reader.field(i)) ?? reader.string(i)) }
        if fields.allSatisfy(Detector.isBlank) { continue }
        records.append(Record(line: reader.line, fields: fields))
      }
    } catch {
      // An unterminated quote in the sample: detect from what came before; `run` reports it.
    }
    if truncated && records.count > 1 { records.removeLast() }
    guard !records.isEmpty else {
      throw .undetectable(
        file: file, message: "no rows found", hint: "check the file, or use --skip-lines if it only has a preamble")
    }

    var plan = Plan(
      encoding: encoding, encodingReason: encodingReason, fieldText: fieldText, delimiter: delimiter,
      headerLine: nil, dataStartLine: records[0].line, header: [], width: 0, minWidth: 0, roles: [],
      currency: defaultCurrency)
    if let code = options.currency {
      guard let currency = Currency(code: code.trimmingASCIIWhitespace()) else {
        throw .invalidOption(option: "--currency", message: "'\(code)' is not an ISO 4217 code (e.g. USD, EUR, GBP)")
      }
      plan.currency = currency
    }
    plan.account = options.account.flatMap { $0.isEmpty ? nil : $0 }

    // Header and data start.
    var widthCounts: [Int: Int] = [:]
    for r in records where r.fields.count >= 2 { widthCounts[r.fields.count, default: 0] += 1 }
    let mode = widthCounts.max(by: { ($0.value, $0.key) < ($1.value, $1.key) })?.key ?? 1
    let firstData = records.firstIndex { $0.fields.count == mode && Detector.looksLikeData($0.fields) }
    var dataIndex = firstData ?? 0
    var headerIndex: Int?
    if options.skipLines == nil, let named = Detector.namedHeader(records, mode: mode) {
      // A header known by its names below a long preamble (a bank's account, period and
      // address lines, some with a date or a number of their own).
      headerIndex = named
      dataIndex = named + 1
    } else if let firstData {
      // The header is the nearest row above the data that fits and is clearly not data. Rows
      // between them that hold a date or an amount (a pending reservation with a word for its
      // date, a row with a stray delimiter, a bad date, an opening balance) belong to the data:
      // they are imported, excluded or rejected with their line, never taken as the header.
      var candidate = firstData - 1
      while candidate >= 0, Detector.mayBeData(records[candidate].fields) { candidate -= 1 }
      if candidate >= 0, abs(records[candidate].fields.count - mode) <= 1, records[candidate].fields.count >= 2 {
        headerIndex = candidate
      }
      dataIndex = candidate + 1
    } else if let index = records.firstIndex(where: {
      abs($0.fields.count - mode) <= 1 && $0.fields.count >= 2 && !Detector.mayBeData($0.fields)
    }) {
      headerIndex = index
      dataIndex = index + 1
    }
    if let headerIndex {
      plan.headerLine = records[headerIndex].line
      plan.header = records[headerIndex].fields.map { $0.trimmingASCIIWhitespace() }
    }
    // Lines skipped before the header (or the data): announced, never dropped silently.
    plan.preambleLines = records[..<(headerIndex ?? dataIndex)].map(\.line)
    plan.dataStartLine = dataIndex < records.count ? records[dataIndex].line : (records[records.count - 1].line + 1)
    plan.width = plan.header.isEmpty ? mode : plan.header.count
    var minWidth = plan.width
    while minWidth > 1 && !plan.header.isEmpty && plan.header[minWidth - 1].isEmpty { minWidth -= 1 }
    plan.minWidth = minWidth
    let data = Array(records[min(dataIndex, records.count)...]).filter {
      Detector.fits($0.fields.count, plan) && !Detector.repeatsHeader($0.fields, plan.header)
        && !Detector.isBalanceRow($0.fields) && !Detector.isDatedBalanceLine($0.fields)
    }
    let sampledWidth = data.reduce(max(plan.width, 0)) { max($0, $1.fields.count) }
    plan.columnValues = (0..<sampledWidth).map { DetectorValues.values(data, $0) }

    // Roles.
    if let columns = options.columns {
      for (i, role) in columns.enumerated() where role != .ignore { plan.assign(role, i) }
      if plan.width < columns.count && plan.header.isEmpty { plan.width = max(plan.width, mode) }
    } else if !plan.header.isEmpty {
      try assignFromHeader(&plan, data: data)
    } else {
      inferHeaderless(&plan, data: data)
    }
    for (name, role) in options.namedColumns.sorted(by: { $0.key < $1.key }) {
      let key = HeaderNames.normalize(name)
      guard
        let index = plan.header.firstIndex(where: { $0.lowercased() == name.lowercased() })
          ?? plan.header.firstIndex(where: { HeaderNames.normalize($0) == key && !key.isEmpty })
      else {
        throw .invalidOption(
          option: "--column",
          message: "no column named '\(name)'; the header has: \(plan.header.joined(separator: ", "))")
      }
      // The named role replaces any column that had it (one amount, one date …).
      if role != .description && role != .ignore {
        for i in plan.roles.indices where plan.roles[i] == role { plan.roles[i] = nil }
      }
      plan.assign(role == .ignore ? .ignore : role, index)
    }
    plan.resolveIndexes()
    plan.samples = (0..<max(plan.width, plan.roles.count)).map {
      Array(plan.values($0).prefix(2))
    }
    try requireColumns(&plan)

    try DetectorValues.dateFormat(&plan, data: data, options: options, file: file)
    try DetectorColumns.currency(&plan, data: data, options: options, file: file)
    try DetectorValues.decimalMark(&plan, data: data, options: options, file: file)
    DetectorColumns.refine(&plan, data: data, options: options)
    try DetectorValues.signConvention(&plan, data: data, options: options, file: file)
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
    fields.contains { RowMapper.pendingDates.contains($0.trimmingASCIIWhitespace().lowercased()) }
      && fields.contains(where: looksLikeAmount)
  }

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
      if field.trimmingASCIIWhitespace().lowercased() != name.lowercased() { return false }
    }
    return true
  }

  /// The row that names a date and an amount column (`HeaderNames`) and is followed by a row
  /// of data, when it is below rows that are not data of its layout: the header below a
  /// preamble. Nil when none is, or when a row above it has a date where its date column is
  /// (that row could be a transaction: the positional rule then decides, and never skips it).
  static func namedHeader(_ records: [Record], mode: Int) -> Int? {
    for (index, record) in records.enumerated() where index > 0 && abs(record.fields.count - mode) <= 1 {
      let roles = record.fields.map { HeaderNames.match($0)?.role }
      guard let dateColumn = roles.firstIndex(of: .date),
        roles.contains(where: { [.amount, .debit, .credit].contains($0) }), !mayBeData(record.fields),
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

  /// A dated opening or closing balance line: one of its cells is a `balanceLineTexts` text.
  /// Kept out of detection's sample (its empty payee is not a memo's gap); the import
  /// excludes it by its description (`CSVImporter`).
  static func isDatedBalanceLine(_ fields: [String]) -> Bool {
    fields.contains { balanceLineTexts.contains($0.trimmingASCIIWhitespace().lowercased()) }
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

  func assignFromHeader(_ plan: inout Plan, data: [Record]) throws(ImportError) {
    var matches: [(index: Int, match: HeaderNames.Match)] = []
    for (i, name) in plan.header.enumerated() {
      guard var m = HeaderNames.match(name) else { continue }
      // A column empty in every sampled row never gets a role: an empty "Amount" beside
      // Soll/Haben, an empty "Dátum" beside the booking date.
      if !data.isEmpty && plan.values(i).isEmpty { continue }
      // A name is not enough: the values must fit the role (a card type under "Debit/Credit",
      // transaction-type words under "Amount Type" are neither a direction nor an amount).
      if !data.isEmpty && !DetectorColumns.valuesFit(m.role, plan.values(i)) { continue }
      if HeaderNames.normalize(name) == "valuta" {
        // Dutch/Italian "Valuta" is a currency, German "Valuta" a value date: look at the values.
        let values = data.prefix(50).compactMap { i < $0.fields.count ? $0.fields[i].trimmingASCIIWhitespace() : nil }
          .filter { !$0.isEmpty }
        if !values.isEmpty && values.allSatisfy(Detector.parsesAsDate) { m = HeaderNames.Match(role: .date, rank: 2) }
      }
      matches.append((i, m))
    }
    for role in ColumnRole.allCases where role != .description && role != .ignore {
      let candidates = matches.filter { $0.match.role == role }
      if let best = candidates.min(by: { ($0.match.rank, $0.index) < ($1.match.rank, $1.index) }) {
        // Two columns of one name that would both do: which one the bank meant is a guess.
        let key = HeaderNames.normalize(plan.header[best.index])
        if let twin = candidates.first(where: {
          $0.index != best.index && HeaderNames.normalize(plan.header[$0.index]) == key
        }) {
          let name = visibleControlCharacters(plan.header[best.index])
          throw .undetectable(
            file: file,
            message:
              "line \(plan.headerLine ?? 1): two columns are named \"\(name)\" (columns \(best.index + 1) and \(twin.index + 1)); which one is the \(role.rawValue) cannot be told",
            hint: "give every column's role by position with --columns (use - for a column to ignore)")
        }
        plan.assign(role, best.index)
      }
    }
    var texts = matches.filter { $0.match.role == .description }
    // A column with the same text on every row (a product name, the account holder) says
    // nothing about a transaction: the other text columns are the description when there are
    // any. (A memo filled on some rows only is not constant.)
    if data.count >= 2 {
      let varied = texts.filter { plan.values($0.index).count < data.count || Set(plan.values($0.index)).count > 1 }
      if !varied.isEmpty { texts = varied }
    }
    let primary = texts.filter { $0.match.primary }.min(by: { ($0.match.rank, $0.index) < ($1.match.rank, $1.index) })
    let memo = texts.filter { !$0.match.primary }.min(by: { ($0.match.rank, $0.index) < ($1.match.rank, $1.index) })
    for chosen in [primary, memo].compactMap({ $0 }).sorted(by: { $0.index < $1.index }) {
      plan.assign(.description, chosen.index)
    }
  }

  /// Without a header: the date column, an amount column and the longest text column.
  func inferHeaderless(_ plan: inout Plan, data: [Record]) {
    let rows = data.prefix(200)
    guard !rows.isEmpty else { return }
    func column(_ i: Int) -> [String] {
      rows.map { i < $0.fields.count ? $0.fields[i].trimmingASCIIWhitespace() : "" }
    }
    var dateIndex: Int?
    var amountIndex: Int?
    var textIndex: Int?
    var longest = 0
    for i in 0..<plan.width {
      let values = column(i).filter { !$0.isEmpty }
      if values.isEmpty { continue }
      // Dates out of range (`9999-12-31`) still make a date column; their rows are rejected.
      if dateIndex == nil && values.allSatisfy(Detector.looksLikeDateShape)
        && values.contains(where: Detector.parsesAsDate)
      {
        dateIndex = i
      } else if amountIndex == nil && values.allSatisfy(Detector.looksLikeAmount)
        && values.contains(where: { $0.contains(".") || $0.contains(",") || $0.hasPrefix("-") })
      {
        amountIndex = i
      } else if !values.allSatisfy(Detector.looksLikeAmount) {
        let total = values.reduce(0) { $0 + $1.count }
        if total > longest {
          longest = total
          textIndex = i
        }
      }
    }
    if let dateIndex { plan.assign(.date, dateIndex) }
    if let amountIndex { plan.assign(.amount, amountIndex) }
    if let textIndex { plan.assign(.description, textIndex) }
    if dateIndex != nil && amountIndex != nil {
      let roles = plan.roles.map { $0?.rawValue ?? "-" }.joined(separator: ",")
      plan.warnings.append("the file has no header row; guessed the columns as --columns \(roles)")
    }
  }

  func requireColumns(_ plan: inout Plan) throws(ImportError) {
    let names = plan.header.isEmpty ? "(no header row)" : plan.header.map { "'\($0)'" }.joined(separator: ", ")
    if plan.date < 0 {
      throw .undetectable(
        file: file, message: "no date column found; columns: \(names)",
        hint: plan.header.isEmpty
          ? "give the roles with --columns, e.g. --columns date,description,amount"
          : "name it with --column NAME=date, or give all roles with --columns")
    }
    if plan.amount == nil && plan.debit == nil && plan.credit == nil {
      throw .undetectable(
        file: file, message: "no amount column found (amount, or debit and credit); columns: \(names)",
        hint: plan.header.isEmpty
          ? "give the roles with --columns, e.g. --columns date,description,amount"
          : "name it with --column NAME=amount (or NAME=debit and NAME=credit)")
    }
    if plan.descriptions.isEmpty {
      plan.warnings.append("no description column found; rows get an empty description (use --column NAME=description)")
    }
  }

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
