import ExpenseStore
import PostgresNIO

/// A search's text test (`ExpenseQuery.texts`) as a condition of the read, so a search reads
/// the rows that can match and not the whole ledger: the service still tests every row it is
/// given, so the condition may keep more than the test (never fewer).
///
/// How: an ASCII description is tested in SQL by the test's `ascii` rule (`ILIKE` under the
/// "C" collation, which makes only ASCII letters lower-case, whatever the database's locale);
/// every other text, the descriptions that are not ASCII and every account, is read from
/// `expense_text` (schema "v9-search-texts", which holds each of them once per ledger), the
/// categories from the rollup, each tested in Swift, and the rows are read by the values that
/// passed. A test without an ASCII rule tests every distinct description and account, read by
/// a scan of the ledger.
extension PostgresStore {
  func textCondition(_ connection: BlockingConnection, _ test: TextTest, _ binds: inout PostgresBindings)
    throws -> String
  {
    func bind(_ value: some PostgresDynamicTypeEncodable) -> String {
      binds.append(value)
      return "$\(binds.count)"
    }
    var terms: [String] = []
    if case .lowercasedContains(let needle) = test.ascii {
      terms.append("e.description COLLATE \"C\" ILIKE \(bind(Self.likePattern(needle)))")
    }
    if test.ascii == nil {
      let (descriptions, accounts) = try everyText(connection, test)
      if !descriptions.isEmpty { terms.append("e.description = ANY(\(bind(descriptions)))") }
      if !accounts.isEmpty { terms.append("e.account = ANY(\(bind(accounts)))") }
    } else {
      // The texts are distinct (but for two writers racing), so they are tested in a list:
      // hashing a String that is not ASCII normalizes it, which cost more than the tests.
      var passing: [String] = []
      let texts = try connection.query(
        PostgresQuery(
          unsafeSQL: "SELECT text FROM expense_text WHERE ledger_id = $1", binds: try self.binds(ledger)))
      for row in texts {
        let text = try row.decode(String.self)
        if test.test(text) { passing.append(text) }
      }
      if !passing.isEmpty {
        let texts = bind(passing)
        terms.append("e.description = ANY(\(texts)) OR e.account = ANY(\(texts))")
      }
    }
    // The categories from the rollup (every row's category is in it, and it is small).
    let names = try connection.query(
      PostgresQuery(
        unsafeSQL: "SELECT DISTINCT category FROM month_total WHERE ledger_id = $1 AND category <> ''",
        binds: try self.binds(ledger)))
    var categories: [String] = []
    for row in names {
      let name = try row.decode(String.self)
      if test.test(name) { categories.append(name) }
    }
    if !categories.isEmpty { terms.append("e.category = ANY(\(bind(categories)))") }
    return terms.isEmpty ? "false" : "(" + terms.joined(separator: " OR ") + ")"
  }

  /// The distinct descriptions and accounts of the ledger that pass `test`, by one scan.
  private func everyText(_ connection: BlockingConnection, _ test: TextTest) throws -> ([String], [String]) {
    let pairs = try connection.query(
      PostgresQuery(
        unsafeSQL: "SELECT DISTINCT description, account FROM expense WHERE ledger_id = $1",
        binds: try self.binds(ledger)))
    var descriptions: Set<String> = []
    var accounts: Set<String> = []
    var tested: [String: Bool] = [:]
    func passes(_ text: String) -> Bool {
      if let known = tested[text] { return known }
      let passed = test.test(text)
      tested[text] = passed
      return passed
    }
    for row in pairs {
      let (d, a) = try row.decode((String, String?).self)
      if passes(d) { descriptions.insert(d) }
      if let a, passes(a) { accounts.insert(a) }
    }
    return (descriptions.sorted(), accounts.sorted())
  }

  /// `%text%` for `LIKE`, its `%`, `_` and `\` taken literally.
  static func likePattern(_ text: String) -> String {
    var pattern = "%"
    for character in text {
      if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
      pattern.append(character)
    }
    return pattern + "%"
  }
}
