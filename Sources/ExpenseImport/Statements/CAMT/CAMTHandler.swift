import ExpenseCore
import Foundation

/// What `CAMT053Reader` does with the tags `XMLScanner` reads: keeps the path of open elements
/// (as `CAMTName` numbers), and the `Stmt` and `Ntry` being read; at the end of each `Ntry` it
/// checks the values and hands the entries on.
struct CAMTHandler {
  let file: String
  let options: ImportOptions
  let defaultCurrency: Currency

  /// Local names of the open elements, outermost first.
  private var path: [CAMTName] = []
  /// The line of the last start tag: where a value read at the next end tag is said to be.
  private var textLine = 0
  private var version: String?
  private var sawStatementRoot = false
  private var rootClosed = false
  private var statementCount = 0
  var statement: CAMTStatement?
  var accounts: [(String, String)] = []
  var currencies: [String] = []
  /// Index in `path` of the open `Stmt`, `Ntry`, `TxDtls`.
  private var statementDepth: Int?
  /// Which message the root names: "CAMT.053" (a statement) or "CAMT.052" (an account report,
  /// whose entries are read the same way).
  private var message = "CAMT.053"
  private var entryDepth: Int?
  private var detailDepth: Int?
  /// The `Ntry` and `TxDtls` being read, while `entryDepth` and `detailDepth` are set (kept
  /// outside an optional so that each value is stored in place).
  var entry = CAMTEntryDraft(line: 0)
  var detail = CAMTDetail(line: 0)
  /// The `Ccy` of the last `Amt` start tag.
  var pendingCurrency: String?
  /// The last currency code an entry named, and its currency.
  var lastCurrency: (code: String, currency: Currency)?

  /// Deeper nesting than this is not a bank statement (CAMT.053 goes about 12 deep): the
  /// scanner's limit, one number for both.
  static let maxDepth = XMLScanner.maxDepth

  init(file: String, options: ImportOptions, defaultCurrency: Currency) {
    self.file = file
    self.options = options
    self.defaultCurrency = defaultCurrency
  }

  var settings: [StatementSetting] {
    var out: [StatementSetting] = []
    if let version { out.append(StatementSetting(name: "format", value: "\(message).\(version)", source: "namespace")) }
    if let account = options.account {
      out.append(StatementSetting(name: "account", value: account, source: "--account"))
    } else if let first = accounts.first {
      let seen = distinctInOrder(accounts.lazy.map(\.0))
      out.append(StatementSetting(name: "account", value: seen.joined(separator: ", "), source: first.1))
    }
    if !currencies.isEmpty {
      let seen = distinctInOrder(currencies)
      out.append(StatementSetting(name: "currency", value: seen.joined(separator: ", "), source: "Acct/Ccy"))
    }
    if sawStatementRoot {
      out.append(StatementSetting(name: "statements", value: String(statementCount), source: "Stmt"))
    }
    return out
  }

  /// Checks what only the end of the document shows: a statement was there, and it closed.
  /// `innermost` is the local name of an element still open.
  func finish(innermost: String?) throws(ImportError) {
    guard sawStatementRoot else {
      throw .undetectable(
        file: file,
        message: "no bank-to-customer statement (BkToCstmrStmt) or account report (BkToCstmrAcctRpt) in this XML file",
        hint: "export the account statement as CAMT.053 or the account report as CAMT.052; CAMT.054 is another message")
    }
    if !path.isEmpty || !rootClosed {
      throw .undetectable(
        file: file, message: "the file ends inside <\(innermost ?? "Document")>",
        hint: "the file is cut short; export the statement again from the bank")
    }
  }

  // MARK: Tags

