import ExpenseCore
import ExpenseStore

/// Tags as the service keeps them: one record of kind `tag` per tag (`StoredRecord`), holding
/// the rows tagged by hand, the rules whose matches it takes, the rows taken out of those
/// matches by hand, and its budget. No migration and no store function: a tag is a few ids.
///
/// Why rows by id: ids are never given twice, so an id of a deleted row never tags another,
/// and a row an undo puts back under its id has its tags again.
enum TagRecords {
  static let records = RecordKind<Body>(name: "tag")

  struct Body: Codable, Hashable {
    var name: String
    /// Rows tagged by hand (`tag add`), sorted.
    var added: [Int64] = []
    /// Rows a rule of the tag matches that `tag remove` took out, sorted.
    var removed: [Int64] = []
    /// Rules whose matches the tag takes (`rules add … --tag`), past rows and future ones.
    var rules: [Int64] = []
    var budget: TagBudget? = nil
  }

  /// The tags by name, with their record ids.
  static func load(_ store: any LedgerStore) throws -> [String: (id: Int64, body: Body)] {
    var byName: [String: (id: Int64, body: Body)] = [:]
    for (id, body) in try records.load(store) { byName[body.name] = (id, body) }
    return byName
  }

  /// A tag as typed, as it is kept: lower case, ASCII letters, digits and `-_./`, a letter or a
  /// digit first, at most 64 characters: what a ledger (`; trip-lisbon:`) and a beancount
  /// (`#trip-lisbon`) journal both read as a tag.
  static func name(_ raw: String) throws -> String {
    let name = raw.trimmingASCIIWhitespace().lowercased()
    let allowed = name.utf8.allSatisfy { byte in
      (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x5F || byte == 0x2E
        || byte == 0x2F
    }
    guard let first = name.utf8.first, allowed, name.utf8.count <= 64,
      (first >= 0x61 && first <= 0x7A) || (first >= 0x30 && first <= 0x39)
    else { throw ServiceError.tagName(raw) }
    return name
  }
}

/// What a tag may spend over a span of days (`tag budget trip-lisbon 1500 --from … --to …`).
public struct TagBudget: Codable, Hashable, Sendable {
  public var amountMinor: Int64
  public var currency: Currency
  public var from: CivilDate
  public var to: CivilDate

  /// `spent` as a whole percent of the budget, half up (a budget is more than 0; 0 if not).
  func percent(of spent: Int128) -> Int {
    guard amountMinor > 0 else { return 0 }
    return Int(clamping: (spent * 100 + Int128(amountMinor) / 2) / Int128(amountMinor))
  }
}
