import ExpenseCore

/// What the MT940 reader knows between fields: the statement being read (account, currency,
/// opening balance, the sum of its entries) and the `:61:` entry waiting for its `:86:`.
struct MT940State {
  let file: String
  let options: ImportOptions
  private var statements = 0
  private var accounts: [String] = []
  private var currencies: [String] = []
  private var sawEntry = false
  /// The open statement: from `:20:` to its closing balance.
  private var statementLine: Int?
  private var account: String?
  private var opening: (balance: Int64, currency: Currency)?
  private var total: Int64 = 0
  private var closed = false
  /// Entries of this statement that were rejected (skipped with `--skip-invalid`): its balances
  /// cannot add up then, so a mismatch is a warning instead of an error.
  private var rejected = 0
  private var pending: MT940Transaction?
  /// The field before this one, and whether the open statement has its `:25:`.
  private var previous: (tag: String, line: Int)?
  private var sawAccount = false

  init(file: String, options: ImportOptions) {
    self.file = file
    self.options = options
  }

  var settings: [StatementSetting] {
    var out: [StatementSetting] = []
    guard statements > 0 else { return out }
    out.append(StatementSetting(name: "format", value: "MT940", source: "content"))
    if let account = options.account {
      out.append(StatementSetting(name: "account", value: account, source: "--account"))
    } else if !accounts.isEmpty {
      out.append(StatementSetting(name: "account", value: MT940State.distinct(accounts), source: ":25:"))
    }
    if !currencies.isEmpty {
      out.append(StatementSetting(name: "currency", value: MT940State.distinct(currencies), source: ":60F:"))
    }
    out.append(StatementSetting(name: "statements", value: String(statements), source: ":20:"))
    out.append(StatementSetting(name: "balances", value: "checked", source: ":60F:/:62F:"))
    return out
  }

  static func distinct(_ values: [String]) -> String {
    distinctInOrder(values).joined(separator: ", ")
  }

  mutating func process(_ field: MT940Field, _ body: (StatementEvent) throws -> Void) throws {
    try checkOrder(field)
    defer { previous = (field.tag, field.line) }
    if field.tag != "86", let waiting = pending {
      pending = nil
      try body(.entry(waiting.entry(description: nil)))
    }
    switch field.tag {
    case "20":
      try closeStatement()
      statements += 1
      statementLine = field.line
      account = nil
      sawAccount = false
      opening = nil
      total = 0
      closed = false
      rejected = 0
    case "25":
      sawAccount = true
      let value = field.text(separator: "").trimmingASCIIWhitespace()
      if !value.isEmpty {
        account = value
        accounts.append(value)
      }
    case "60F", "60M":
      try requireStatement(field)
      let balance = try MT940Parse.balance(field, file: file)
      opening = (balance.balance, balance.currency)
      currencies.append(balance.currency.code)
      // An opening balance is before the day's entries: the balance at the end of the day before.
      try body(
        .balance(
          StatementBalance(
            account: options.account ?? account, date: balance.date.adding(days: -1),
            amount: Money(minor: balance.balance, currency: balance.currency), file: file, line: field.line,
            source: "MT940 :\(field.tag):")))
      total = 0
      closed = false
    case "61":
      try requireStatement(field)
      guard let opening else {
        throw ImportError.row(
          MT940Parse.issue(
            .missingRequiredColumn, file: file, field: field, column: ":60F:",
            message: "an entry comes before the statement's opening balance (:60F:)",
            hint: "the file is cut or edited; export the statement again"))
      }
      let parsed = Result { () throws(ImportError) in
        try MT940Parse.transaction(field, currency: opening.currency, file: file)
      }
      let transaction: MT940Parse.Transaction
      switch parsed {
      case .success(let value): transaction = value
      case .failure(.row(let issue)):
        rejected += 1
        try body(.rejected(issue))
        return
      case .failure(let error): throw error
      }
      let (sum, overflow) = total.addingReportingOverflow(transaction.amount)
      if overflow {
        throw ImportError.row(
          MT940Parse.issue(
            .badAmount, file: file, field: field, column: ":61:",
            message: "the entries add up to more than an amount can hold", hint: "the file is damaged"))
      }
      total = sum
      sawEntry = true
      pending = MT940Transaction(
        line: field.line, date: transaction.date, valueDate: transaction.valueDate,
        amount: Money(minor: transaction.amount, currency: opening.currency),
        customerReference: transaction.customerReference, bankReference: transaction.bankReference,
        supplementary: transaction.supplementary, account: options.account ?? account)
    case "86":
      if let waiting = pending {
        pending = nil
        var entry = waiting.entry(description: MT940Description.text(of: field))
        let legacy = waiting.entry(description: MT940Description.legacyText(of: field)).description
        if legacy != entry.description { entry.identityDescription = legacy }
        if let used = MT940Card.used(field, valueDate: waiting.valueDate, booked: waiting.date) {
          entry.dateCardPayment(used)
        }
        try body(.entry(entry))
      }
    case "62F", "62M":
      try requireStatement(field)
      let closing = try MT940Parse.balance(field, file: file)
      let stated = StatementBalance(
        account: options.account ?? account, date: closing.date,
        amount: Money(minor: closing.balance, currency: closing.currency), file: file, line: field.line,
        source: "MT940 :\(field.tag):")
      guard let opening else {
        throw ImportError.row(
          MT940Parse.issue(
            .missingRequiredColumn, file: file, field: field, column: ":60F:",
            message: "the statement has a closing balance but no opening balance (:60F:)",
            hint: "the file is cut or edited; export the statement again"))
      }
      let expected = opening.balance.addingReportingOverflow(total)
      if closing.currency != opening.currency || expected.overflow || expected.partialValue != closing.balance {
        let sum = Money(minor: expected.partialValue, currency: opening.currency)
        if rejected > 0 {
          try body(
            .warning(
              "\(file):\(field.line): the closing balance \(MT940Parse.format(Money(minor: closing.balance, currency: closing.currency))) does not match the opening balance plus the entries read (\(MT940Parse.format(sum))): \(rejected) skipped entr\(rejected == 1 ? "y is" : "ies are") missing"
            ))
          closed = true
          // Stored as the bank states it: the account is then off by the skipped entries.
          try body(.balance(stated))
          return
        }
        throw ImportError.row(
          MT940Parse.issue(
            .badAmount, file: file, field: field, column: ":\(field.tag):",
            message:
              "the closing balance \(MT940Parse.format(Money(minor: closing.balance, currency: closing.currency))) does not match the opening balance plus the entries (\(MT940Parse.format(sum)))",
            hint: "the file may be cut or edited (entries missing or changed); export the statement again"))
      }
      closed = true
      try body(.balance(stated))
    default:
      break
    }
  }

