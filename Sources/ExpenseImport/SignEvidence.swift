import ExpenseCore

/// What a file with one signed amount column proves about its sign: whether a positive amount
/// is money in (a bank account) or a charge (many card exports).
///
/// Why evidence and not a majority: a checking file with a salary, a refund and interest can
/// be mostly positive, and a card file with one refund mostly negative. What settles it is in
/// the file: a running balance (`balance[i] = balance[i-1] + amount` holds for one reading
/// only), money-in words on the positive rows ("SALARY", "Gutschrift"), an income category on
/// them, or a card's signature ("card" in a header, a negative "PAYMENT - THANK YOU"). With no
/// evidence either way the import follows what most bank accounts do (negative = money out),
/// as Actual and hledger do, and says so; it stops before writing only when the evidence
/// conflicts, or when there is none and at least three amounts, two in three, are positive
/// (card or bank: no telling).
struct SignEvidence {
  /// What decided, in words for the dialect and the summary.
  enum Verdict: Equatable {
    case negativeIsSpending(String)
    case positiveIsSpending(String)
    /// Stop before writing: what was seen, for the refusal.
    case unclear(String)
  }

  /// A word of the lists below, and whether a text holds it (`isIn`) as Foundation's
  /// `contains` says (canonical equivalence included), asked only when the text's bytes hold
  /// the word's longest ASCII run.
  ///
  /// Why: asked for every word and every sampled row, Foundation's search was a tenth of a
  /// bank-shaped import's time, before the first row was written. A text that holds the word
  /// holds each of its ASCII runs as they are: no other character is canonically equivalent to
  /// an ASCII letter, space or digit but the Kelvin sign, which the lower-cased texts asked
  /// about no longer hold, and an ASCII character never combines with the marks around it
  /// (the words are written precomposed, NFC). So the byte search only says "no" where
  /// Foundation would. The longest run, not the first: "nómina" would otherwise be asked of
  /// every text holding an "n" (most of them), each then left to Foundation.
  struct Word {
    let text: String
    /// The word's longest run of ASCII bytes (all of it when it is ASCII).
    let lead: [UInt8]
    /// The word is all ASCII and holds no line break: in an ASCII text its bytes are found
    /// exactly where its characters are (only a CR LF pair is one character of two bytes).
    let plain: Bool
    /// `byteSet` of `lead`.
    let leadSet: UInt64
    init(_ text: String) {
      self.text = text
      lead = Array(text.utf8.split { $0 >= 0x80 }.max { $0.count < $1.count } ?? [])
      plain = lead.count == text.utf8.count && !lead.contains(13) && !lead.contains(10)
      leadSet = Self.byteSet(lead)
    }

    /// The bytes a text holds, as a set of their values modulo 64 (`mayBeIn`).
    static func byteSet(_ bytes: some Sequence<UInt8>) -> UInt64 {
      bytes.reduce(0) { $0 | 1 << ($1 & 63) }
    }

    /// False when the text whose `byteSet` is `bytes` lacks a byte of the word's ASCII lead,
    /// so `isIn` would find no lead and say false: asked first, as most texts lack some byte
    /// of most words.
    func mayBeIn(_ bytes: UInt64) -> Bool { leadSet & ~bytes == 0 }

    /// Whether the plain word's bytes stand in a text that is not all ASCII with an ASCII byte
    /// (or the text's end) on each side: an ASCII character other than CR LF is a grapheme
    /// cluster boundary on both sides of another, so the word's characters are the text's
    /// there and Foundation would find them too. Anything else is left to Foundation (its
    /// search was a quarter of the detection's time on a sample with several scripts).
    func foundBetweenASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
      let n = lead.count
      guard n > 0, bytes.count >= n else { return false }
      for start in 0...(bytes.count - n) where bytes[start] == lead[0] {
        var matched = 1
        while matched < n && bytes[start + matched] == lead[matched] { matched += 1 }
        guard matched == n else { continue }
        let end = start + n
        if (start == 0 || bytes[start - 1] < 0x80) && (end == bytes.count || bytes[end] < 0x80) { return true }
      }
      return false
    }

