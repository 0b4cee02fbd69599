import ExpenseCore

/// Reads Quicken Interchange Format: the cash-flow record types (`!Type:Bank`, `CCard`,
/// `Cash`, `Oth A`, `Oth L`), with splits, transfers and `!Account` blocks.
///
/// Unlike the other readers it keeps the file's records until the end (at most
/// `maxRecords`): a QIF date such as `03/04/2026` does not say whether the day or the month
/// comes first, and only all of the file's dates together can tell (or show that nothing
/// can). QIF files are written by hand-held programs for one account at a time, so they are
/// small; the bound keeps a damaged file from taking the memory.
public struct QIFReader: StatementReader {
  let file: String
  let options: ImportOptions
  let defaultCurrency: Currency
  public private(set) var settings: [StatementSetting] = []
  /// The settings added, to add each once in one look-up (a file of many statements, each its
  /// own account, made a search of the list quadratic).
  var seenSettings: Set<StatementSetting> = []

  /// The most transaction records a file may hold.
  static let maxRecords = 1_000_000

  /// One field: its text (trimmed) and line.
  struct Field {
    var text: String
    var line: Int
  }

  struct Split {
    var line: Int
    var category: String?
    var memo: String?
    var amount: Field?
  }

  struct Record {
    var line: Int
    var account: String?
    var date: Field?
    var amount: Field?
    /// `T` or `U`: the code the amount came from, for messages.
    var amountCode = "T"
    var payee = ""
    var memo = ""
    var category: Field?
    var splits: [Split] = []
    var isEmpty: Bool { date == nil && amount == nil && payee.isEmpty && memo.isEmpty && splits.isEmpty }
  }

  enum Pending {
    case record(Record)
    case warning(String)
  }

  enum Section {
    /// Before any header.
    case none
    /// Transaction records of a cash-flow account type (`Bank`, `CCard` …).
    case transactions
    /// `!Account` blocks: the account the records after them belong to.
    case account
    /// A record type that is not read.
    case skipped
  }

  public init(file: String, options: ImportOptions, defaultCurrency: Currency) {
    self.file = file
    self.options = options
    self.defaultCurrency = defaultCurrency
  }

  var accountOption: String? { options.account.flatMap { $0.isEmpty ? nil : $0 } }

  public mutating func read(_ source: any ByteSource, _ body: (StatementEvent) throws -> Void) throws {
    let currency = try chosenCurrency()
    let dayFirstOption = try chosenOrder()
    var accounts: [String] = []
    let pending = try collect(source, accounts: &accounts)
    let dayFirst = try order(pending, option: dayFirstOption)
    let mark = try decimalMark(pending)
    addSetting("currency", currency.code, options.currency == nil ? "the database's default" : "--currency")
    if let accountOption {
      addSetting("account", accountOption, "--account")
    } else {
      for account in accounts { addSetting("account", account, "!Account") }
    }
    var group = 0
    for item in pending {
      switch item {
      case .warning(let text):
        try body(.warning(text))
      case .record(let record):
        let made: [StatementEntry]
        do {
          made = try entries(record, dayFirst: dayFirst, mark: mark, currency: currency, group: &group)
        } catch ImportError.row(let issue) {
          try body(.rejected(issue))
          continue
        }
        for entry in made { try body(.entry(entry)) }
      }
    }
  }

  // MARK: Options

  func chosenCurrency() throws(ImportError) -> Currency {
    guard let code = options.currency else { return defaultCurrency }
    guard let currency = Currency(code: code.trimmingASCIIWhitespace()) else {
      throw .invalidOption(option: "--currency", message: "'\(code)' is not an ISO 4217 code (e.g. USD, EUR, GBP)")
    }
    return currency
  }

  /// `--date-format`'s order: true for day first, false for month first, nil when not given
  /// (or year first, which every date shows by itself).
  func chosenOrder() throws(ImportError) -> Bool? {
    guard let pattern = options.dateFormat else { return nil }
    guard let format = DateFormat(pattern: pattern) else {
      throw .invalidOption(
        option: "--date-format",
        message: "'\(pattern)' is not a date pattern; use the tokens YYYY YY MM M DD D, e.g. DD.MM.YYYY or YYYYMMDD")
    }
    switch format.order {
    case .dmy: return true
    case .mdy: return false
    case .ymd: return nil
    }
  }

