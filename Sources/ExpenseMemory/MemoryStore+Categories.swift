import ExpenseCore
import ExpenseStore

/// Budgets, categories and their kinds, and rules.
extension MemoryStore {
  public func budgets() throws -> [Budget] {
    try read { state in state.budgets.sorted(by: MemoryStore.budgetOrder) }
  }

  /// The other stores' order: category and currency byte by byte, the default before months.
  static func budgetOrder(_ a: Budget, _ b: Budget) -> Bool {
    if a.category != b.category { return MemoryLedger.byBytes(a.category, b.category) }
    if a.amount.currency != b.amount.currency {
      return MemoryLedger.byBytes(a.amount.currency.code, b.amount.currency.code)
    }
    switch (a.month, b.month) {
    case (nil, .some): return true
    case (.some(let x), .some(let y)): return x < y
    default: return false
    }
  }

  public func saveBudget(_ budget: Budget) throws {
    try budget.checkSavable()
    try write { state in
      let decision = BudgetSpelling.decide(budget.category, known: state.categoryNames) { known in
        state.budgets.contains { $0.category == known }
      }
      if case .rename(let known, let tidy) = decision { state.rename(category: known, to: tidy) }
      var saved = budget
      saved.category = decision.spelling
      state.budgets.removeAll {
        $0.category == saved.category && $0.amount.currency == saved.amount.currency && $0.month == saved.month
      }
      state.budgets.append(saved)
    }
  }

  public func removeBudget(category: String, month: Month?, currency: Currency?) throws {
    try write { state in
      let stored = state.categoryNames.known(category) ?? category
      let before = state.budgets.count
      state.budgets.removeAll { budget in
        budget.category == stored && budget.month == month && (currency.map { budget.amount.currency == $0 } ?? true)
      }
      if state.budgets.count == before { throw StoreError.budgetNotFound(category: category, month: month) }
    }
  }

  public func categoryKinds() throws -> [String: CategoryKind] { try read { $0.kinds } }

  public func categories() throws -> [CategorySummary] {
    try read { state in
      var counts: [String: Int] = [:]
      var uncategorized = 0
      for row in state.rows.values {
        if let category = row.category { counts[category, default: 0] += 1 } else { uncategorized += 1 }
      }
      let names = Set(counts.keys).union(state.budgets.map(\.category)).union(state.kinds.keys)
        .union(state.rules.map(\.category))
      var result = names.sorted(by: MemoryLedger.byBytes).map { name in
        CategorySummary(
          name: name,
          kind: state.kinds[name] ?? (CategoryName.key(name) == CategoryName.key(transfersName) ? .transfer : .expense),
          expenseCount: counts[name] ?? 0)
      }
      if uncategorized > 0 {
        result.append(CategorySummary(name: uncategorizedName, kind: .expense, expenseCount: uncategorized))
      }
      return result
    }
  }

  public func categoryNames() throws -> CategoryNames { try read { $0.categoryNames } }

  public func setCategoryKind(_ name: String, kind: CategoryKind) throws {
    try write { state in
      var names = state.categoryNames
      state.kinds[names.canonical(name) ?? name] = kind
    }
  }

  public func removeCategoryKind(_ name: String) throws {
    try write { state in state.kinds[name] = nil }
  }

  public func forgetCategory(_ name: String) throws -> Bool {
    try write { state in
      guard let stored = state.categoryNames.known(name) else { return false }
      if state.rows.values.contains(where: { $0.category == stored })
        || state.budgets.contains(where: { $0.category == stored })
        || state.rules.contains(where: { $0.category == stored })
      {
        throw StoreError.categoryInUse(stored)
      }
      return state.kinds.removeValue(forKey: stored) != nil
    }
  }

  public func rules() throws -> [CategoryRule] { try read { $0.rules.sorted { $0.id < $1.id } } }

  public func addRule(pattern: String, category: String, field: CategoryRule.Field) throws -> CategoryRule {
    try write { state in
      var names = state.categoryNames
      let rule = CategoryRule(
        id: state.nextRuleID, pattern: pattern, category: names.canonical(category) ?? category, field: field)
      state.nextRuleID += 1
      state.rules.append(rule)
      return rule
    }
  }

  public func putRule(id: Int64, pattern: String, category: String, field: CategoryRule.Field) throws -> CategoryRule {
    try write { state in
      var names = state.categoryNames
      let rule = CategoryRule(id: id, pattern: pattern, category: names.canonical(category) ?? category, field: field)
      state.rules.removeAll { $0.id == id }
      state.rules.append(rule)
      // An id given by the caller is never handed out again by `addRule`.
      if id < Int64.max { state.nextRuleID = max(state.nextRuleID, id + 1) }
      return rule
    }
  }

  public func removeRule(id: Int64) throws {
    try write { state in
      guard state.rules.contains(where: { $0.id == id }) else { throw StoreError.ruleNotFound(id) }
      state.rules.removeAll { $0.id == id }
    }
  }

  public func recategorize(
    from sources: [CategorySource], as source: CategorySource, dryRun: Bool, _ decide: (RecategorizeRow) -> String?
  ) throws {
    try write(keep: !dryRun) { state in
      let codes = Set(sources.map(\.rawValue))
      for key in state.rows.keys.sorted() {
        guard var row = state.rows[key], codes.contains(row.categorySource),
          let category = decide(
            RecategorizeRow(
              description: row.description, account: row.account, category: row.category, id: row.id,
              source: CategorySource(rawValue: row.categorySource) ?? .none))
        else { continue }
        row.category = category
        row.categorySource = source.rawValue
        state.rows[key] = row
      }
    }
  }
}

extension MemoryLedger {
  /// Gives category `known` the spelling `tidy` everywhere it is stored (a budget's respelling,
  /// `BudgetSpelling.rename`).
  mutating func rename(category known: String, to tidy: String) {
    for (key, row) in rows where row.category == known { rows[key]?.category = tidy }
    for index in rules.indices where rules[index].category == known { rules[index].category = tidy }
    if let kind = kinds.removeValue(forKey: known) { kinds[tidy] = kind }
    for index in budgets.indices where budgets[index].category == known { budgets[index].category = tidy }
  }
}
