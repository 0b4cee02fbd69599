import ExpenseCore
import ExpenseStore

/// What an import's rows mean beside the rows stored before it: the policy of probable
/// duplicates (one transaction from two files) and of transfer pairs (one move between the
/// user's own accounts), decided here once for every store and front end. The store only reads
/// the neighbours and writes what is decided (`ImportWriter`).
struct ImportMatching {
  /// How far apart two dates of one transaction may be: a card's posting date follows the day
  /// it was used by one to three days (five over a weekend and a holiday), and a payment from
  /// checking reaches the card in as many.
  static let days = 4

  /// One row this import added, as the matching sees it.
  struct Added {
    var key: Int64
    var line: Int
    var date: CivilDate
    var amount: Money
    var description: String
    var account: String?
    var category: String?
    var categorySource: CategorySource
  }

  /// How many days two files' spans must share for their rows to be duplicates of each other:
  /// two exports of one period overlap by weeks, while consecutive statements share no day (or
  /// one or two, where a row is dated when the card was used and the next statement booked it).
  /// Without this, a parking fee paid every day would lose the first days of November to the
  /// last days of October.
  static let sharedDays = 3

  /// The name rows of this import are stored under.
  let file: String
  /// The first and last day of this file's rows (every row read, duplicates too).
  var fileSpan: ClosedRange<CivilDate>?
  /// The days each stored file's imports cover (`ImportRecord`s by file name).
  var storedSpans: [String: [ClosedRange<CivilDate>]] = [:]
  /// Category kinds, by `CategoryName.key`.
  let kinds: [String: CategoryKind]

  /// Whether the rows of stored file `name` can be duplicates of this file's: their spans
  /// share at least `sharedDays` days.
  func overlaps(_ name: String) -> Bool {
    guard let fileSpan, let spans = storedSpans[name] else { return false }
    return spans.contains { span in
      let first = max(span.lowerBound.daysSinceEpoch, fileSpan.lowerBound.daysSinceEpoch)
      let last = min(span.upperBound.daysSinceEpoch, fileSpan.upperBound.daysSinceEpoch)
      return last - first + 1 >= Self.sharedDays
    }
  }

  init(file: String, kinds: [String: CategoryKind]) {
    self.file = file
    self.kinds = Dictionary(kinds.map { (CategoryName.key($0.key), $0.value) }) { first, _ in first }
  }

  /// Days apart.
  static func distance(_ a: CivilDate, _ b: CivilDate) -> Int { abs(a.daysSinceEpoch - b.daysSinceEpoch) }

  /// Whether two rows can be of one account: the same account, or one of them names none.
  static func sameAccount(_ a: String?, _ b: String?) -> Bool {
    guard let a, let b else { return true }
    return CategoryName.key(a) == CategoryName.key(b)
  }

  // MARK: Probable duplicates

  /// Each added row that is probably a stored row already (same amount and currency, dates at
  /// most `days` apart, the same account or none named, the same payee: `PayeeMatch`), from a
  /// file whose span shares `sharedDays` days with this one's (`overlaps`), matched one to one:
  /// the closest dates first, then the same text, then file order. Two identical coffees in
  /// both files are two matches; a third in one file is kept. Rows added by hand and parts of a
  /// split are never matched.
  func probableDuplicates(_ added: [Added], stored: [NeighbourRow]) -> [(added: Added, stored: NeighbourRow)] {
    var byAmount: [Money: [Int]] = [:]
    var overlapping: [String: Bool] = [:]
    for (index, row) in stored.enumerated() {
      guard let file = row.source?.file else { continue }
      if overlapping[file] == nil { overlapping[file] = overlaps(file) }
      if overlapping[file] == true { byAmount[row.amount, default: []].append(index) }
    }
    var candidates: [(distance: Int, sameText: Bool, line: Int, added: Int, stored: Int)] = []
    for (a, row) in added.enumerated() {
      for s in byAmount[row.amount] ?? [] {
        let other = stored[s]
        let distance = Self.distance(row.date, other.date)
        guard distance <= Self.days, Self.sameAccount(row.account, other.account),
          PayeeMatch.same(row.description, other.description)
        else { continue }
        candidates.append(
          (distance, PayeeMatch.compact(row.description) == PayeeMatch.compact(other.description), row.line, a, s))
      }
    }
    candidates.sort {
      ($0.distance, $0.sameText ? 0 : 1, $0.line, $0.stored) < ($1.distance, $1.sameText ? 0 : 1, $1.line, $1.stored)
    }
    var usedAdded = Set<Int>()
    var usedStored = Set<Int>()
    var matches: [(added: Added, stored: NeighbourRow)] = []
    for candidate in candidates where !usedAdded.contains(candidate.added) && !usedStored.contains(candidate.stored) {
      usedAdded.insert(candidate.added)
      usedStored.insert(candidate.stored)
      matches.append((added[candidate.added], stored[candidate.stored]))
    }
    return matches.sorted { $0.added.line < $1.added.line }
  }

