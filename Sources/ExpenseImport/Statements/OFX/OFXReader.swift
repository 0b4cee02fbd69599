import ExpenseCore

/// Reads OFX bank and credit card statements: OFX 1.x (SGML, leaf tags left open), OFX 2.x
/// (XML) and QFX (OFX with Intuit's extra tags, which are ignored).
///
/// It streams: the tokenizer reads the file in chunks, and only the open elements and the
/// current transaction are kept. Each `STMTTRN` of a statement's `BANKTRANLIST` becomes one
/// entry; a transaction anywhere else (a pending list) is reported as excluded. The statement's
/// `CURDEF` and account come before its transactions in every OFX version, so each entry is
/// complete when its `</STMTTRN>` (or the next tag that ends it) is read.
public struct OFXReader: StatementReader {
  let file: String
  let options: ImportOptions
  let defaultCurrency: Currency
  public private(set) var settings: [StatementSetting] = []
  /// The settings added, to add each once in one look-up (a file of many statements, each its
  /// own account, made a search of the list quadratic).
  var seenSettings: Set<StatementSetting> = []

  struct Frame {
    var name: OFXName
    var line: Int
  }

  struct Statement {
    var currency: Currency?
    var account: String?
    /// `ACCTTYPE` of a bank account (CHECKING, SAVINGS …); nil for a card.
    var accountType: String?
    var isCard = false
    /// `LEDGERBAL`'s `BALAMT` and `DTASOF`, while it is read.
    var ledgerAmount: Value?
    var ledgerDate: Value?

    /// The account as stored: its number masked to the last four ("Card …8812", "Checking
    /// …0042"), so a card number never reaches a list, a journal or JSON.
    var maskedAccount: String? {
      guard let account else { return nil }
      let kind: String
      switch accountType?.uppercased() {
      case "CHECKING": kind = "Checking"
      case "SAVINGS": kind = "Savings"
      case "MONEYMRKT": kind = "Money market"
      case "CREDITLINE": kind = "Credit line"
      case "CD": kind = "Deposit"
      default: kind = isCard ? "Card" : "Account"
      }
      return kind + " " + OFXReader.mask(account)
    }
  }

  /// An account number as its last four characters after an ellipsis ("…8812"); a number of
  /// four characters or fewer hides nothing and is kept.
  static func mask(_ number: String) -> String {
    let kept = number.filter { !$0.isWhitespace }
    return kept.count <= 4 ? kept : "\u{2026}" + String(kept.suffix(4))
  }

  /// A value and the line it is on.
  struct Value {
    var text: String
    var line: Int
  }

  struct Transaction {
    var line: Int
    /// Why it is not an entry, when it is not one (pending, outside a statement's list).
    var excluded: String?
    var posted: Value?
    var amount: Value?
    var fitID: String?
    var name: String?
    var payeeName: String?
    var memo: String?
    var currency: Value?
  }

  /// How deep elements may nest: OFX nests about eight deep; the bound keeps a damaged file of
  /// unclosed tags from growing the stack without end.
  static let maxDepth = 1000

  // Which names are leaves, and which aggregates the file must close: `OFXName`.

  // Reading state.
  var stack: [Frame] = []
  var justOpened = false
  var lastLeaf: OFXName?
  var seenTag = false
  var headerVersion: String?
  var headerSyntax: String?
  var sawXMLDeclaration = false
  var statement: Statement?
  var statementCount = 0
  var transaction: Transaction?
  var forcedCurrency: Currency?

  /// `--account`, unless empty.
  let accountOption: String?

  public init(file: String, options: ImportOptions, defaultCurrency: Currency) {
    self.file = file
    self.options = options
    self.defaultCurrency = defaultCurrency
    accountOption = options.account.flatMap { $0.isEmpty ? nil : $0 }
  }

  public mutating func read(_ source: any ByteSource, _ body: (StatementEvent) throws -> Void) throws {
    if let code = options.currency {
      guard let currency = Currency(code: code.trimmingASCIIWhitespace()) else {
        throw ImportError.invalidOption(
          option: "--currency", message: "'\(code)' is not an ISO 4217 code (e.g. USD, EUR, GBP)")
      }
      forcedCurrency = currency
    }
    var tokenizer = OFXTokenizer(source, file: file)
    while let token = try tokenizer.next() {
      let line = tokenizer.tokenLine
      switch token {
      case .instruction(let text):
        instruction(text)
      case .text:
        if !seenTag {
          header(tokenizer.text())
        } else if justOpened, let top = stack.last {
          justOpened = false
          // Text right after an aggregate the reader knows (`<STMTTRN>x<TRNTYPE>…`) is not its
          // value: OFX gives an aggregate none. Taken for a leaf's, it closed the aggregate,
          // and the transaction it opened was lost without a word; XML reads such text as
          // stray character data, and so does the reader.
          if top.name.id == 0 || top.name.isLeaf {
            stack.removeLast()
            lastLeaf = top.name
            try self.leaf(top.name, line: line, tokenizer)
          }
        }
      case .open(let name, let selfClosing):
        if !seenTag { begin() }
        if justOpened, let top = stack.last, top.name.isLeaf { stack.removeLast() }
        try open(name, line: line)
        if selfClosing { try close(name, line: line, body) }
      case .close(let name):
        if !seenTag { begin() }
        try close(name, line: line, body)
      }
    }
    try finish()
  }

