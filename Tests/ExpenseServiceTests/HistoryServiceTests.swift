import ExpenseCore
import ExpenseImport
import ExpenseStore
import Foundation
import ServiceTestSupport
import TestSupport
import Testing

@testable import ExpenseService

/// The history and its undo through the service, on every store: random sequences of every
/// kind of change, each undone newest first, leave the rows (ids, keys, provenance, split sets,
/// pairs), the monthly sums, budgets and their terms, kinds, moves, goals, imports, balances and
/// `check` exactly as they were before it; an undo undone makes the change again; an undo is
/// refused, with nothing changed, when what it changed was changed since.
@Suite struct HistoryServiceTests {
  static let folder = AccountBalanceServiceTests.folder
  static let files =
    ["checking-sep.ofx", "checking-oct.ofx", "savings-oct.camt053.xml"].map {
      folder.appendingPathComponent($0).path
    } + ["checking.csv", "card-sep-oct.ofx"].map { AccountMatchingTests.folder.appendingPathComponent($0).path }
  static let categories = ["Groceries", "Dining out", "Rent", "Travel"]

  static func service(_ store: any LedgerStore) -> ExpenseService {
    RolloverServiceTests.service(store, today: "2026-11-20")
  }

  static func importFile(_ service: ExpenseService, _ name: String) throws {
    let path = name.hasPrefix("/") ? name : folder.appendingPathComponent(name).path
    var request = ImportRequest(path: path)
    request.importedAt = Date(timeIntervalSince1970: 1_790_000_000 + Double(name.count))
    _ = try service.importFile(request)
  }

  /// Everything an undo must give back, as one comparable text.
  static func state(_ service: ExpenseService) throws -> String {
    let store = service.store
    var snapshot = try store.rowSnapshot(ids: Array(1...400))
    snapshot.pairs.sort { $0.outId < $1.outId }
    let rows = snapshot.rows.map { "\($0)" }
    let totals = try store.monthlyTotals(
      from: Month(year: 2025, month: 1)!, through: Month(year: 2027, month: 12)!, daily: true
    ).map { "\($0)" }.sorted()
    let budgets = try service.budgetsWithTerms().map { "\($0.budget) \($0.rollover) \($0.period)" }.sorted()
    let kinds = try store.categoryKinds().map { "\(CategoryName.key($0.key))=\($0.value)" }.sorted()
    let moves = try service.budgetMoves().map { "\($0.amountMinor) \($0.from)→\($0.to) \($0.month)" }.sorted()
    let goals = try store.records(kind: "goal").map(\.body).sorted()
    let imports = try store.imports().map { "\($0)" }
    let balances =
      try store.records(kind: "statement-balance").map(\.body).sorted()
      + (try store.rules().map { "\($0)" }) + (try store.accountNames().map { "\($0)=\($1)" }.sorted())
    let check = try store.check()
    #expect(check.problems.isEmpty, "\(check.problems)")
    return
      ([rows, snapshot.pairs.map { "\($0)" }, totals, budgets, kinds, moves, goals, imports, balances]
      .map { $0.joined(separator: "\n") }).joined(separator: "\n--\n")
  }

  /// The first line where two states differ, for a failure's message.
  static func difference(_ a: String, _ b: String) -> String {
    let (left, right) = (
      a.split(separator: "\n", omittingEmptySubsequences: false),
      b.split(separator: "\n", omittingEmptySubsequences: false)
    )
    for index in 0..<max(left.count, right.count) {
      let l = index < left.count ? String(left[index]) : "(none)"
      let r = index < right.count ? String(right[index]) : "(none)"
      if l != r { return "line \(index): now \(l)\n  was \(r)" }
    }
    return "same"
  }

