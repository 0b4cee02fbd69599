import ExpenseCore
import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The SAX delegate of `CAMT053Reader`: keeps the path of open elements, the text of the
/// current one, and the `Stmt` and `Ntry` being read; at the end of each `Ntry` it checks the
/// values and hands the entries to `body`.
///
/// A delegate cannot throw, so the first error is kept in `failure` (or `xmlError`, for the
/// parser's own) and the parse is aborted; the reader throws it once `parse()` returns.
final class CAMTHandler: NSObject, XMLParserDelegate {
  let file: String
  let options: ImportOptions
  let defaultCurrency: Currency
  var body: ((StatementEvent) throws -> Void)?
  weak var parser: XMLParser?

  private(set) var failure: (any Error)?
  /// The first error the XML parser reported: line and libxml2 code.
  private(set) var xmlError: (line: Int, code: Int)?

  /// Local names of the open elements, outermost first.
  private var path: [String] = []
  private var text = ""
  private var textBytes = 0
  private var textTooLong = false
  private var textLine = 0
  private var namespace: String?
  private var version: String?
  private var sawStatementRoot = false
  private var rootClosed = false
  private var statementCount = 0
  private(set) var statement: CAMTStatement?
  private var accounts: [(String, String)] = []
  private var currencies: [String] = []
  /// Index in `path` of the open `Stmt`, `Ntry`, `TxDtls`.
  private var statementDepth: Int?
  private var entryDepth: Int?
  private var detailDepth: Int?
  private var entry: CAMTEntryDraft?
  private var detail: CAMTDetail?
  private var pendingCurrency: String?

  /// Deeper nesting than this is not a bank statement (CAMT.053 goes about 12 deep).
  static let maxDepth = 64

  init(file: String, options: ImportOptions, defaultCurrency: Currency) {
    self.file = file
    self.options = options
    self.defaultCurrency = defaultCurrency
  }

  var settings: [StatementSetting] {
    var out: [StatementSetting] = []
    if let version { out.append(StatementSetting(name: "format", value: "CAMT.053.\(version)", source: "namespace")) }
    if let account = options.account {
      out.append(StatementSetting(name: "account", value: account, source: "--account"))
    } else if let first = accounts.first {
      var seen: [String] = []
      for (value, _) in accounts where !seen.contains(value) { seen.append(value) }
      out.append(StatementSetting(name: "account", value: seen.joined(separator: ", "), source: first.1))
    }
    if !currencies.isEmpty {
      var seen: [String] = []
      for code in currencies where !seen.contains(code) { seen.append(code) }
      out.append(StatementSetting(name: "currency", value: seen.joined(separator: ", "), source: "Acct/Ccy"))
    }
    if sawStatementRoot {
      out.append(StatementSetting(name: "statements", value: String(statementCount), source: "Stmt"))
    }
    return out
  }

  /// Checks what only the end of the document shows: a statement was there, and it closed.
  func finish() throws(ImportError) {
    guard sawStatementRoot else {
      throw .undetectable(
        file: file, message: "no bank-to-customer statement (BkToCstmrStmt) in this XML file",
        hint: "export the account statement as CAMT.053; CAMT.052 and CAMT.054 are other messages")
    }
    if !path.isEmpty || !rootClosed {
      throw .undetectable(
        file: file, message: "the file ends inside <\(path.last ?? "Document")>",
        hint: "the file is cut short; export the statement again from the bank")
    }
  }