  // MARK: Structure

  /// The first tag: what came before it (an SGML header, `<?OFX …?>`) names the format.
  mutating func begin() {
    seenTag = true
    let xml = headerSyntax == "XML" || (headerSyntax == nil && sawXMLDeclaration)
    let syntax = xml ? "XML" : "SGML"
    if let headerVersion {
      settings.append(StatementSetting(name: "format", value: "OFX \(headerVersion) (\(syntax))", source: "header"))
    } else {
      settings.append(StatementSetting(name: "format", value: "OFX (\(syntax))", source: "no header"))
    }
    if let accountOption {
      settings.append(StatementSetting(name: "account", value: accountOption, source: "--account"))
    }
  }

  /// The SGML header: `KEY:VALUE` pairs separated by line ends (or, in a file without line
  /// ends, by blanks).
  mutating func header(_ text: String) {
    for pair in text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\r\n" }) {
      let parts = pair.split(separator: ":", maxSplits: 1)
      guard parts.count == 2 else { continue }
      let key = parts[0].uppercased()
      if key == "VERSION" { headerVersion = OFXValues.version(String(parts[1])) }
      if key == "OFXHEADER" && headerSyntax == nil { headerSyntax = "SGML" }
    }
  }

  /// `<?xml …?>` marks XML; `<?OFX OFXHEADER="200" VERSION="220" …?>` is the 2.x header.
  mutating func instruction(_ text: String) {
    let upper = text.uppercased()
    if upper.hasPrefix("XML") { sawXMLDeclaration = true }
    guard upper.hasPrefix("OFX") else { return }
    headerSyntax = "XML"
    if let range = upper.range(of: "VERSION") {
      let rest = upper[range.upperBound...].drop { $0 == " " || $0 == "=" }
      if let quote = rest.first, quote == "\"" || quote == "'" {
        let value = rest.dropFirst().prefix { $0 != quote }
        headerVersion = OFXValues.version(String(value))
      }
    }
  }

  mutating func open(_ name: OFXName, line: Int) throws {
    guard stack.count < OFXReader.maxDepth else {
      throw ImportError.undetectable(
        file: file, message: "line \(line): tags nested more than \(OFXReader.maxDepth) deep",
        hint: "the file is damaged or not an OFX statement")
    }
    try checkNesting(name, line: line)
    stack.append(Frame(name: name, line: line))
    justOpened = true
    lastLeaf = nil
    switch name {
    case .stmtrs, .ccstmtrs:
      statementCount += 1
      statement = Statement()
      let kind = name == .stmtrs ? "bank" : "credit card"
      addSetting("statement", kind, name.text)
    case .stmttrn, .pendingtrn:
      transaction = Transaction(line: line, excluded: exclusion(name))
    default:
      break
    }
  }

  /// Why a transaction opened here is not an entry, or nil when it is one.
  func exclusion(_ name: OFXName) -> String? {
    let outer = stack.dropLast()
    if name == .pendingtrn || outer.contains(where: { $0.name == .pendingtrnlist }) {
      return "pending: not booked yet (PENDINGTRNLIST)"
    }
    if !outer.contains(where: { $0.name == .banktranlist }) || statement == nil {
      return "pending or not booked: outside a statement's BANKTRANLIST"
    }
    return nil
  }

  mutating func close(_ name: OFXName, line: Int, _ body: (StatementEvent) throws -> Void) throws {
    justOpened = false
    if lastLeaf == name {
      // `<NAME>value</NAME>`: the leaf was taken when its value was read.
      lastLeaf = nil
      return
    }
    lastLeaf = nil
    // A close tag ends the innermost element of its name and everything still open inside it
    // (SGML leaves them open); one that matches nothing open is ignored. An aggregate the file
    // must close that is ended this way lost its own close tag: what was meant is plain (it
    // ends here), so it is read so, with a warning naming the line.
    guard let index = stack.lastIndex(where: { $0.name == name }) else { return }
    while stack.count > index, let frame = stack.popLast() {
      if stack.count > index && frame.name.isRequiredAggregate {
        try body(.warning(implicitClose(frame, by: name, line: line)))
      }
      try end(frame, body)
    }
  }

  mutating func end(_ frame: Frame, _ body: (StatementEvent) throws -> Void) throws {
    switch frame.name {
    case .stmttrn, .pendingtrn:
      guard let current = transaction else { return }
      transaction = nil
      if let reason = current.excluded {
        try body(.excluded(line: current.line, reason: reason))
      } else {
        let made: StatementEntry
        do {
          made = try entry(current)
        } catch ImportError.row(let issue) {
          try body(.rejected(issue))
          return
        }
        try body(.entry(made))
      }
    case .stmtrs, .ccstmtrs:
      statement = nil
    case .ledgerbal:
      if let balance = try ledgerBalance() { try body(.balance(balance)) }
    default:
      break
    }
  }

  /// The statement's `LEDGERBAL`: the balance at the end of the day of `DTASOF`. One that
  /// cannot be read is left out with the statement's rows still imported (the balance is a
  /// check, not a transaction), so it fails nothing: nil.
  mutating func ledgerBalance() throws -> StatementBalance? {
    defer {
      statement?.ledgerAmount = nil
      statement?.ledgerDate = nil
    }
    guard let statement, let amount = statement.ledgerAmount, let asOf = statement.ledgerDate,
      case .success(let date) = OFXValues.date(asOf.text)
    else { return nil }
    let currency = statement.currency ?? forcedCurrency ?? defaultCurrency
    guard case .success(let minor) = OFXValues.amount(amount.text, minorUnits: currency.minorUnits) else {
      return nil
    }
    return StatementBalance(
      account: accountOption ?? statement.maskedAccount ?? statement.account, date: date,
      amount: Money(minor: minor, currency: currency), file: file, line: amount.line, source: "OFX LEDGERBAL")
  }

  /// The innermost open aggregate: the element a leaf belongs to.
  var context: OFXName? {
    stack.last { !$0.name.isLeaf }?.name
  }

  /// A leaf's value (in `tokenizer`), decoded only when the reader keeps it.
  mutating func leaf(_ name: OFXName, line: Int, _ tokenizer: borrowing OFXTokenizer) throws {
    let parent = context
    if transaction != nil {
      switch (parent, name) {
      case (.stmttrn, .dtposted): transaction?.posted = Value(text: tokenizer.text(), line: line)
      case (.stmttrn, .trnamt): transaction?.amount = Value(text: tokenizer.text(), line: line)
      case (.stmttrn, .fitid): transaction?.fitID = tokenizer.text()
      case (.stmttrn, .name): transaction?.name = tokenizer.text()
      case (.stmttrn, .memo): transaction?.memo = tokenizer.text()
      case (.payee, .name): transaction?.payeeName = tokenizer.text()
      case (.currency, .cursym): transaction?.currency = Value(text: tokenizer.text(), line: line)
      default: break
      }
      return
    }
    guard statement != nil else { return }
    switch (parent, name) {
    case (.stmtrs, .curdef), (.ccstmtrs, .curdef):
      try statementCurrency(Value(text: tokenizer.text(), line: line))
    case (.bankacctfrom, .acctid), (.ccacctfrom, .acctid):
      let value = tokenizer.text()
      statement?.account = value
      statement?.isCard = parent == .ccacctfrom
      if accountOption == nil, let parent {
        addSetting("account", OFXReader.mask(value), parent.text + "/ACCTID, shown by its last 4")
      }
    case (.bankacctfrom, .accttype):
      statement?.accountType = tokenizer.text()
    case (.ledgerbal, .balamt):
      statement?.ledgerAmount = Value(text: tokenizer.text(), line: line)
    case (.ledgerbal, .dtasof):
      statement?.ledgerDate = Value(text: tokenizer.text(), line: line)
    default:
      break
    }
  }

  mutating func statementCurrency(_ value: Value) throws {
    guard let currency = Currency(code: value.text) else {
      throw issue(
        .unknownCurrency, value, "CURDEF", message: "not an ISO 4217 currency code",
        hint: "CURDEF names the statement's currency, such as USD or EUR: the file may be damaged")
    }
    if let forced = forcedCurrency, forced != currency {
      throw ImportError.undetectable(
        file: file,
        message:
          "the file says its amounts are in \(currency.code) (CURDEF, line \(value.line)), but --currency says \(forced.code)",
        hint: "drop --currency to use \(currency.code), or check that this is the file you meant")
    }
    statement?.currency = currency
    addSetting("currency", currency.code, "CURDEF")
  }

  /// Adds a setting unless the same one is there (several statements of one account).
  mutating func addSetting(_ name: String, _ value: String, _ source: String) {
    let setting = StatementSetting(name: name, value: value, source: source)
    if seenSettings.insert(setting).inserted { settings.append(setting) }
  }

  // MARK: Entries

  func entry(_ t: Transaction) throws -> StatementEntry {
    guard let posted = t.posted else { throw missing("DTPOSTED", t.line) }
    guard let amountValue = t.amount else { throw missing("TRNAMT", t.line) }
    let currency: Currency
    if let code = t.currency {
      guard let stated = Currency(code: code.text) else {
        throw issue(
          .unknownCurrency, code, "CURSYM", message: "not an ISO 4217 currency code",
          hint: "CURRENCY/CURSYM names the transaction's currency, such as USD or EUR: the file may be damaged")
      }
      currency = stated
    } else if let stated = statement?.currency {
      currency = stated
    } else if let forcedCurrency {
      currency = forcedCurrency
    } else {
      throw ImportError.undetectable(
        file: file, message: "line \(t.line): the statement names no currency (no CURDEF before its transactions)",
        hint: "give the currency with --currency")
    }
    let date: CivilDate
    switch OFXValues.date(posted.text) {
    case .success(let value): date = value
    case .failure(.invalid):
      throw issue(
        .badDate, posted, "DTPOSTED", message: "not an OFX date",
        hint:
          "OFX dates are YYYYMMDD, optionally with a time such as 20261003120000.000[-5:EST]: the file may be damaged")
    case .failure(.outOfRange):
      throw issue(
        .badDate, posted, "DTPOSTED", message: "the date is outside 1900–2999",
        hint: "check the date in the file: no statement holds such a date")
    }
    let minor: Int64
    switch OFXValues.amount(amountValue.text, minorUnits: currency.minorUnits) {
    case .success(let value): minor = value
    case .failure(.tooManyDecimals):
      throw issue(
        .badAmount, amountValue, "TRNAMT",
        message: "more decimals than \(currency.code) has (\(currency.minorUnits))",
        hint: "the amount would have to be rounded; check the file's CURDEF or the transaction's currency")
    case .failure(.outOfRange):
      throw issue(
        .badAmount, amountValue, "TRNAMT", message: "the amount is too large",
        hint: "the file may be damaged")
    case .failure:
      throw issue(
        .badAmount, amountValue, "TRNAMT", message: "not an amount",
        hint: "TRNAMT is a signed number such as -12.50 (or -12,50); the file may be damaged")
    }
    // NAME (else PAYEE/NAME), then MEMO unless empty or the same, joined with " / ".
    let name: String
    if let own = t.name, !own.isEmpty {
      name = own
    } else if let payee = t.payeeName, !payee.isEmpty {
      name = payee
    } else {
      name = ""
    }
    let description: String
    if let memo = t.memo, !memo.isEmpty, memo != name {
      description = name.isEmpty ? memo : name + " / " + memo
    } else {
      description = name
    }
    let fitID = t.fitID.flatMap { $0.isEmpty ? nil : $0 }
    var entry = StatementEntry(
      line: t.line, date: date, amount: Money(minor: minor, currency: currency), description: description,
      account: accountOption ?? statement?.account, transactionID: fitID)
    if accountOption == nil { entry.accountName = statement?.maskedAccount }
    return entry
  }

  func issue(_ kind: ImportIssue.Kind, _ value: Value, _ tag: String, message: String, hint: String) -> ImportError {
    .row(
      ImportIssue(
        kind: kind, file: file, line: value.line, column: nil, columnName: tag, rawValue: value.text,
        message: message, hint: hint))
  }

  func missing(_ tag: String, _ line: Int) -> ImportError {
    .row(
      ImportIssue(
        kind: .missingRequiredColumn, file: file, line: line, column: nil, columnName: tag, rawValue: "",
        message: "the transaction has no \(tag)",
        hint: "every transaction needs DTPOSTED and TRNAMT: the file may be damaged; export it again"))
  }

  // MARK: End

  func finish() throws {
    if let transaction {
      throw ImportError.undetectable(
        file: file,
        message: "the file ends inside a transaction (the <STMTTRN> on line \(transaction.line) is never closed)",
        hint: "the file is truncated: download the statement again")
    }
    if let open = stack.last(where: { $0.name.isRequiredAggregate }) {
      throw ImportError.undetectable(
        file: file, message: "the file ends before </\(open.name.text)> (opened on line \(open.line))",
        hint: "the file is truncated: download the statement again")
    }
    if statementCount == 0 {
      throw ImportError.undetectable(
        file: file, message: "no bank or credit card statement in the file (no <STMTRS> or <CCSTMTRS>)",
        hint: "export a bank or credit card statement; investment statements are not read")
    }
  }
}
