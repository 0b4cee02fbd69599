import ExpenseCore
import ExpenseStore
import Foundation
import TestSupport
import Testing

@testable import ExpensePostgres

/// A server with no connection left to give (its `max_connections`, a role's or a database's
/// limit) is a temporary condition, not a broken database: the store says so
/// (`noConnection`, of the busy kind: the CLI exits 75, try again later; the API answers 503).
@Suite struct ConnectionLimitTests {
  @Test func aServerWithNoConnectionLeftIsBusy() throws {
    let location = try RowLevelSecurityTests.ownedDatabase(connectionLimit: 1)
    let first = try PostgresStore(location: location)
    #expect(throws: StoreError.noConnection(path: location.redacted)) { _ = try PostgresStore(location: location) }
    #expect(StoreError.noConnection(path: location.redacted).kind == .busy)
    withExtendedLifetime(first) {}
  }
}
