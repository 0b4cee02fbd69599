import ExpenseCore

/// Whether an MT940 entry is a card payment, and the day the card was used.
///
/// German banks book a card payment days after it was made and say so in the `:86:`: the
/// booking text or purpose reads "Kartenzahlung", "girocard", "Debitk(arte)", or the
/// transaction code (GVC) is 106 (card payment at a terminal); the purpose often carries the
/// payment's own time ("2026-10-03T14:22:00 Karte1 …"). Such an entry is dated by that time,
/// else by the `:61:` value date; any other entry keeps its booking date (`CardDate`).
enum MT940Card {
  /// Words that mark a card payment, lower-cased.
  static let words = ["kartenzahlung", "girocard", "debitk", "ec-karte", "kartenumsatz"]
  /// Transaction codes (GVC) of card payments.
  static let codes: Set<String> = ["106"]

  /// The day the card was used, or nil when the `:86:` does not say it is a card payment.
  static func used(_ field: MT940Field, valueDate: CivilDate, booked: CivilDate) -> CivilDate? {
    let joined = field.text(separator: "")
    let spaced = field.text(separator: " ")
    let lower = spaced.lowercased()
    let subfields = MT940Description.structured(joined)
    let coded = subfields != nil && codes.contains(String(joined.prefix(3)))
    guard coded || words.contains(where: { lower.contains($0) }) else { return nil }
    // A structured field's time is in a subfield (its `?20` code must not read as a digit of it).
    let texts = subfields.map { $0.sorted { $0.key < $1.key }.map(\.value) } ?? [spaced]
    for text in texts {
      if let day = CardDate.inText(text, booked: booked) { return day }
    }
    return valueDate
  }
}
