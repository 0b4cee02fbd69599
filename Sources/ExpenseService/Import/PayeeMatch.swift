/// Whether two descriptions name the same payee, as two exports of one account word it: a
/// card's OFX says "STARBUCKS #1234 SEATTLE WA", its QIF "Starbucks Coffee"; a bank's CSV says
/// "SQ *BLUE BOTTLE", its PDF-to-QIF "Blue Bottle Coffee".
///
/// Deliberately narrow, because a match takes a row out of an import: the same words after
/// case and punctuation (a word of four letters or more in common, processor and card words
/// left out), or one text's letters the start of the other's, and never two texts whose numbers
/// differ. "AMZN Mktp" and "Amazon.com" do
/// not match: the row is kept, and the user sees both (a duplicate kept is visible and undone
/// with `delete`; a row wrongly withdrawn would be invisible).
enum PayeeMatch {
  /// Words of processors, card networks and bank boilerplate, which say nothing of the payee.
  static let noise: Set<String> = [
    "POS", "PURCHASE", "DEBIT", "CREDIT", "CARD", "VISA", "MASTERCARD", "MAESTRO", "PAYMENT", "RECURRING", "ONLINE",
    "CHECKCARD", "CHECK", "CONTACTLESS", "WWW", "COM", "HTTP", "HTTPS", "THE", "AND", "LLC", "INC", "LTD", "GMBH",
    "KARTENZAHLUNG", "LASTSCHRIFT", "GIROCARD", "ACH", "TRANSACTION", "TST", "PAYPAL", "INTL", "STORE",
  ]

  static func words(_ text: String) -> [String] {
    text.uppercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
      .filter { $0.count >= 4 && !noise.contains($0) && !$0.allSatisfy(\.isNumber) }
  }

  /// The letters and digits of `text`, upper-cased.
  static func compact(_ text: String) -> String { String(text.uppercased().filter { $0.isLetter || $0.isNumber }) }

  /// The runs of digits in `text`, leading zeros dropped: a store's number, a reference, a
  /// date written into the text.
  static func numbers(_ text: String) -> [Substring] {
    text.split { !$0.isASCII || !$0.isNumber }.map { run in
      let trimmed = run.drop { $0 == "0" }
      return trimmed.isEmpty ? "0" : trimmed
    }
  }

  static func same(_ a: String, _ b: String) -> Bool {
    let (x, y) = (compact(a), compact(b))
    if x == y { return !x.isEmpty }
    // Both texts carry numbers and they differ: two stores of a chain, two references, two
    // rows a program numbered ("Import 1 row 3", "Import 2 row 3"). One text without numbers
    // (a QIF's "Starbucks Coffee" beside the OFX's "STARBUCKS #1234") says nothing against.
    let (m, n) = (numbers(a), numbers(b))
    if !m.isEmpty && !n.isEmpty && m != n { return false }
    let (short, long) = x.count <= y.count ? (x, y) : (y, x)
    if short.count >= 5 && long.hasPrefix(short) { return true }
    return !Set(words(a)).isDisjoint(with: words(b))
  }
}
