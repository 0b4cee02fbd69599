import ExpenseCore
import Foundation
import Testing

@testable import ExpenseSQLite
@testable import ExpenseServer
@testable import ExpenseStore

/// Months and dates outside 1900-01-01 through 2999-12-31 are a 400 naming the field (never a
/// trap or a 500), and a database an older version filled with such values still answers.
@Suite struct SupportedDatesTests {
  @Test func monthsAndDatesOutsideTheRangeAre400() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      try await client.call(.post, "/v1/imports", csv: ServerHarness.csv(rows: 2))
      for month in ["0001-01", "0001-06", "0999-05", "1899-12", "3000-01"] {
        let report = try await client.call(.get, "/v1/reports/\(month)", auth: .read)
        #expect(report.status == 400, "\(month): \(report.text)")
        #expect(report.json["field"]?.string == "month")
        #expect(report.text.contains("1900-01 through 2999-12"), "\(report.text)")
        let page = try await client.page(.get, "/reports/\(month)", cookie: harness.writeToken)
        #expect(page.status == 400, "\(month)")
      }
      let today = try await client.call(.get, "/v1/reports/2026-10?today=0001-01-01", auth: .read)
      #expect(today.status == 400)
      #expect(today.json["field"]?.string == "today")
      let budget = try await client.call(
        .put, "/v1/budgets/Groceries", json: #"{"amountMinor":1000,"month":"0999-05"}"#)
      #expect(budget.status == 400, "\(budget.text)")
      #expect(budget.json["field"]?.string == "month")
      let id = try #require(try harness.database.expenses(month: nil, category: nil, limit: nil).first?.id)
      let patch = try await client.call(.patch, "/v1/expenses/\(id)", json: #"{"date":"0001-01-01"}"#)
      #expect(patch.status == 400, "\(patch.text)")
      #expect(patch.json["field"]?.string == "date")
      #expect(try harness.database.expense(id: id)?.date.isSupported == true, "nothing was committed")
      #expect(try harness.database.budgets().allSatisfy { $0.month == nil })
      let first = try await client.call(.get, "/v1/reports/1900-01?today=1900-01-10", auth: .read)
      #expect(first.status == 200, "the first supported month reports (it looks at the months before)")
    }
  }

  @Test func oldOutOfRangeValuesDoNotBreakReports() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      try await client.call(.post, "/v1/imports", csv: ServerHarness.csv(rows: 2))
      try await client.call(.put, "/v1/budgets/Groceries", json: #"{"amountMinor":40000}"#)
      // What an older build stored for `budget set --month 0999-05` and `add 0001-01-01`.
      let wrapped = ExpenseKey(date: try #require(CivilDate(year: 1, month: 1, day: 1)), fingerprintHash: 5).rawValue
      try AppDatabase(path: harness.path).write { db in
        try db.execute(
          sql: """
            INSERT INTO budget (category, currency, month, amountMinor) VALUES ('Groceries', 'USD', '999-05', 1);
            INSERT INTO expense (key, id, date, amountMinor, currency, description, category)
              VALUES (\(wrapped), 1000, '0001-01-01', -100, 'USD', 'X', 'Groceries');
            INSERT INTO monthTotal (month, currency, category, outflow, inflow, count, inflowCount)
              VALUES ('1-01', 'USD', 'Groceries', 100, 0, 1, 0);
            """)
      }
      for path in ["/v1/reports/2026-10", "/v1/reports/1900-01?today=1900-01-10", "/v1/budgets", "/v1/expenses"] {
        let reply = try await client.call(.get, path, auth: .read)
        #expect(reply.status == 200, "\(path): \(reply.text)")
      }
      let page = try await client.page(.get, "/reports/2026-10", cookie: harness.readToken)
      #expect(page.status == 200)
    }
  }
}