  /// Every tag of the document, then the checks at its end.
  mutating func read(_ scanner: inout XMLScanner, _ emit: (StatementEvent) throws -> Void) throws {
    while true {
      switch try scanner.next() {
      case .start:
        let name = scanner.name
        let namespace = name == .bkToCstmrStmt || name == .bkToCstmrAcctRpt ? scanner.namespaceURI() : ""
        try start(name, line: scanner.eventLine, currency: name == .amt ? scanner.currency : nil, namespace: namespace)
      case .end: try end(Text(bytes: scanner.textBytes(), tooLong: scanner.textTooLong), emit)
      case .endOfDocument: return try finish(innermost: scanner.innermostName())
      }
    }
  }

  /// A start tag: the element's local name, the line its tag ends on, its `Ccy` attribute, and
  /// its namespace (only looked up for `BkToCstmrStmt`).
  mutating func start(_ name: CAMTName, line: Int, currency: String?, namespace: String) throws(ImportError) {
    path.append(name)
    textLine = line
    if path.count > CAMTHandler.maxDepth {
      throw .undetectable(
        file: file, message: "elements nested deeper than \(CAMTHandler.maxDepth) at line \(textLine)",
        hint: "this is not a bank statement")
    }
    let depth = path.count &- 1
    switch name {
    case .bkToCstmrStmt where !sawStatementRoot, .bkToCstmrAcctRpt where !sawStatementRoot:
      sawStatementRoot = true
      if name == .bkToCstmrAcctRpt { message = "CAMT.052" }
      if let problem = checkNamespace(namespace) { throw problem }
    case .stmt where sawStatementRoot && statementDepth == nil && parentIs(.bkToCstmrStmt),
      .rpt where sawStatementRoot && statementDepth == nil && parentIs(.bkToCstmrAcctRpt):
      statementDepth = depth
      statement = CAMTStatement()
      statementCount &+= 1
    case .ntry where statementDepth != nil && entryDepth == nil && (parentIs(.stmt) || parentIs(.rpt)):
      entryDepth = depth
      entry = CAMTEntryDraft(line: textLine)
    case .txDtls where entryDepth != nil && detailDepth == nil && parentIs(.ntryDtls):
      detailDepth = depth
      detail = CAMTDetail(line: textLine)
    case .cardTx where detailDepth != nil:
      detail.card = true
    case .cardTx where entryDepth != nil:
      entry.card = true
    case .amt:
      pendingCurrency = currency
    default:
      break
    }
  }

  /// An end tag: the value it closes, if the reader wants it, and the end of a detail, an
  /// entry (handed to `emit`) or a statement.
  mutating func end(_ text: Text, _ emit: (StatementEvent) throws -> Void) throws {
    let depth = path.count &- 1
    if let detailDepth, entryDepth != nil, depth > detailDepth {
      try detailValue(path[(detailDepth &+ 1)...], text)
    } else if let entryDepth, depth > entryDepth, detailDepth == nil {
      try entryValue(path[(entryDepth &+ 1)...], text)
    } else if let statementDepth, depth > statementDepth, entryDepth == nil {
      try statementValue(path[(statementDepth &+ 1)...], text)
    }
    if depth == detailDepth {
      entry.details.append(detail)
      detailDepth = nil
    } else if depth == entryDepth {
      // An entry's own bad value is a rejected event (skipped with --skip-invalid); the scan
      // goes on with the next entry.
      do {
        try finishEntry(entry, emit)
      } catch ImportError.row(let issue) {
        try emit(.rejected(issue))
      }
      entryDepth = nil
    } else if depth == statementDepth {
      statement = nil
      statementDepth = nil
    } else if let statementDepth, depth == statementDepth &+ 1, path[depth] == .bal, entryDepth == nil {
      if let balance = statementBalance() { try emit(.balance(balance)) }
      statement?.balance = CAMTBalanceDraft()
    }
    path.removeLast()
    if path.isEmpty { rootClosed = true }
  }

  // MARK: Balances

