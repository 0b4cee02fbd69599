import ExpenseCore
import ExpenseService
import ExpenseStore
import Foundation
import ServiceTestSupport
import Testing

/// `setBudget` with minor units (what `PUT /v1/budgets/{category}` calls): a budget without a
/// currency is in the database's default, read in the write's own call.
@Suite struct BudgetDefaultCurrencyTests {
  @Test(arguments: StoreUnderTest.allCases)
  func aBudgetWithoutACurrencyTakesTheDefault(_ kind: StoreUnderTest) throws {
    let service = ExpenseService(store: try kind.make(in: try ServiceTests.Folder()))
    _ = try service.setDefaultCurrency("EUR")
    let stored = try service.setBudget(category: "Groceries", amountMinor: 40_000, month: nil, currency: nil)
    #expect(stored.amount == Money(minor: 40_000, currency: .eur))
    let yen = try service.setBudget(category: "groceries", amountMinor: 5_000, month: nil, currency: .jpy)
    #expect(yen.amount.currency == .jpy && yen.category == "Groceries", "the known spelling")
    #expect(try service.budgets().count == 2)
  }
}