  mutating func addSetting(_ name: String, _ value: String, _ source: String) {
    let setting = StatementSetting(name: name, value: value, source: source)
    if seenSettings.insert(setting).inserted { settings.append(setting) }
  }

  // MARK: Reading

  /// Reads every line: the records of the read types, and one warning per type skipped.
  mutating func collect(_ source: any ByteSource, accounts: inout [String]) throws -> [Pending] {
    let lines = LineReader(source)
    var pending: [Pending] = []
    var section = Section.none
    var record: Record?
    var account: String?
    var accountName: String?
    var accountLine = 0
    var seenAccounts: Set<String> = []
    var warned: Set<String> = []
    var records = 0
    var first = true
    while var bytes = try lines.next(file: file) {
      let line = lines.line
      if first {
        first = false
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
      }
      let text = String(decoding: bytes, as: UTF8.self).trimmingASCIIWhitespace()
      guard let code = text.first else { continue }
      if bytes.count > ImportLimits.maxFieldBytes {
        throw ImportError.row(
          ImportIssue(
            kind: .fieldTooLong, file: file, line: line, column: nil, columnName: String(code),
            rawValue: String(text.prefix(48)) + "… (\(bytes.count) bytes)",
            message: "the line is \(bytes.count) bytes; the limit is \(ImportLimits.size(ImportLimits.maxFieldBytes))",
            hint: "no QIF field is this long: the file may be damaged"))
      }
      if code == "!" {
        if section == .account, accountName != nil {
          throw ImportError.malformed(
            file: file, line: line,
            message: "a header comes before the !Account block from line \(accountLine) ends with ^",
            hint: "the file is damaged (the account would be lost): add the missing ^ line, or export the file again")
        }
        if let open = record, !open.isEmpty {
          throw ImportError.undetectable(
            file: file, message: "line \(line): a header comes before the record from line \(open.line) ends with ^",
            hint: "the file is damaged: every record ends with a line holding ^")
        }
        record = nil
        let header = text.dropFirst().lowercased().filter { $0 != " " && $0 != "\t" }
        if header == "account" {
          section = .account
        } else if header.hasPrefix("option:") || header.hasPrefix("clear:") {
          continue
        } else if header.hasPrefix("type:") {
          let type = String(text.drop { $0 != ":" }.dropFirst()).trimmingASCIIWhitespace()
          if let name = QIFReader.cashFlowType(header.dropFirst(5)) {
            section = .transactions
            addSetting("format", "QIF (\(name))", "!Type:" + type)
          } else {
            section = .skipped
            let warning = QIFReader.skippedWarning(String(header.dropFirst(5)), type)
            if warned.insert(warning).inserted { pending.append(.warning(warning)) }
          }
        } else {
          section = .skipped
          let warning = "\(text) records are not read"
          if warned.insert(warning).inserted { pending.append(.warning(warning)) }
        }
        continue
      }
      let value = String(text.dropFirst()).trimmingASCIIWhitespace()
      switch section {
      case .account:
        if code == "N" {
          accountName = value
          accountLine = line
        }
        if code == "^" {
          if let accountName, !accountName.isEmpty {
            account = accountName
          }
          accountName = nil
        }
        continue
      case .skipped:
        continue
      case .none, .transactions:
        break
      }
      if code == "^" {
        if let done = record, !done.isEmpty {
          records += 1
          guard records <= QIFReader.maxRecords else {
            throw ImportError.undetectable(
              file: file, message: "more than \(QIFReader.maxRecords) transactions in one file",
              hint: "export the account in parts (by year) and import each")
          }
          pending.append(.record(done))
          if let name = done.account, seenAccounts.insert(name).inserted { accounts.append(name) }
        }
        record = nil
        continue
      }
      // Taken out, not copied: a copy left in `record` made every split appended copy the
      // record's splits (quadratic in a record's split lines).
      var current = record.take() ?? Record(line: line, account: account)
      if let repeated = QIFReader.repeated(code, in: current) {
        throw ImportError.malformed(
          file: file, line: line,
          message:
            "a second \(repeated) line in the record that starts on line \(current.line): the ^ that ends a record is missing before it",
          hint:
            "the file is damaged (two transactions would be read as one): add the missing ^ line, or export the file again"
        )
      }
      QIFReader.field(code, value, line, &current)
      record = current
    }
    if let last = record, !last.isEmpty {
      // Quicken sometimes leaves out the last `^`: a record with a date and an amount is whole.
      guard last.date != nil, last.amount != nil else {
        throw ImportError.undetectable(
          file: file, message: "the file ends inside the record that starts on line \(last.line) (no ^ after it)",
          hint: "the file is truncated: export it again")
      }
      pending.append(.record(last))
      if let name = last.account, seenAccounts.insert(name).inserted { accounts.append(name) }
    }
    return pending
  }

