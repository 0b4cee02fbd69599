import ExpenseCore

/// Turning one `Ntry` into events: the status decides whether it is a row, then the amount,
/// sign, date, currency and description are checked; a batch whose details carry their own
/// amounts becomes one entry per detail, whose amounts must add up to the entry's.
extension CAMTHandler {
  mutating func finishEntry(_ draft: CAMTEntryDraft, _ emit: (StatementEvent) throws -> Void) throws {
    if let status = draft.status, status != "BOOK", status.uppercased() != "BOOK" {
      try emit(.excluded(line: draft.line, reason: CAMTHandler.statusReason(status)))
      return
    }
    let currency = try entryCurrency(draft.currency, line: draft.amount?.line ?? draft.line, column: "Ntry/Amt@Ccy")
    let magnitude = try amount(draft.amount, currency: currency, column: "Ntry/Amt", entryLine: draft.line)
    let credit = try isCredit(draft.creditDebit, column: "Ntry/CdtDbtInd", entryLine: draft.line)
    let date = try entryDate(draft)
    let account = options.account ?? statement?.iban ?? statement?.otherID
    let signed = credit ? magnitude : -magnitude
    let prefix = draft.reversal ? "Reversal: " : ""

    let split = draft.details.count > 1 && draft.details.allSatisfy { $0.amount != nil }
    guard split else {
      let only = draft.details.count == 1 ? draft.details.first : nil
      var description: String
      if let only {
        description = CAMTHandler.describe(only, credit: credit, reversal: draft.reversal, entry: draft)
      } else if draft.details.isEmpty {
        description = draft.additionalInfo ?? ""
      } else {
        description =
          draft.additionalInfo
          ?? draft.details.map { CAMTHandler.describe($0, credit: credit, reversal: draft.reversal, entry: draft) }
          .filter { !$0.isEmpty }.joined(separator: "; ")
      }
      description = prefix + description
      let id = draft.servicerReference ?? only.flatMap(CAMTHandler.ownID)
      var made = StatementEntry(
        line: draft.line, date: date, amount: Money(minor: signed, currency: currency),
        description: description, account: account, transactionID: id)
      if let used = CAMTHandler.cardUsed(draft, only, booked: date) { made.dateCardPayment(used) }
      try emit(.entry(made))
      return
    }

    // A batch: each detail with its own amount and sign.
    var entries: [StatementEntry] = []
    var total: Int64 = 0
    var ids: [String?] = []
    for (index, detail) in draft.details.enumerated() {
      let detailCurrency = try entryCurrency(
        detail.currency ?? draft.currency, line: detail.amount?.line ?? detail.line, column: detail.amountPath + "@Ccy")
      if detailCurrency != currency {
        throw ImportError.row(
          issue(
            .unknownCurrency, line: detail.amount?.line ?? detail.line, column: detail.amountPath + "@Ccy",
            raw: detailCurrency.code,
            message: "a batch detail is in \(detailCurrency.code) but its entry is in \(currency.code)",
            hint: "the entry cannot be split into its details; the file may be damaged"))
      }
      let detailMagnitude = try amount(
        detail.amount, currency: currency, column: detail.amountPath, entryLine: detail.line)
      let detailCredit =
        try detail.creditDebit.map {
          try isCredit($0, column: "Ntry/NtryDtls/TxDtls/CdtDbtInd", entryLine: detail.line)
        } ?? credit
      let detailSigned = detailCredit ? detailMagnitude : -detailMagnitude
      let (sum, overflow) = total.addingReportingOverflow(detailSigned)
      if overflow {
        throw ImportError.row(
          issue(
            .badAmount, line: detail.line, column: detail.amountPath, raw: detail.amount?.text ?? "",
            message: "the batch details add up to more than an amount can hold", hint: "the file is damaged"))
      }
      total = sum
      ids.append(CAMTHandler.ownID(detail) ?? draft.servicerReference.map { "\($0)/\(index + 1)" })
      entries.append(
        StatementEntry(
          line: detail.line, date: date, amount: Money(minor: detailSigned, currency: currency),
          description: prefix
            + CAMTHandler.describe(detail, credit: detailCredit, reversal: draft.reversal, entry: draft),
          account: account))
    }
    if total != signed {
      throw ImportError.row(
        issue(
          .badAmount, line: draft.line, column: "Ntry/NtryDtls/TxDtls/Amt", raw: draft.amount?.text ?? "",
          message:
            "the batch details add up to \(Money(minor: total, currency: currency)) but the entry's amount is \(Money(minor: signed, currency: currency))",
          hint: "the file may be damaged or edited; export the statement again from the bank"))
    }
    // Two details with the same reference would be taken for one transaction: number them.
    for (index, id) in ids.enumerated() {
      guard let id else { continue }
      let repeated = ids.filter { $0 == id }.count > 1
      entries[index].transactionID = repeated ? "\(id)/\(index + 1)" : id
    }
    for entry in entries { try emit(.entry(entry)) }
  }

  /// The detail's own id: `Refs/AcctSvcrRef`, else `Refs/EndToEndId` unless `NOTPROVIDED`.
  static func ownID(_ detail: CAMTDetail) -> String? {
    if let ref = detail.servicerReference { return ref }
    if let id = detail.endToEndID, id.uppercased() != "NOTPROVIDED" { return id }
    return nil
  }