  /// The `Bal` just read, as a balance at the end of a day: a closing booked (`CLBD`), interim
  /// booked (`ITBD`) or previously closed booked (`PRCD`, the end of the period before) balance
  /// is of its date, an opening booked one (`OPBD`, at the start of its date) of the day before.
  /// Available balances (`CLAV`, `OPAV`, `FWAV`: what may be spent, not what is booked),
  /// information (`INFO`) and a balance that cannot be read are left out: a balance is a check,
  /// not a transaction, so it fails nothing.
  func statementBalance() -> StatementBalance? {
    guard let draft = statement?.balance, let code = draft.code?.uppercased(), let raw = draft.amount,
      let dateText = draft.date
    else { return nil }
    let opening = code == "OPBD"
    guard opening || ["CLBD", "ITBD", "PRCD"].contains(code) else { return nil }
    guard let currency = draft.currency.flatMap(Currency.init(code:)) ?? statement?.currency,
      let day = try? CivilDate.parse(String(dateText.prefix(10))),
      let minor = try? Money.parse(raw.text, currency: currency).minor
    else { return nil }
    let debit = draft.creditDebit?.uppercased() == "DBIT"
    return StatementBalance(
      account: options.account ?? statement?.iban ?? statement?.otherID, date: opening ? day.adding(days: -1) : day,
      amount: Money(minor: debit ? -minor : minor, currency: currency), file: file, line: raw.line,
      source: "\(message) \(code)")
  }

  // MARK: Values

  /// The text before an end tag (at most `maxTextBytes` of it), and whether there was more.
  struct Text {
    var bytes: UnsafeBufferPointer<UInt8>
    var tooLong: Bool
  }

  /// The current element's text, trimmed, with the line it started on; nil when empty.
  func value(_ column: String, _ text: Text) throws(ImportError) -> CAMTValue? {
    if text.tooLong {
      let shown = String(decoding: text.bytes, as: UTF8.self)
      throw .row(
        issue(
          .fieldTooLong, line: textLine, column: column, raw: String(shown.prefix(48)) + "…",
          message: "a value longer than \(ImportLimits.size(ImportLimits.maxFieldBytes))",
          hint: "the file is damaged or not a bank statement"))
    }
    let trimmed = CAMTHandler.trimmed(text.bytes)
    return trimmed.isEmpty ? nil : CAMTValue(text: trimmed, line: textLine)
  }

  /// `bytes` without the white space and line ends Foundation's `trimmingCharacters(in:
  /// .whitespacesAndNewlines)` removes: ASCII blanks here, Foundation itself when a character
  /// that is not ASCII is left at either end (it may be U+00A0, U+2028 and the like).
  static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    func blank(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }
    var start = 0
    var end = bytes.count
    while start < end && blank(bytes[start]) { start &+= 1 }
    while end > start && blank(bytes[end &- 1]) { end &-= 1 }
    if start < end && (bytes[start] >= 0x80 || bytes[end &- 1] >= 0x80) {
      return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
  }

  // MARK: Helpers

  private func parentIs(_ name: CAMTName) -> Bool {
    path.count >= 2 && path[path.count &- 2] == name
  }

  func issue(
    _ kind: ImportIssue.Kind, line: Int, column: String, raw: String, message: String, hint: String
  ) -> ImportIssue {
    ImportIssue(
      kind: kind, file: file, line: line, column: nil, columnName: column, rawValue: raw, message: message,
      hint: hint)
  }

  /// The version part of a CAMT.053 (or, for an account report, CAMT.052) namespace (`001.08`),
  /// or an error for another message.
  private mutating func checkNamespace(_ uri: String) -> ImportError? {
    let prefix = "urn:iso:std:iso:20022:tech:xsd:\(message.lowercased()).001."
    if uri.hasPrefix(prefix) {
      let number = uri.dropFirst(prefix.count)
      if number.count == 2, let n = Int(number), (2...13).contains(n) {
        version = "001." + number
        return nil
      }
    }
    return .undetectable(
      file: file, message: "the statement's namespace \"\(uri)\" is not \(message) .001.02 to .001.13",
      hint: "export the account statement as CAMT.053 (version .001.02 to .001.13)")
  }
}