  /// The name a cash-flow type is shown with, or nil for a type that is not read.
  static func cashFlowType(_ lowered: Substring) -> String? {
    switch lowered {
    case "bank": return "Bank"
    case "ccard": return "CCard"
    case "cash": return "Cash"
    case "otha": return "Oth A"
    case "othl": return "Oth L"
    default: return nil
    }
  }

  static func skippedWarning(_ lowered: String, _ written: String) -> String {
    switch lowered {
    case "invst": return "investment records (!Type:Invst) are not read"
    case "cat": return "the category list (!Type:Cat) is not read"
    case "class": return "the class list (!Type:Class) is not read"
    case "memorized": return "memorized transactions (!Type:Memorized) are not read"
    default: return "!Type:\(written) records are not read"
    }
  }

  /// The code of a field the record holds already and cannot hold twice (`D`, `T`, `U`), or
  /// nil. Two of them mean two records ran together: the `^` between them is missing.
  static func repeated(_ code: Character, in record: Record) -> String? {
    switch code {
    case "D" where record.date != nil: return "D"
    case "T" where record.amount != nil && record.amountCode == "T": return "T"
    case "U" where record.amount != nil && record.amountCode == "U": return "U"
    default: return nil
    }
  }

  /// Puts one field into the record. Codes that carry nothing for an expense (`A` address,
  /// `C` cleared, `N` number, `%` split percentage, investment codes) are left out.
  static func field(_ code: Character, _ value: String, _ line: Int, _ record: inout Record) {
    switch code {
    case "D": record.date = Field(text: value, line: line)
    case "T":
      record.amount = Field(text: value, line: line)
      record.amountCode = "T"
    case "U":
      // The same amount as T (newer Quicken writes both); T wins when both are there.
      if record.amount == nil || record.amountCode == "U" {
        record.amount = Field(text: value, line: line)
        record.amountCode = "U"
      }
    case "P": record.payee = value
    case "M": record.memo = value
    case "L": record.category = Field(text: value, line: line)
    case "S": record.splits.append(Split(line: line, category: value))
    case "E":
      if record.splits.last.map({ $0.memo == nil && $0.amount == nil }) != true {
        record.splits.append(Split(line: line))
      }
      record.splits[record.splits.count - 1].memo = value
    case "$":
      if record.splits.last.map({ $0.amount == nil }) != true { record.splits.append(Split(line: line)) }
      record.splits[record.splits.count - 1].amount = Field(text: value, line: line)
    default:
      break
    }
  }

  // MARK: The file's layout