  /// One random change (or none, when the draw finds nothing to change).
  static func change(_ service: ExpenseService, _ random: inout SeededRandom) throws {
    let ids = try service.expenses().compactMap(\.id)
    let category = categories[random.int(0...categories.count - 1)]
    switch random.int(0...15) {
    case 0:
      let day = CivilDate(year: 2026, month: random.int(9...11), day: random.int(1...28))!
      _ = try service.addExpense(
        date: day, amount: "\(random.int(1...300)).\(random.int(10...99))", description: "shop \(random.int(1...9))",
        category: category, account: nil, currency: nil)
    case 1:
      guard let id = ids.randomElement(using: &random) else { return }
      let date = random.int(0...2) == 0 ? CivilDate(year: 2026, month: 10, day: random.int(1...28)) : nil
      _ = try? service.editExpense(id: id, ExpenseEdit(date: date, category: category))
    case 2:
      guard let id = ids.randomElement(using: &random) else { return }
      _ = try service.deleteExpenses(ids: [id], wholeSplits: true)
    case 3: try importFile(service, files[random.int(0...files.count - 1)])
    case 4:
      guard let record = try service.imports().randomElement(using: &random) else { return }
      _ = try service.removeImport(id: record.id)
    case 5:
      // One change a step: a rule added, or the rules applied.
      if random.int(0...1) == 0 {
        _ = try service.addRule(
          pattern: ["GROCER", "shop", "RENT"][random.int(0...2)], category: category, field: .description)
      } else {
        _ = try service.applyRules(dryRun: false)
      }
    case 6:
      _ = try service.setBudget(
        category: category, amount: "\(random.int(100...900))", month: nil, currency: nil,
        rollover: random.int(0...1) == 0 ? .all : nil)
    case 7:
      guard let budget = try service.budgets().randomElement(using: &random) else { return }
      try service.removeBudget(category: budget.category, month: budget.month, currency: budget.amount.currency)
    case 8:
      _ = try? service.moveBudget(
        amountMinor: Int64(random.int(1...5)) * 1_000, from: category, to: categories[0], month: nil, currency: nil)
    case 9: try service.setCategoryKind(category, kind: [.expense, .income, .transfer][random.int(0...2)])
    case 10:
      _ = try? service.addGoal(
        name: "Goal \(random.int(1...9))", targetMinor: 100_000, by: Month(year: 2027, month: 6)!, category: category,
        currency: nil)
    case 11:
      guard let id = try service.budgetMoves().randomElement(using: &random)?.id else { return }
      _ = try service.removeBudgetMove(id: id)
    case 12:
      guard let rule = try service.rules().randomElement(using: &random) else { return }
      try service.removeRule(id: rule.id)
    case 15:
      guard let account = try service.accounts().compactMap(\.name).randomElement(using: &random) else { return }
      _ = try service.renameAccount(account, to: ["Main", "Card", "Savings"][random.int(0...2)])
    case 14:
      guard let pair = try service.transferPairs().randomElement(using: &random) else { return }
      _ = try service.unpairTransfer(id: pair.pair.outId)
    default:
      guard let rule = try service.rules().randomElement(using: &random) else { return }
      _ = try service.putRule(id: rule.id, pattern: "TRANSIT", category: category, field: .description)
    }
  }

