import Dispatch
import ExpenseService
import Foundation
import GRDBSQLite
import Synchronization
import Testing

@testable import ExpenseServer

/// Reads never wait for a writer: while the server's writer is busy (as during a large import)
/// and another process holds the database's write lock with rows not yet committed, reports
/// and lists are answered from the last commit.
@Suite struct ConcurrencyTests {
  @Test func readsAnswerWhileTheWriterIsBusyAndAnotherProcessWrites() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      try await client.call(.put, "/v1/budgets/Groceries", json: #"{"amountMinor":100}"#)
      try await client.call(.post, "/v1/imports?file=a.csv", csv: ServerHarness.csv(rows: 20))
      let before = try await client.call(.get, "/v1/expenses?limit=500", auth: .read).text

      // Another process in the middle of an import: its write transaction holds the lock and
      // rows not yet committed.
      var handle: OpaquePointer?
      guard sqlite3_open(harness.path, &handle) == SQLITE_OK, let handle else { throw CancellationError() }
      defer { sqlite3_close(handle) }
      #expect(sqlite3_exec(handle, "BEGIN IMMEDIATE; DELETE FROM budget;", nil, nil, nil) == SQLITE_OK)

      // The server's writer busy with a job that ends only when told (or, should a read wait
      // for it, after two minutes: then the oracle below fails instead of the test hanging).
      let gate = DispatchSemaphore(value: 0)
      let started = Flag()
      let timedOut = Flag()
      let backend = harness.backend
      let busy = Task {
        try await backend.write { _ in
          started.set()
          gate.wait()
        }
      }
      while !started.isSet { try await Task.sleep(for: .milliseconds(5)) }
      let watchdog = Task {
        try await Task.sleep(for: .seconds(120))
        timedOut.set()
        gate.signal()
      }

      for uri in ["/v1/reports/2026-10", "/v1/sections", "/v1/expenses?limit=5", "/v1/budgets", "/v1/changes"] {
        let reply = try await client.call(.get, uri, auth: .read)
        #expect(reply.status == 200, "\(uri)")
        if uri == "/v1/budgets" { #expect(reply.text.contains("Groceries"), "the last commit, not the open write") }
      }
      #expect(try await client.call(.get, "/v1/expenses?limit=500", auth: .read).text == before)
      // The oracle: every read had its answer while the writer was still held.
      #expect(!timedOut.isSet, "a read waited for the writer")
      watchdog.cancel()
      gate.signal()
      try await busy.value
      #expect(sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) == SQLITE_OK)
    }
  }
}

/// A flag one task sets and another reads.
final class Flag: Sendable {
  private let value = Atomic<Bool>(false)
  func set() { value.store(true, ordering: .sequentiallyConsistent) }
  var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
}
