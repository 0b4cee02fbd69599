/// The part of a bank's description that names who was paid: the same for every payment of a
/// series, whatever reference, date or card number the bank puts beside it.
///
/// Folded for case and accents (as search folds), every word holding a digit dropped ("#10234",
/// "11/03", "MREF 2026-0931-77"), punctuation made a space, single letters dropped. "POS 4417
/// STARBUCKS #10234 SEATTLE WA 11/03" is `pos starbucks seattle wa`.
public enum PayeeKey {
  public static func of(_ description: String) -> String {
    let folded = ExpenseFilter.fold(description)
    var words: [Substring] = []
    for word in folded.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
      guard !word.contains(where: \.isNumber) else { continue }
      let letters = word.split(whereSeparator: { !$0.isLetter })
      for part in letters where part.count > 1 { words.append(part) }
    }
    return words.joined(separator: " ")
  }

  /// The description as the bank wrote it, less the words holding a digit (a reference, a
  /// date, a card or store number): `RENT OAK STREET APTS REF`, `NETFLIX.COM`. The
  /// description itself when nothing would be left.
  public static func display(_ description: String) -> String {
    let kept = description.split(separator: " ").filter { !$0.contains(where: \.isNumber) }
    return kept.isEmpty ? description : kept.joined(separator: " ")
  }
}