  // MARK: Transfer pairs

  /// One side of a possible pair: a row of this import (`stored` nil) or a stored one, its
  /// values read as an `Added`'s.
  @dynamicMemberLookup
  struct Side {
    var row: Added
    var stored: NeighbourRow?
    /// This import's line, for a row of this import.
    var line: Int? { stored == nil ? row.line : nil }

    subscript<T>(dynamicMember path: KeyPath<Added, T>) -> T { row[keyPath: path] }

    init(added: Added) { row = added }

    init(stored: NeighbourRow) {
      row = Added(
        key: stored.key, line: 0, date: stored.date, amount: stored.amount, description: stored.description,
        account: stored.account, category: stored.category, categorySource: stored.categorySource)
      self.stored = stored
    }
  }

  /// Whether a row may become one side of a pair: it has no category, or one of kind
  /// transfer (a transfer pattern's, or a file's category the user marked so). A category the
  /// user chose by hand, or an expense or income category, is never changed.
  func mayPair(_ side: Side) -> Bool {
    guard side.categorySource != .hand, side.stored?.paired != true else { return false }
    guard let category = side.category else { return true }
    let key = CategoryName.key(category)
    return (kinds[key] ?? (key == CategoryName.key(transfersName) ? .transfer : .expense)) == .transfer
  }

  /// Words a bank uses for a move of money, in any account's statement: without one on either
  /// side (or a transfer category), two equal and opposite amounts are more likely a purchase
  /// and an unrelated refund than a transfer, and are left alone.
  static let moveWords = [
    "PAYMENT", "PMT", "PYMT", "AUTOPAY", "AUTO PAY", "EPAY", "E-PAYMENT", "TRANSFER", "XFER", "TRSF", "TRF",
    "THANK YOU", "DEPOSIT", "TOP-UP", "TOPUP", "TOP UP", "SAVINGS", "CREDIT CRD", "CARD ENDING", "ÜBERWEISUNG",
    "UEBERWEISUNG", "UMBUCHUNG", "KREDITKARTE", "ABRECHNUNG", "VIREMENT", "BONIFICO", "GIROCONTO", "TRANSFERENCIA",
    "TRASPASO", "OVERBOEKING", "OVERFØRSEL", "ÖVERFÖRING", "OVERFØRING", "SIIRTO", "PRZELEW",
  ]

  func looksLikeAMove(_ side: Side) -> Bool {
    if let category = side.category,
      kinds[CategoryName.key(category)] == .transfer
        || CategoryName.key(category) == CategoryName.key(transfersName)
    {
      return true
    }
    let text = side.description.uppercased()
    return Self.moveWords.contains { text.contains($0) }
  }

  /// Whether two rows are in two different accounts: both name one and the names differ, or,
  /// when either names none, they came from different files (two exports of one unnamed
  /// account share neither).
  func differentAccounts(_ a: Side, _ b: Side) -> Bool {
    if let x = a.account, let y = b.account { return CategoryName.key(x) != CategoryName.key(y) }
    let fileA = a.stored?.source?.file ?? (a.stored == nil ? file : nil)
    let fileB = b.stored?.source?.file ?? (b.stored == nil ? file : nil)
    guard let fileA, let fileB else { return false }
    return fileA != fileB
  }

  /// The pairs: money out of one account and the same amount into another, dates at most
  /// `days` apart, at least one row of this import, both free to pair (`mayPair`), one of them
  /// worded as a move (`looksLikeAMove`), and each with exactly one such partner: an amount
  /// that could pair two ways is left alone rather than guessed.
  func transferPairs(_ added: [Added], stored: [NeighbourRow]) -> [(out: Side, into: Side)] {
    let sides = added.map(Side.init(added:)) + stored.map(Side.init(stored:))
    let free = sides.indices.filter { mayPair(sides[$0]) }
    var incoming: [Money: [Int]] = [:]
    for index in free where sides[index].amount.minor > 0 { incoming[sides[index].amount, default: []].append(index) }
    var partners: [Int: [Int]] = [:]
    for o in free where sides[o].amount.minor < 0 {
      let (out, wanted) = (sides[o], Money(minor: 0 &- sides[o].amount.minor, currency: sides[o].amount.currency))
      for i in incoming[wanted] ?? [] {
        let into = sides[i]
        guard out.stored == nil || into.stored == nil, Self.distance(out.date, into.date) <= Self.days,
          differentAccounts(out, into), looksLikeAMove(out) || looksLikeAMove(into)
        else { continue }
        partners[o, default: []].append(i)
        partners[i, default: []].append(o)
      }
    }
    var pairs: [(out: Side, into: Side)] = []
    for (o, found) in partners where sides[o].amount.minor < 0 && found.count == 1 {
      guard let i = found.first, partners[i]?.count == 1 else { continue }
      pairs.append((sides[o], sides[i]))
    }
    return pairs.sorted { ($0.out.date, $0.out.key) < ($1.out.date, $1.out.key) }
  }
}