  /// Day first or month first, from `--date-format` or from every date of the file.
  mutating func order(_ pending: [Pending], option: Bool?) throws -> Bool {
    var dayFirstLine: (Int, String)?
    var monthFirstLine: (Int, String)?
    var ambiguous: String?
    var separator: Character = "/"
    var yearFirstOnly = true
    for case .record(let record) in pending {
      guard let field = record.date, let date = QIFDate(field.text), !date.yearFirst else { continue }
      if yearFirstOnly { separator = date.separator }
      yearFirstOnly = false
      if date.first > 12 && date.second <= 12 && dayFirstLine == nil { dayFirstLine = (field.line, field.text) }
      if date.second > 12 && date.first <= 12 && monthFirstLine == nil { monthFirstLine = (field.line, field.text) }
      if date.first <= 12 && date.second <= 12 && date.first != date.second && ambiguous == nil {
        ambiguous = field.text
      }
    }
    let sep = String(separator == "'" ? "/" : separator)
    if let option {
      addSetting("date format", option ? "DD\(sep)MM\(sep)YYYY" : "MM\(sep)DD\(sep)YYYY", "--date-format")
      return option
    }
    if options.dateFormat != nil || yearFirstOnly {
      addSetting("date format", "YYYY-MM-DD", options.dateFormat != nil ? "--date-format" : "detected")
      return false
    }
    if let day = dayFirstLine, let month = monthFirstLine {
      throw ImportError.undetectable(
        file: file,
        message:
          "the dates contradict each other: line \(day.0) ('\(day.1)') has the day first, line \(month.0) ('\(month.1)') the month first",
        hint: "correct the file, or say which with --date-format DD/MM/YYYY or --date-format MM/DD/YYYY")
    }
    if dayFirstLine == nil && monthFirstLine == nil && ambiguous != nil {
      throw ImportError.undetectable(
        file: file, message: "the dates fit both day/month and month/day (e.g. '\(ambiguous ?? "")')",
        hint: "say which with --date-format DD/MM/YYYY or --date-format MM/DD/YYYY")
    }
    let dayFirst = dayFirstLine != nil
    addSetting("date format", dayFirst ? "DD\(sep)MM\(sep)YYYY" : "MM\(sep)DD\(sep)YYYY", "detected")
    return dayFirst
  }

  /// `.` or `,`, from `--decimal-mark` or from the amounts: `,` only when some amount proves
  /// it and none proves `.`.
  mutating func decimalMark(_ pending: [Pending]) throws -> UInt8 {
    if let mark = options.decimalMark {
      switch mark {
      case ".", "dot", "period", "point": return 0x2E
      case ",", "comma": return 0x2C
      default: throw ImportError.invalidOption(option: "--decimal-mark", message: "'\(mark)' must be . or ,")
      }
    }
    var dot: Field?
    var comma: Field?
    for case .record(let record) in pending {
      for field in [record.amount] + record.splits.map(\.amount) {
        guard let field, let mark = QIFAmounts.provenMark(field.text) else { continue }
        if mark == 0x2E && dot == nil { dot = field }
        if mark == 0x2C && comma == nil { comma = field }
      }
    }
    if let dot, let comma {
      throw ImportError.undetectable(
        file: file,
        message:
          "the amounts use both '.' (line \(dot.line): '\(dot.text)') and ',' (line \(comma.line): '\(comma.text)') as decimal mark",
        hint: "correct the file, or say which with --decimal-mark . or --decimal-mark ,")
    }
    return comma != nil ? 0x2C : 0x2E
  }

  // MARK: Entries

  func entries(_ record: Record, dayFirst: Bool, mark: UInt8, currency: Currency, group: inout Int) throws
    -> [StatementEntry]
  {
    guard let dateField = record.date else { throw missing("D", "date", record.line) }
    guard let amountField = record.amount else { throw missing("T", "amount", record.line) }
    let date = try parseDate(dateField, dayFirst: dayFirst)
    let total = try amount(amountField, code: record.amountCode, mark: mark, currency: currency)
    let account = accountOption ?? record.account
    if record.splits.isEmpty {
      let (category, transfer) = QIFReader.category(record.category?.text)
      return [
        StatementEntry(
          line: record.line, date: date, amount: Money(minor: total, currency: currency),
          description: QIFReader.describe(record.payee, record.memo), category: category, account: account,
          isTransfer: transfer)
      ]
    }
    group += 1
    var sum: Int64 = 0
    var out: [StatementEntry] = []
    for split in record.splits {
      guard let field = split.amount else { throw missing("$", "amount", split.line) }
      let minor = try amount(field, code: "$", mark: mark, currency: currency)
      let (next, overflow) = sum.addingReportingOverflow(minor)
      if overflow {
        throw ImportError.row(
          ImportIssue(
            kind: .badAmount, file: file, line: field.line, column: nil, columnName: "$", rawValue: field.text,
            message: "the splits add up to more than an amount can hold", hint: "the file may be damaged"))
      }
      sum = next
      let (category, transfer) = QIFReader.category(split.category)
      let memo = split.memo.flatMap { $0.isEmpty ? nil : $0 } ?? record.memo
      out.append(
        StatementEntry(
          line: split.line, date: date, amount: Money(minor: minor, currency: currency),
          description: QIFReader.describe(record.payee, memo), category: category, account: account,
          isTransfer: transfer, splitGroup: group))
    }
    if sum != total {
      let splits = Money(minor: sum, currency: currency).decimalString
      let stated = Money(minor: total, currency: currency).decimalString
      throw ImportError.row(
        ImportIssue(
          kind: .badAmount, file: file, line: amountField.line, column: nil, columnName: record.amountCode,
          rawValue: amountField.text,
          message: "the splits add up to \(splits) but the record's total is \(stated)",
          hint: "the file is damaged or was edited by hand: correct the split amounts ($ lines) or the total"))
    }
    return out
  }