  /// Counterparty name, then the remittance lines, joined with " / "; else the entry's or the
  /// detail's additional information. The counterparty of a debit is the creditor, of a credit
  /// the debtor; a reversal turns that round (the party of the payment it reverses), and when
  /// that name is missing the other party's is used.
  static func describe(_ detail: CAMTDetail, credit: Bool, reversal: Bool, entry: CAMTEntryDraft) -> String {
    let debtorSide = credit != reversal
    let name =
      (debtorSide ? detail.debtorName : detail.creditorName) ?? (debtorSide ? detail.creditorName : detail.debtorName)
      ?? ""
    let remittance = detail.remittance.count == 1 ? detail.remittance[0] : detail.remittance.joined(separator: " ")
    switch (name.isEmpty, remittance.isEmpty) {
    case (false, false): return name + " / " + remittance
    case (false, true): return name
    case (true, false): return remittance
    case (true, true): return entry.additionalInfo ?? detail.additionalInfo ?? ""
    }
  }

  static func statusReason(_ status: String) -> String {
    let code = status.uppercased()
    switch code {
    case "PDNG": return "status PDNG (pending), not booked"
    case "INFO": return "status INFO (information only), not booked"
    case "FUTR": return "status FUTR (future), not booked"
    default: return "status \(status), not booked"
    }
  }

  private mutating func entryCurrency(_ code: String?, line: Int, column: String) throws(ImportError) -> Currency {
    if let code {
      // The code of the last entry again (every entry of a statement, mostly): no new lookup.
      if let last = lastCurrency, last.code == code { return last.currency }
      guard let currency = Currency(code: code.trimmingASCIIWhitespace()) else {
        throw .row(
          issue(
            .unknownCurrency, line: line, column: column, raw: code, message: "not an ISO 4217 currency code",
            hint: "the file is damaged; a CAMT.053 amount names its currency, e.g. Ccy=\"EUR\""))
      }
      lastCurrency = (code, currency)
      return currency
    }
    if let currency = statement?.currency { return currency }
    if let raw = options.currency, let currency = Currency(code: raw) { return currency }
    return defaultCurrency
  }

  /// A CAMT amount: digits with an optional `.` and at most the currency's decimals, no sign.
  private func amount(_ value: CAMTValue?, currency: Currency, column: String, entryLine: Int) throws(ImportError)
    -> Int64
  {
    guard let value else {
      throw .row(
        issue(
          .missingRequiredColumn, line: entryLine, column: column, raw: "", message: "the entry has no amount",
          hint: "the file is damaged or cut; export the statement again"))
    }
    let text = value.text
    let plain = !text.isEmpty && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }
    do throws(CoreError) {
      guard plain else { throw CoreError.invalidAmount(text) }
      return try Money.parse(text, currency: currency).minor
    } catch {
      let message: String
      switch error {
      case .tooManyDecimals: message = "more decimals than \(currency.code) has (\(currency.minorUnits))"
      case .amountOutOfRange: message = "the amount is too large"
      default: message = "not an amount (a CAMT amount is digits with a '.' such as 12.50)"
      }
      throw .row(
        issue(
          .badAmount, line: value.line, column: column, raw: text, message: message,
          hint: "the file is damaged or edited; export the statement again"))
    }
  }

  private func isCredit(_ value: CAMTValue?, column: String, entryLine: Int) throws(ImportError) -> Bool {
    guard let value else {
      throw .row(
        issue(
          .missingRequiredColumn, line: entryLine, column: column, raw: "",
          message: "the entry does not say whether it is a credit or a debit",
          hint: "the file is damaged or cut; export the statement again"))
    }
    // The exact codes first: upper-casing a string costs more than the rest of the entry.
    if value.text == "DBIT" { return false }
    if value.text == "CRDT" { return true }
    switch value.text.uppercased() {
    case "CRDT": return true
    case "DBIT": return false
    default:
      throw .row(
        issue(
          .badAmount, line: value.line, column: column, raw: value.text, message: "CdtDbtInd is neither CRDT nor DBIT",
          hint: "the file is damaged or edited; export the statement again"))
    }
  }

  /// The booking date, else the value date: `YYYY-MM-DD`, or the date part of a date-time.
  private func entryDate(_ draft: CAMTEntryDraft) throws(ImportError) -> CivilDate {
    let chosen =
      draft.bookingDate.map { ($0, draft.bookingDatePath) } ?? draft.valueDate.map { ($0, draft.valueDatePath) }
    guard let (value, column) = chosen else {
      throw .row(
        issue(
          .missingRequiredColumn, line: draft.line, column: "Ntry/BookgDt", raw: "",
          message: "the entry has neither a booking date nor a value date",
          hint: "the file is damaged or cut; export the statement again"))
    }
    let utf8 = value.text.utf8
    let tenth = utf8.count > 10 ? utf8.index(utf8.startIndex, offsetBy: 10) : nil
    let datePart =
      tenth.map { utf8[$0] == UInt8(ascii: "T") } == true
      ? String(decoding: utf8.prefix(10), as: UTF8.self) : value.text
    do throws(CoreError) {
      return try CivilDate.parse(datePart)
    } catch {
      let message: String
      if case .dateOutOfRange = error {
        message = "the date is outside \(CivilDate.supportedRange.lowerBound) to \(CivilDate.supportedRange.upperBound)"
      } else {
        message = "not a date (expected YYYY-MM-DD)"
      }
      throw .row(
        issue(
          .badDate, line: value.line, column: column, raw: value.text, message: message,
          hint: "the file is damaged or edited; export the statement again"))
    }
  }
}
