import ExpenseCore

/// Which CAMT.053 entries are card payments, and the day the card was used (`CardDate`).
extension CAMTHandler {
  /// `BkTxCd/Domn/Fmly/Cd` of card payments: customer card and debit card transactions.
  static let cardFamilies: Set<String> = ["CCRD", "DCRD"]

  /// The day the card of a card payment was used, or nil when the entry is not one. Evidence:
  /// the bank transaction code's family, a `CardTx`, an acceptance time (`RltdDts/AccptncDtTm`),
  /// or a card payment's own date and time in the remittance text. The day: the acceptance time,
  /// else the transaction time, else the remittance text's, else the value date.
  static func cardUsed(_ draft: CAMTEntryDraft, _ detail: CAMTDetail?, booked: CivilDate) -> CivilDate? {
    guard draft.bookingDate != nil else { return nil }
    let remittance = detail.flatMap { CardDate.inText($0.remittance.joined(separator: " "), booked: booked) }
    let card = draft.card || detail?.card == true || detail?.accepted != nil || remittance != nil
    guard card else { return nil }
    if let time = detail?.accepted ?? detail?.transactionTime, let day = datePart(time.text) { return day }
    if let remittance { return remittance }
    return draft.valueDate.flatMap { datePart($0.text) }
  }

  /// The date of `YYYY-MM-DD` or of a date-time `YYYY-MM-DDThh:mm…`, or nil.
  static func datePart(_ text: String) -> CivilDate? {
    let utf8 = Array(text.utf8)
    guard utf8.count == 10 || (utf8.count > 10 && utf8[10] == UInt8(ascii: "T")) else { return nil }
    return try? CivilDate.parse(String(decoding: utf8.prefix(10), as: UTF8.self))
  }
}