  // MARK: Parser events

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
    attributes attributeDict: [String: String] = [:]
  ) {
    guard failure == nil, xmlError == nil else { return }
    let name = CAMTHandler.localName(elementName)
    path.append(name)
    text = ""
    textBytes = 0
    textTooLong = false
    textLine = parser.lineNumber
    if path.count > CAMTHandler.maxDepth {
      stop(
        ImportError.undetectable(
          file: file, message: "elements nested deeper than \(CAMTHandler.maxDepth) at line \(textLine)",
          hint: "this is not a bank statement"))
      return
    }
    let depth = path.count - 1
    switch name {
    case "BkToCstmrStmt" where !sawStatementRoot:
      sawStatementRoot = true
      namespace = namespaceURI
      if let problem = checkNamespace(namespaceURI) {
        stop(problem)
        return
      }
    case "Stmt" where sawStatementRoot && statementDepth == nil && parentIs("BkToCstmrStmt"):
      statementDepth = depth
      statement = CAMTStatement()
      statementCount += 1
    case "Ntry" where statementDepth != nil && entryDepth == nil && parentIs("Stmt"):
      entryDepth = depth
      entry = CAMTEntryDraft(line: textLine)
    case "TxDtls" where entryDepth != nil && detailDepth == nil && parentIs("NtryDtls"):
      detailDepth = depth
      detail = CAMTDetail(line: textLine)
    case "Amt":
      pendingCurrency = attributeDict["Ccy"]
    default:
      break
    }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    guard failure == nil, xmlError == nil else { return }
    append(string)
  }

  func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
    guard failure == nil, xmlError == nil else { return }
    append(String(decoding: CDATABlock, as: UTF8.self))
  }

  func parser(
    _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
  ) {
    guard failure == nil, xmlError == nil else { return }
    let depth = path.count - 1
    do {
      if let detailDepth, let entryDepth, depth > detailDepth {
        try detailValue(relative: path[(detailDepth + 1)...].joined(separator: "/"), entryDepth: entryDepth)
      } else if let entryDepth, depth > entryDepth, detailDepth == nil {
        try entryValue(relative: path[(entryDepth + 1)...].joined(separator: "/"))
      } else if let statementDepth, depth > statementDepth, entryDepth == nil {
        try statementValue(relative: path[(statementDepth + 1)...].joined(separator: "/"))
      }
      if depth == detailDepth {
        if let detail { entry?.details.append(detail) }
        detail = nil
        detailDepth = nil
      } else if depth == entryDepth {
        if let entry {
          // An entry's own bad value is a rejected event (skipped with --skip-invalid); the
          // parse goes on with the next entry.
          do {
            try finishEntry(entry)
          } catch ImportError.row(let issue) {
            try emit(.rejected(issue))
          }
        }
        entry = nil
        entryDepth = nil
      } else if depth == statementDepth {
        statement = nil
        statementDepth = nil
      }
    } catch {
      stop(error)
    }
    path.removeLast()
    if path.isEmpty { rootClosed = true }
    text = ""
    textBytes = 0
    textTooLong = false
  }

  func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
    guard failure == nil, xmlError == nil else { return }
    xmlError = (parser.lineNumber, (parseError as NSError).code)
    parser.abortParsing()
  }

  func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
    nil
  }

  // MARK: Values

  private func statementValue(relative: String) throws(ImportError) {
    switch relative {
    case "Acct/Id/IBAN": statement?.iban = try value("Stmt/Acct/Id/IBAN")?.text
    case "Acct/Id/Othr/Id": statement?.otherID = try value("Stmt/Acct/Id/Othr/Id")?.text
    case "Acct/Ccy":
      guard let raw = try value("Stmt/Acct/Ccy") else { return }
      guard let currency = Currency(code: raw.text) else {
        throw .row(
          issue(
            .unknownCurrency, line: raw.line, column: "Stmt/Acct/Ccy", raw: raw.text,
            message: "the account's currency is not an ISO 4217 code",
            hint: "the file is damaged, or give the currency with --currency"))
      }
      statement?.currency = currency
      currencies.append(currency.code)
    case "Acct":
      if let iban = statement?.iban {
        accounts.append((iban, "Acct/Id/IBAN"))
      } else if let other = statement?.otherID {
        accounts.append((other, "Acct/Id/Othr/Id"))
      }
    default: break
    }
  }

  private func entryValue(relative: String) throws(ImportError) {
    let column = "Ntry/" + relative
    switch relative {
    case "Amt":
      entry?.amount = try value(column)
      entry?.currency = pendingCurrency
    case "CdtDbtInd": entry?.creditDebit = try value(column)
    case "RvslInd": entry?.reversal = try value(column)?.text.lowercased() == "true"
    case "Sts", "Sts/Cd", "Sts/Prtry":
      if let status = try value(column)?.text, !status.isEmpty { entry?.status = status }
    case "BookgDt/Dt", "BookgDt/DtTm":
      entry?.bookingDate = try value(column)
      entry?.bookingDatePath = column
    case "ValDt/Dt", "ValDt/DtTm":
      entry?.valueDate = try value(column)
      entry?.valueDatePath = column
    case "AcctSvcrRef": entry?.servicerReference = try value(column)?.text
    case "AddtlNtryInf": entry?.additionalInfo = try value(column)?.text
    default: break
    }
  }

  private func detailValue(relative: String, entryDepth: Int) throws(ImportError) {
    let column = "Ntry/NtryDtls/TxDtls/" + relative
    switch relative {
    case "Amt", "AmtDtls/TxAmt/Amt":
      // `Amt` (from .001.04 on) is the detail's amount; `AmtDtls/TxAmt` says the same in .02.
      if detail?.amount == nil || relative == "Amt" {
        detail?.amount = try value(column)
        detail?.amountPath = column
        detail?.currency = pendingCurrency
      }
    case "CdtDbtInd": detail?.creditDebit = try value(column)
    case "Refs/AcctSvcrRef": detail?.servicerReference = try value(column)?.text
    case "Refs/EndToEndId": detail?.endToEndID = try value(column)?.text
    case "RltdPties/Cdtr/Nm", "RltdPties/Cdtr/Pty/Nm": detail?.creditorName = try value(column)?.text
    case "RltdPties/Dbtr/Nm", "RltdPties/Dbtr/Pty/Nm": detail?.debtorName = try value(column)?.text
    case "RmtInf/Ustrd":
      if let line = try value(column)?.text, !line.isEmpty { detail?.remittance.append(line) }
    case "AddtlTxInf": detail?.additionalInfo = try value(column)?.text
    default: break
    }
  }

  /// The current element's text, trimmed, with the line it started on; nil when empty.
  private func value(_ column: String) throws(ImportError) -> CAMTValue? {
    if textTooLong {
      throw .row(
        issue(
          .fieldTooLong, line: textLine, column: column, raw: String(text.prefix(48)) + "…",
          message: "a value longer than \(ImportLimits.size(ImportLimits.maxFieldBytes))",
          hint: "the file is damaged or not a bank statement"))
    }
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.isEmpty ? nil : CAMTValue(text: trimmed, line: textLine)
  }

  // MARK: Helpers

  private func append(_ string: String) {
    if textTooLong { return }
    textBytes += string.utf8.count
    if textBytes > ImportLimits.maxFieldBytes {
      textTooLong = true
      return
    }
    text += string
  }

  private func parentIs(_ name: String) -> Bool {
    path.count >= 2 && path[path.count - 2] == name
  }

  private func stop(_ error: any Error) {
    if failure == nil { failure = error }
    parser?.abortParsing()
  }

  /// Hands an event to the reader's caller; an error it throws stops the parse.
  func emit(_ event: StatementEvent) throws {
    try body?(event)
  }

  func issue(
    _ kind: ImportIssue.Kind, line: Int, column: String, raw: String, message: String, hint: String
  ) -> ImportIssue {
    ImportIssue(
      kind: kind, file: file, line: line, column: nil, columnName: column, rawValue: raw, message: message,
      hint: hint)
  }

  static func localName(_ name: String) -> String {
    if let colon = name.lastIndex(of: ":") { return String(name[name.index(after: colon)...]) }
    return name
  }

  /// The version part of a CAMT.053 namespace (`001.08`), or an error for another message.
  private func checkNamespace(_ uri: String?) -> ImportError? {
    let prefix = "urn:iso:std:iso:20022:tech:xsd:camt.053.001."
    if let uri, uri.hasPrefix(prefix) {
      let number = uri.dropFirst(prefix.count)
      if number.count == 2, let n = Int(number), (2...13).contains(n) {
        version = "001." + number
        return nil
      }
    }
    return .undetectable(
      file: file, message: "the statement's namespace \"\(uri ?? "")\" is not CAMT.053 .001.02 to .001.13",
      hint: "export the account statement as CAMT.053 (version .001.02 to .001.13)")
  }

  /// What a libxml2 error code means, for the message of a file that is not well formed.
  static func describe(xmlError code: Int) -> String {
    switch code {
    case 4: return "the document is empty"
    case 5: return "the document ends too early, or has content after its end"
    case 9: return "a character XML does not allow"
    case 23: return "an entity reference without its ';'"
    case 26: return "an entity that is not defined (only &amp; &lt; &gt; &quot; &apos; are)"
    case 38: return "a '<' inside an attribute value"
    case 39, 40, 41: return "an attribute that is not complete"
    case 68: return "a name was expected"
    case 73: return "a '>' was expected"
    case 76: return "an end tag does not match its start tag"
    case 77: return "an element is not closed (the file may be cut short)"
    default: return "XML error \(code)"
    }
  }
}