  @Test(arguments: StoreUnderTest.allCases)
  func everyChangeUndoneLeavesTheLedgerAsItWas(_ kind: StoreUnderTest) throws {
    for seed in UInt64(1)...UInt64(kind == .postgres ? 3 : 8) {
      let store = try kind.make(in: try ServiceTests.Folder())
      let service = Self.service(store)
      var random = SeededRandom(state: seed)
      var states: [String] = []
      for _ in 0..<18 {
        let before = try Self.state(service)
        let count = try service.history().count
        try Self.change(service, &random)
        if try service.history().count > count { states.append(before) }
      }
      let final = try Self.state(service)
      // Newest first: each undo gives back the ledger as it was before that change.
      var undos: [Int64] = []
      for expected in states.reversed() {
        let result = try service.undo()
        undos.append(result.change.id)
        let now = try Self.state(service)
        #expect(
          now == expected,
          "seed \(seed): undo of #\(result.undone.id) \(result.undone.summary): \(Self.difference(now, expected))")
      }
      #expect(throws: ServiceError.nothingToUndo) { try service.undo() }
      // Undoing the undos, oldest first, makes every change again.
      for id in undos.reversed() { _ = try service.undo(id) }
      #expect(try Self.state(service) == final, "seed \(seed): every change made again")
    }
  }

  @Test(arguments: StoreUnderTest.allCases)
  func anUndoOfRowsChangedSinceIsRefusedWithNothingChanged(_ kind: StoreUnderTest) throws {
    let store = try kind.make(in: try ServiceTests.Folder())
    let service = Self.service(store)
    try Self.importFile(service, "checking-oct.ofx")
    let rows = try service.expenses().compactMap(\.id)
    let first = try #require(rows.first)
    _ = try service.editExpense(id: first, ExpenseEdit(category: "Groceries"))
    let edit = try #require(try service.history().first?.id)
    _ = try service.editExpense(id: first, ExpenseEdit(description: "changed again"))
    let before = try Self.state(service)
    #expect(throws: ServiceError.undoConflict(edit, what: ["expense \(first)"])) { try service.undo(edit) }
    // The import: one of its rows was categorized by hand since.
    let imported = try #require(try service.history().last)
    #expect(imported.action == "import")
    #expect(throws: ServiceError.undoConflict(imported.id, what: ["expense \(first) was edited by hand since"])) {
      try service.undo(imported.id)
    }
    #expect(try Self.state(service) == before, "nothing changed")
    #expect(throws: ServiceError.changeNotFound(999)) { try service.undo(999) }
  }

  @Test(arguments: StoreUnderTest.allCases)
  func aPairedRowDeletedOrUnpairedComesBackPaired(_ kind: StoreUnderTest) throws {
    let store = try kind.make(in: try ServiceTests.Folder())
    let service = Self.service(store)
    try Self.importFile(service, Self.files[3])
    try Self.importFile(service, Self.files[4])
    let pairs = try service.transferPairs().map { [$0.pair.outId, $0.pair.inId] }
    #expect(pairs == [[3, 11], [6, 15]])
    let before = try Self.state(service)
    _ = try service.deleteExpenses(ids: [3])
    #expect(try service.transferPairs().map { [$0.pair.outId, $0.pair.inId] } == [[6, 15]])
    _ = try service.unpairTransfer(id: 6)
    #expect(try service.transferPairs().isEmpty)
    _ = try service.undo()
    _ = try service.undo()
    #expect(try Self.state(service) == before)
    #expect(try service.transferPairs().map { [$0.pair.outId, $0.pair.inId] }.sorted { $0[0] < $1[0] } == pairs)
  }

  @Test(arguments: StoreUnderTest.allCases)
  func aDeletedRowImportedAgainKeepsItsPlace(_ kind: StoreUnderTest) throws {
    let store = try kind.make(in: try ServiceTests.Folder())
    let service = Self.service(store)
    try Self.importFile(service, "checking-oct.ofx")
    let first = try #require(try service.expenses().compactMap(\.id).first)
    _ = try service.deleteExpenses(ids: [first])
    let delete = try #require(try service.history().first?.id)
    // The same file again brings the row back under a new id and the same key.
    try Self.importFile(service, "checking-oct.ofx")
    let holder = try #require(try service.expenses().compactMap(\.id).max())
    #expect(throws: StoreError.keyTaken(id: first, holder: holder)) { try service.undo(delete) }
  }

  @Test(arguments: StoreUnderTest.allCases)
  func theHistoryNamesWhoAndIsBounded(_ kind: StoreUnderTest) throws {
    let store = try kind.make(in: try ServiceTests.Folder())
    let service = Self.service(store).acting(for: "alex", token: "phone")
    _ = try service.setBudget(category: "Groceries", amount: "400", month: nil, currency: nil)
    let change = try #require(try service.history().first)
    #expect(change.by == "alex (token phone)" && change.action == "budget set" && change.undoable)
    #expect(change.summary == "budget set 'Groceries': budget $400.00")
    // The bound: the oldest change goes past the limit.
    for index in 0..<(History.limit + 2) {
      try store.atomically {
        try History.record(
          store, action: "kind", summary: "\(index)", by: "t", at: "t",
          effect: .effect(.kind(category: "X", before: nil, after: .income)))
      }
    }
    let kept = try service.history()
    #expect(kept.count == History.limit && kept.last?.summary == "2")
  }
}

/// Filing a row where it is read (`browse`'s `f`): the rule offered for its payee counts the
/// rows it would file, filing with the rule is one change, and one undo takes back both.
@Suite struct FilingServiceTests {
  @Test(arguments: StoreUnderTest.allCases)
  func aRowFiledWithItsRuleIsOneChange(_ kind: StoreUnderTest) throws {
    let store = try kind.make(in: try ServiceTests.Folder())
    let service = HistoryServiceTests.service(store)
    let day = CivilDate(year: 2026, month: 11, day: 3)!
    var ids: [Int64] = []
    for (text, category) in [
      ("UBER *TRIP 8812", nil), ("UBER *TRIP 1203", nil), ("UBER EATS 77", "Dining out"), ("GREENLEAF 1", nil),
    ] {
      let added = try service.addExpense(
        date: day, amount: "12", description: text, category: category, account: nil, currency: nil)
      ids.append(try #require(added.id))
    }
    let before = try HistoryServiceTests.state(service)
    let offer = try #require(try service.ruleOffer(forExpense: ids[0], category: "transport"))
    // "UBER EATS" was filed by hand: a rule never changes it. So one more row.
    #expect(offer.pattern == "UBER" && offer.moreRows == 1 && offer.category == "transport")
    let filed = try service.fileExpense(id: ids[0], category: "Transport", rulePattern: offer.pattern)
    #expect(filed.moreRows == 1 && filed.rule?.pattern == "UBER")
    #expect(try service.expense(id: ids[1]).category == "Transport")
    #expect(try service.expense(id: ids[2]).category == "Dining out")
    let change = try #require(try service.history().first)
    #expect(change.action == "file" && change.summary.contains("rule"))
    _ = try service.undo()
    #expect(try HistoryServiceTests.state(service) == before, "the row, the rule and the rule's row as they were")
    #expect(try service.rules().isEmpty)
    #expect(RuleOffer.pattern(from: "GREENLEAF GROCERS 0042") == "GREENLEAF GROCERS")
    #expect(RuleOffer.pattern(from: "4417 POS") == nil)
  }
}