  /// `Groceries:Food/Family` → `Groceries:Food` (the class dropped); `[Savings]` → a transfer
  /// to the account `Savings`; empty → nil.
  static func category(_ raw: String?) -> (String?, Bool) {
    guard var text = raw?.trimmingASCIIWhitespace(), !text.isEmpty else { return (nil, false) }
    if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
      let name = String(text[text.index(after: text.startIndex)..<close]).trimmingASCIIWhitespace()
      return (name.isEmpty ? nil : name, !name.isEmpty)
    }
    if let slash = text.firstIndex(of: "/") { text = String(text[..<slash]).trimmingASCIIWhitespace() }
    return (text.isEmpty ? nil : text, false)
  }

  /// Payee, then the memo (unless empty or the same), joined with " / ".
  static func describe(_ payee: String, _ memo: String) -> String {
    if memo.isEmpty || memo == payee { return payee }
    if payee.isEmpty { return memo }
    return payee + " / " + memo
  }

  func parseDate(_ field: Field, dayFirst: Bool) throws -> CivilDate {
    guard let parsed = QIFDate(field.text) else {
      throw issue(
        .badDate, field, "D", message: "not a date",
        hint: "QIF dates look like 10/3'26, 10/03/2026, 03.10.2026 or 2026-10-03: the file may be damaged")
    }
    guard let date = parsed.date(dayFirst: dayFirst) else {
      let layout = parsed.yearFirst ? "YYYY-MM-DD" : (dayFirst ? "day/month/year" : "month/day/year")
      throw issue(
        .badDate, field, "D", message: "not a date when read as \(layout)",
        hint: "check the date; if the file's dates are the other way round, say so with --date-format")
    }
    guard date.isSupported else {
      throw issue(
        .badDate, field, "D", message: "the date is outside 1900–2999",
        hint: "check the date in the file: no statement holds such a date")
    }
    return date
  }

  func amount(_ field: Field, code: String, mark: UInt8, currency: Currency) throws -> Int64 {
    switch AmountParser(decimalMark: mark).parse(field.text, minorUnits: currency.minorUnits) {
    case .success(let minor): return minor
    case .failure(.tooManyDecimals):
      throw issue(
        .badAmount, field, code, message: "more decimals than \(currency.code) has (\(currency.minorUnits))",
        hint: "QIF names no currency: give the file's with --currency")
    case .failure(let failure):
      let name = mark == 0x2C ? "','" : "'.'"
      throw issue(
        .badAmount, field, code, message: failure.description,
        hint: "amounts in this file are read with \(name) as decimal mark; use --decimal-mark to override")
    }
  }

  func issue(_ kind: ImportIssue.Kind, _ field: Field, _ code: String, message: String, hint: String) -> ImportError {
    .row(
      ImportIssue(
        kind: kind, file: file, line: field.line, column: nil, columnName: code, rawValue: field.text,
        message: message, hint: hint))
  }

  func missing(_ code: String, _ what: String, _ line: Int) -> ImportError {
    .row(
      ImportIssue(
        kind: .missingRequiredColumn, file: file, line: line, column: nil, columnName: code, rawValue: "",
        message: "the record has no \(what) (\(code) line)",
        hint: code == "$"
          ? "every split (S line) needs its amount ($ line)"
          : "every transaction record needs a D and a T line before its ^: the file may be damaged"))
  }
}
