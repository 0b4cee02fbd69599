import ExpenseCore
import ExpenseService
import ExpenseStore
import Foundation
import Testing

/// What a newcomer is told after `rules add` and around categories: how many stored rows the
/// rules would re-sort, a salary rule into an expense category, and removing a category that
/// nothing uses any more.
@Suite struct RuleAdviceTests {
  @Test func aNewRuleSaysWhatApplyWouldChangeAndWhenItsCategoryLooksLikeIncome() throws {
    let folder = try ServiceTests.Folder()
    let service = try UseCaseTests.imported(folder)  // Rent, Coffee, Salary (+2500, no category), Lunch
    let salary = try service.addRule(pattern: "salary", category: "Pay", field: .description)
    let advice = try service.ruleAdvice(for: salary)
    #expect(advice == RuleAdvice(wouldChange: 1, matching: 1, moneyIn: 1, looksLikeIncome: true))
    try service.setCategoryKind("Pay", kind: .income)
    #expect(try service.ruleAdvice(for: salary).looksLikeIncome == false, "an income category is fine")
    _ = try service.applyRules(dryRun: false)
    let coffee = try service.addRule(pattern: "coffee", category: "Cafe", field: .description)
    // Coffee has the bank's category (Dining): apply leaves it, so nothing would change.
    #expect(
      try service.ruleAdvice(for: coffee) == RuleAdvice(wouldChange: 0, matching: 1, moneyIn: 0, looksLikeIncome: false)
    )
  }

  @Test func aCategoryIsRemovedOnlyWhenNothingUsesIt() throws {
    let folder = try ServiceTests.Folder()
    let service = try UseCaseTests.imported(folder)
    #expect(throws: StoreError.categoryNotFound("Nope")) { try service.removeCategory("Nope") }
    #expect(throws: StoreError.categoryInUse("Dining")) { try service.removeCategory("dining") }
    try service.setCategoryKind("Gifts", kind: .expense)
    #expect(try service.categoryExists("gifts"))
    try service.removeCategory("Gifts")
    #expect(try !service.categoryExists("Gifts"))
  }
}
