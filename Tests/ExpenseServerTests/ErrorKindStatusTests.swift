import ExpenseCore
import ExpenseImport
import ExpenseRender
import ExpenseService
import HTTPTypes
import Hummingbird
import Testing

@testable import ExpenseSQLite
@testable import ExpenseServer
@testable import ExpenseStore

/// Every kind of failure has its HTTP status, 500 only for what no request can fix, and every
/// module's errors answer through it the statuses they had when each mapped its own.
@Suite struct ErrorKindStatusTests {
  typealias Problems = ProblemMiddleware<BasicRequestContext>

  @Test func everyKindHasAStatusAnd500IsOnlyForTheServersOwnFailures() {
    let serverSide: Set<ErrorKind> = [.internal, .damagedDatabase, .noDatabase, .databaseIO]
    for kind in ErrorKind.allCases {
      let status = Problems.status(for: kind)
      #expect((status == .internalServerError) == serverSide.contains(kind), "\(kind): \(status)")
      #expect(status.code >= 400, "\(kind)")
    }
  }

  @Test func storeErrorsKeepTheirStatuses() {
    let cases: [(StoreError, Int)] = [
      (.expenseNotFound([9]), 404), (.importNotFound(9), 404), (.ruleNotFound(9), 404),
      (.budgetNotFound(category: "Food", month: nil), 404), (.tokenNotFound("t"), 404), (.profileNotFound("p"), 404),
      (.invalidCursor("c"), 400), (.categoryInUse("Food"), 409), (.tokenExists("t"), 409),
      (.totalTooLarge(path: "p", detail: "d"), 422), (.busy(path: "p"), 503), (.noConnection(path: "p"), 503),
      (.poolExhausted(path: "p", size: 1), 503),
      (.readOnly(path: "p", action: "a"), 503),
      (.diskFull(path: "p"), 503), (.newerSchema(path: "p", found: 9, supported: 4), 500),
      (.cannotOpen(path: "p", reason: "r"), 500), (.notADatabase(path: "p"), 500),
      (.notSQLite(path: "p", detail: "d"), 500), (.noDatabase(path: "p"), 500), (.corrupt(path: "p", detail: "d"), 500),
      (.io(path: "p", detail: "d"), 500), (.unreadable(path: "p", detail: "d"), 500), (.sqlite("s"), 500),
    ]
    for (error, status) in cases {
      let problem = Problems.problem(for: error)
      #expect(Int(problem.status.code) == status, "\(error)")
      #expect(problem.detail == error.description, "\(error): the message is the detail")
      #expect((problem.headers[.retryAfter] != nil) == (status == 503), "\(error)")
    }
    #expect(Problems.problem(for: StoreError.invalidCursor("c")).field == "cursor")
  }

  @Test func otherModulesErrorsKeepTheirStatuses() {
    let issue = ImportIssue(
      kind: .badDate, file: "f.csv", line: 2, column: 1, columnName: "Date", rawValue: "x", message: "m", hint: "h")
    let cases: [(any Error, Int)] = [
      (CoreError.invalidMonth("2026-13"), 422), (CoreError.unknownCurrency("XYZ"), 422),
      (ImportError.row(issue), 422), (issue, 422), (ImportError.invalidOption(option: "--x", message: "m"), 422),
      (ImportError.undetectable(file: "f", message: "m", hint: "h"), 422),
      (TotalOverflow(line: 2, month: "2026-10", currency: "USD", category: nil, amount: nil), 422),
      (ServiceError.widthTooSmall(3), 400), (ServiceError.outputExists(path: "p"), 409),
      (ServiceError.cannotWrite(path: "p", reason: "r"), 503),
      // These were a bare 500 before they had a kind.
      (RenderError.notCollapsible(.summary), 400), (BackupError.notOurs(path: "p"), 422),
    ]
    for (error, status) in cases {
      #expect(Int(Problems.problem(for: error).status.code) == status, "\(error)")
    }
  }
}