    func isIn(_ text: String) -> Bool {
      guard !lead.isEmpty else { return text.contains(self.text) }
      let found = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
        guard ExpenseFilter.bytesContain(bytes, lead) else { return false }
        guard plain else { return nil }
        return bytes.allSatisfy({ $0 < 0x80 }) || foundBetweenASCII(bytes) ? true : nil
      }
      switch found {
      case .some(.some(let answer)): return answer
      default: return text.contains(self.text)
      }
    }
  }

  /// Words that mark money coming in, matched as lower-cased substrings of a description.
  static let moneyInWords = [
    "salary", "payroll", "direct dep", "deposit", "refund", "interest", "dividend", "reimburse", "cashback",
    "cash back", "rebate", "paycheck", "wages", "pension", "gehalt", "lohn", "gutschrift", "zinsen", "erstattung",
    "rente", "salaire", "remboursement", "virement recu", "virement reçu", "intérêts", "stipendio", "rimborso",
    "accredito", "nómina", "nomina", "abono", "devolución", "salaris", "loon", "terugbetaling", "rente ontvangen",
  ]

  /// Categories a bank gives money in.
  static let incomeCategories = [
    "income", "salary", "paycheck", "payroll", "interest", "dividends", "refund", "einnahmen", "gehalt",
    "revenus", "salaire", "entrate", "ingresos", "inkomsten",
  ]

  /// How a card statement words the account holder's payment to it (negative in a file whose
  /// charges are positive). Never the bank account's side of the same payment ("CITI AUTOPAY
  /// PAYMENT", "AMERICAN EXPRESS ACH PMT"), which is negative in a checking file too: as card
  /// evidence it made a checking file with a salary and a card autopay a conflict.
  static let cardPaymentWords = [
    "payment - thank you", "payment thank you", "payment-thank you", "thank you for your payment",
    "payment received", "online payment thank", "mobile payment - thank",
  ]

  /// Unmistakable purchases: chains and card-network words. On a positive row (and no
  /// money-in word there) they mark a file whose charges are positive.
  static let purchaseWords = [
    "amazon mktpl", "amzn mktp", "amazon.com", "shell oil", "starbucks", "uber trip", "uber eats", "lyft", "walmart",
    "target ", "costco", "netflix", "spotify", "mcdonald", "chevron", "exxon", "safeway", "kroger", "walgreens",
    "whole foods", "trader joe", "pos purchase", "pos debit", "card purchase", "purchase authorized",
  ]

  /// Header words of a card statement.
  static let cardHeaderWords = ["card", "karte", "carte", "tarjeta", "carta"]

  /// Words beside a card word that describe the card a payment was made WITH, as a payment
  /// processor's export has them (Stripe's "card_id", "Card Brand", "Card Last4"), not a card
  /// statement: such a header says nothing of which sign is a charge.
  static let cardDetailWords: Set<String> = [
    "id", "brand", "funding", "fingerprint", "last4", "country", "cvc", "exp", "address", "zip", "issuer", "type",
    "tokenization", "present",
  ]

  /// Whether `header` names a card statement's column ("Card Member", "Kartennummer"), not a
  /// detail of the card a customer paid with.
  static func isCardHeader(_ header: String) -> Bool {
    let words = header.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
    guard words.contains(where: { word in cardHeaderWords.contains { word.contains($0) } }) else { return false }
    return !words.contains { cardDetailWords.contains($0) }
  }

  /// Header words of a running balance column.
  static let balanceHeaderWords = ["balance", "saldo", "solde", "kontostand", "running bal"]

  let plan: Plan
  let data: [Detector.Record]
  let parser: AmountParser

  init(plan: Plan, data: [Detector.Record]) {
    self.plan = plan
    self.data = data
    parser = AmountParser(decimalMark: plan.decimalMark)
  }

  /// The verdict on the sampled rows.
  func verdict() -> Verdict {
    guard let amount = plan.amount else { return .negativeIsSpending("") }
    var rows: [(minor: Int64, text: String, category: String, bytes: UInt64)] = []
    for record in data {
      guard amount < record.fields.count, let minor = parse(record.fields[amount]), minor != 0 else { continue }
      let text = lowercasedFast(
        plan.descriptions.compactMap { $0 < record.fields.count ? record.fields[$0] : nil }.joined(separator: " "))
      let category = plan.category.flatMap { $0 < record.fields.count ? record.fields[$0] : nil } ?? ""
      rows.append((minor, text, lowercasedFast(category.trimmingASCIIWhitespace()), Word.byteSet(text.utf8)))
    }
    // Strong evidence: what the rows themselves say. Weak: a header naming a card, which a
    // bank account with a debit card has too ("Card Last Four Digits").
    var moneyIn: [String] = []
    var cardPayment: String?
    var cardHeader: String?
    // A word counts for the sign it stands on only where it stands on that sign more often
    // than on the other: "STARBUCKS" on both signs of a file proves nothing.
    // `least` rows at the least, and three times as many as on the other sign.
    func leaning(_ words: [String], positive: Bool, least: Int = 1) -> String? {
      let words = words.map(Word.init)
      let matching = rows.filter { row in words.contains { $0.mayBeIn(row.bytes) && $0.isIn(row.text) } }
      let on = matching.filter { ($0.minor > 0) == positive }
      guard on.count >= least, on.count > (matching.count - on.count) * 3 else { return nil }
      return on.first?.text
    }
    if let text = leaning(Self.moneyInWords, positive: true) {
      moneyIn.append("a money-in word on a positive row (\"\(Self.shown(text))\")")
    }
    if let row = rows.first(where: { $0.minor > 0 && Self.incomeCategories.contains($0.category) }) {
      moneyIn.append("an income category on a positive row (\"\(Self.shown(row.category))\")")
    }
    if let header = plan.header.first(where: Self.isCardHeader) {
      cardHeader = "a card header (\"\(Self.shown(header))\")"
    }
    if let text = leaning(Self.cardPaymentWords, positive: false) {
      cardPayment = "a card payment on a negative row (\"\(Self.shown(text))\")"
    } else if let text = leaning(Self.purchaseWords, positive: true, least: 2),
      !Self.moneyInWords.contains(where: { Word($0).isIn(text) })
    {
      cardPayment = "a purchase on a positive row (\"\(Self.shown(text))\")"
    }
    // A running balance moves with the amounts as they are signed: money held rises with money
    // in. Against them, or as a card's debt (its payment negative), positive is a charge.
    if let moves = balanceMoves(amount: amount) {
      let name = "the running balance in column \"\(Self.shown(moves.column))\""
      if !moves.withAmounts { return .positiveIsSpending("\(name), which falls as amounts grow") }
      if let cardPayment { return .positiveIsSpending("\(name), a card's debt (\(cardPayment))") }
      return .negativeIsSpending(name)
    }
    switch (moneyIn.isEmpty, cardPayment) {
    case (false, nil): return .negativeIsSpending(moneyIn.joined(separator: "; "))
    case (true, let payment?):
      return .positiveIsSpending(([payment] + [cardHeader].compactMap { $0 }).joined(separator: "; "))
    case (false, let payment?):
      return .unclear("the file's evidence conflicts: \((moneyIn + [payment]).joined(separator: "; "))")
    case (true, nil):
      // A header naming a card tells a mostly positive file (a card's charges) from a bank
      // account; in any other file the bank's reading stands. Fewer than three positive
      // amounts (a tiny file) are no evidence either: as Actual and hledger do, the bank's
      // reading stands, and the summary says it was a default.
      let positive = rows.filter { $0.minor > 0 }.count
      let mostlyPositive = !rows.isEmpty && positive * 3 >= rows.count * 2
      if mostlyPositive, let cardHeader { return .positiveIsSpending(cardHeader) }
      if mostlyPositive && positive >= 3 {
        return .unclear(
          "\(positive) of \(rows.count) amounts are positive (as in many credit card exports, or an account "
            + "with much money in) and the file shows no evidence either way: no balance column, no money-in words, "
            + "no card header, card payment or chain-store purchase")
      }
      return .negativeIsSpending("no evidence either way: as in most bank accounts")
    }
  }

  /// Whether a running balance moves with the amounts (`withAmounts`: a positive amount raises
  /// it) or against them, in either row order; nil when no unused column is headed as a balance,
  /// or neither reading holds for at least two pairs of rows and three times as often as the other.
  func balanceMoves(amount: Int) -> (column: String, withAmounts: Bool)? {
    runningBalance(amount: amount).map { (plan.header[$0.index], $0.withAmounts) }
  }

  /// `balanceMoves`, with the column's index.
  func runningBalance(amount: Int) -> (index: Int, withAmounts: Bool)? {
    guard
      let column = plan.header.indices.first(where: { index in
        guard index != amount, index >= plan.roles.count || [nil, .ignore].contains(plan.roles[index]) else {
          return false
        }
        let lower = plan.header[index].lowercased()
        return Self.balanceHeaderWords.contains { lower.contains($0) }
      })
    else { return nil }
    var pairs: [(amount: Int64, before: Int64, after: Int64, next: Int64)] = []
    var previous: (amount: Int64, balance: Int64)?
    for record in data {
      guard amount < record.fields.count, column < record.fields.count, let minor = parse(record.fields[amount]),
        let balance = parse(record.fields[column])
      else {
        previous = nil
        continue
      }
      if let previous { pairs.append((minor, previous.balance, balance, previous.amount)) }
      previous = (minor, balance)
    }
    var with = 0
    var against = 0
    for pair in pairs {
      // Oldest first: this row's balance is the previous one moved by this row's amount.
      // Newest first: the previous row's balance is this one moved by the previous amount.
      let (after, overflowA) = pair.before.addingReportingOverflow(pair.amount)
      let (before, overflowB) = pair.after.addingReportingOverflow(pair.next)
      let (afterOut, overflowC) = pair.before.subtractingReportingOverflow(pair.amount)
      let (beforeOut, overflowD) = pair.after.subtractingReportingOverflow(pair.next)
      if (!overflowA && after == pair.after) || (!overflowB && before == pair.before) { with += 1 }
      if (!overflowC && afterOut == pair.after) || (!overflowD && beforeOut == pair.before) { against += 1 }
    }
    if with >= 2 && with > against * 3 { return (column, true) }
    if against >= 2 && against > with * 3 { return (column, false) }
    return nil
  }

  /// `value` in minor units at four decimals (enough to compare; nil when it is no amount).
  func parse(_ value: String) -> Int64? {
    if case .success(let minor) = parser.parse(value.trimmingASCIIWhitespace(), minorUnits: 4) { return minor }
    return nil
  }

  /// At most 40 characters of a cell, controls made visible.
  static func shown(_ text: String) -> String { visibleControlCharacters(String(text.prefix(40))) }
}