  /// The end of the file: the last entry, and the last statement must have closed.
  mutating func finish(_ body: (StatementEvent) throws -> Void) throws {
    if let waiting = pending {
      pending = nil
      try body(.entry(waiting.entry(description: nil)))
    }
    guard statements > 0 else {
      throw ImportError.undetectable(
        file: file, message: "no MT940 statement (:20: … :62F:) in this file",
        hint: "export the statement as MT940 (SWIFT, STA), or import it as CSV")
    }
    try closeStatement()
  }

  private mutating func closeStatement() throws {
    guard let line = statementLine, !closed else { return }
    throw ImportError.row(
      ImportIssue(
        kind: .missingRequiredColumn, file: file, line: line, column: nil, columnName: ":62F:", rawValue: "",
        message: "the statement that starts on line \(line) has no closing balance (:62F:)",
        hint: "the file is cut short; export the statement again"))
  }

  /// Refuses a field out of the order MT940 writes them in, where reading on would lose or
  /// misplace an entry: an `:86:` that follows no `:61:` (nor a closing balance, after which it
  /// describes the statement), a second opening balance before the closing one, and an opening
  /// balance in a statement without its account (`:25:`), whose entries would be booked to the
  /// statement before's account.
  private func checkOrder(_ field: MT940Field) throws {
    let damaged = "the file is damaged or edited: export the statement again from the bank"
    switch field.tag {
    case "86":
      guard let previous, !["61", "62F", "62M", "64", "65"].contains(previous.tag) else { return }
      throw ImportError.malformed(
        file: file, line: field.line,
        message:
          "an :86: after :\(previous.tag): (line \(previous.line)): an :86: describes the :61: right before it, so a :61: is missing or a field is out of order",
        hint: damaged)
    case "60F", "60M":
      guard let statementLine else { return }
      if opening != nil && !closed {
        throw ImportError.malformed(
          file: file, line: field.line,
          message:
            "a second opening balance (:\(field.tag):) in the statement from line \(statementLine) before its closing balance",
          hint: damaged)
      }
      if !sawAccount {
        throw ImportError.malformed(
          file: file, line: field.line,
          message: "the statement from line \(statementLine) has no account (:25:) before its opening balance",
          hint: damaged)
      }
    default:
      return
    }
  }

  /// Fields of a statement need its `:20:` first; an entry after the closing balance (and
  /// before another opening one) would escape the balance check, so it is refused.
  private func requireStatement(_ field: MT940Field) throws {
    if statementLine == nil {
      throw ImportError.row(
        MT940Parse.issue(
          .missingRequiredColumn, file: file, field: field, column: ":20:",
          message: "a :\(field.tag): field before any statement (:20:)",
          hint: "the file is cut at its start, or not MT940; export the statement again"))
    }
    if closed && field.tag == "61" {
      throw ImportError.row(
        MT940Parse.issue(
          .missingRequiredColumn, file: file, field: field, column: ":61:",
          message: "an entry after the statement's closing balance",
          hint: "the file is edited or damaged; export the statement again"))
    }
  }
}

/// A `:61:` entry waiting for the `:86:` that describes it.
struct MT940Transaction {
  var line: Int
  var date: CivilDate
  var valueDate: CivilDate
  var amount: Money
  var customerReference: String
  var bankReference: String?
  var supplementary: String?
  var account: String?

  /// The entry, described by its `:86:` (when there is one), else its supplementary details,
  /// else its customer reference (unless `NONREF`).
  func entry(description: String?) -> StatementEntry {
    var text = description ?? ""
    if text.isEmpty { text = supplementary ?? "" }
    if text.isEmpty && customerReference.uppercased() != "NONREF" { text = customerReference }
    let id = bankReference.flatMap { $0.isEmpty || $0.uppercased() == "NONREF" ? nil : $0 }
    return StatementEntry(
      line: line, date: date, amount: amount, description: text, account: account, transactionID: id)
  }
}
