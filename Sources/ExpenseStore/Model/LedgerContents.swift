import ExpenseCore

/// Everything one ledger holds except its expenses, as `LedgerStore.readLedger` reads it and
/// `LedgerStore.loadLedger` writes it: what `expenses copy` carries from one store to another.
///
/// Why stored values and not the domain's views: a copy must be exact (ids, counters, each
/// rule's id and order, provenance as stored), so these are the tables' contents, in the shape
/// both stores hold them. Rollups (`monthTotal`, `idRun`, the revision) are not here: the
/// target rebuilds them from the rows. Idempotency answers are not either: they answer retries
/// sent to one server, and a copy is another.
public struct LedgerContents: Hashable, Sendable {
  /// The id the next expense gets (ids of deleted expenses are never given again).
  public var nextExpenseID: Int64
  /// The id the next rule gets.
  public var nextRuleID: Int64
  /// The id the next import gets: past every import id the ledger ever showed, removed ones
  /// included, so a copy never gives a removed import's id to a new one.
  public var nextImportID: Int64 = 1
  /// Budgets, by category, currency and month.
  public var budgets: [Budget]
  public var kinds: [String: CategoryKind]
  /// Rules in id order (the order they apply in), with their ids.
  public var rules: [CategoryRule]
  public var sectionStates: [String: Bool]
  public var settings: [String: String]
  /// Import profiles: name → options JSON.
  public var profiles: [String: String]
  /// Imports in id order, with their ids.
  public var imports: [ImportRecord]
  /// API tokens with their SHA-256 hashes (the tokens themselves are never stored), `ledger`
  /// left empty (see `members`).
  public var tokens: [StoredToken]
  /// Who may reach the ledger and with which role. Not data: a ledger with only members is
  /// empty. Like the tokens', their `ledger` is empty here: contents do not know the name of
  /// the ledger they came from, and a copy gives both the target's.
  public var members: [Membership]
  /// The parts of split transactions: expense id → the id of its set's first part.
  public var splitParts: [Int64: Int64]
  /// How many expenses the ledger holds (read in the same transaction as the rest).
  public var expenseCount: Int
  /// The service's records (`StoredRecord`), and each kind's next id.
  public var records: [StoredRecord] = []
  public var nextRecordIDs: [String: Int64] = [:]

  public init(
    nextExpenseID: Int64 = 1, nextRuleID: Int64 = 1, budgets: [Budget] = [], kinds: [String: CategoryKind] = [:],
    rules: [CategoryRule] = [], sectionStates: [String: Bool] = [:], settings: [String: String] = [:],
    profiles: [String: String] = [:], imports: [ImportRecord] = [], tokens: [StoredToken] = [],
    splitParts: [Int64: Int64] = [:], expenseCount: Int = 0, members: [Membership] = []
  ) {
    self.nextExpenseID = nextExpenseID
    self.nextRuleID = nextRuleID
    self.budgets = budgets
    self.kinds = kinds
    self.rules = rules
    self.sectionStates = sectionStates
    self.settings = settings
    self.profiles = profiles
    self.imports = imports
    self.tokens = tokens
    self.members = members
    self.splitParts = splitParts
    self.expenseCount = expenseCount
  }

  /// Whether a ledger holding this has no data a copy could overwrite: no expense, budget,
  /// kind, rule, import, profile, token, setting or section state.
  public var isEmpty: Bool {
    expenseCount == 0 && budgets.isEmpty && kinds.isEmpty && rules.isEmpty && imports.isEmpty && profiles.isEmpty
      && tokens.isEmpty && settings.isEmpty && sectionStates.isEmpty && splitParts.isEmpty && records.isEmpty
  }
}

/// An API token as stored: the token's record and the hex SHA-256 of the token.
public struct StoredToken: Hashable, Sendable {
  public var token: APIToken
  public var hash: String

  public init(token: APIToken, hash: String) {
    self.token = token
    self.hash = hash
  }
}

/// One expense row as stored: its key (`ExpenseKey`: the day and the fingerprint hash, the
/// duplicate check), its id and every column, provenance included, as the store keeps them.
public struct StoredExpense: Hashable, Sendable, Codable {
  public var key: Int64
  public var id: Int64
  public var date: CivilDate
  public var amount: Money
  public var description: String
  public var category: String?
  public var account: String?
  /// The file it was imported from (`nil`: added by hand) and the line in it.
  public var sourceFile: String?
  public var sourceLine: Int64?
  /// `CategorySource.rawValue`, as stored.
  public var categorySource: Int

  public init(
    key: Int64, id: Int64, date: CivilDate, amount: Money, description: String, category: String?,
    account: String?, sourceFile: String?, sourceLine: Int64?, categorySource: Int
  ) {
    self.key = key
    self.id = id
    self.date = date
    self.amount = amount
    self.description = description
    self.category = category
    self.account = account
    self.sourceFile = sourceFile
    self.sourceLine = sourceLine
    self.categorySource = categorySource
  }
}

/// The expenses of a ledger being read (`LedgerStore.readLedger`), handed over in batches in
/// key order, inside the read's one transaction, so memory stays one batch whatever the size.
public protocol StoredExpenseReader {
  func forEachBatch(_ body: ([StoredExpense]) throws -> Void) throws
}

/// Rows per batch of a ledger copy: a few MiB of decoded rows, few round trips per row.
public let ledgerCopyBatchSize = 8192

extension LedgerContents {
  /// What a ledger holds, in words, for `StoreError.ledgerNotEmpty` ("3 expenses, 1 budget").
  public static func describe(_ contents: LedgerContents) -> String {
    let counts: [(Int, String)] = [
      (contents.expenseCount, "expense"), (contents.budgets.count, "budget"), (contents.rules.count, "rule"),
      (contents.imports.count, "import"), (contents.kinds.count, "category kind"),
      (contents.profiles.count, "import profile"), (contents.tokens.count, "token"),
      (contents.settings.count, "setting"), (contents.sectionStates.count, "section state"),
      (contents.records.filter { $0.kind == "change" }.count, "history change"),
      (contents.records.filter { $0.kind != "change" && $0.kind != "change-effect" }.count, "record"),
    ]
    let parts = counts.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }
    return parts.isEmpty ? "split parts" : parts.joined(separator: ", ")
  }
}
