import ExpenseCore
import ExpenseService
import ExpenseStore
import Foundation
import ServiceTestSupport
import Testing

/// A report is one state: while another connection commits imports as fast as it can, every
/// JSON report read beside it (totals, counts and the month's rows, several reads) counts
/// exactly the rows it lists. Before the SQLite store read them in one transaction, a report
/// could count N rows and list N + an import's.
@Suite struct ConsistentReportTests {
  @Test func everyReportCountsTheRowsItListsWhileImportsCommit() throws {
    let folder = try ServiceTests.Folder()
    let writer = try UseCaseTests.service(folder)
    _ = try writer.importFile(ImportRequest(path: try folder.file("bank.csv", ServiceTests.bank)))
    let reader = try ExpenseService.open(path: folder.database, access: .read, clock: UseCaseTests.clock)
    let imports = 60
    var files: [String] = []
    for index in 0..<imports {
      let rows = (1...20).map { "2026-10-\(String(format: "%02d", $0 % 19 + 1)),-1.\($0),Import \(index) row \($0)" }
      files.append(
        try folder.file("more-\(index).csv", "Date,Amount,Description\n" + rows.joined(separator: "\n") + "\n"))
    }
    let done = Locked(false)
    let failure = Locked<String?>(nil)
    let queued = files
    let thread = Thread {
      for file in queued {
        do { _ = try writer.importFile(ImportRequest(path: file)) } catch {
          failure.set("import: \(error)")
          break
        }
      }
      done.set(true)
    }
    thread.start()
    var reports = 0
    var mismatches: [String] = []
    while !done.get() || reports == 0 {
      let json = try reader.renderReport(ReportRequest(today: UseCaseTests.today, month: UseCaseTests.october))
      let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
      let count = object["expenseCount"] as? Int ?? -1
      let rows = (object["expenses"] as? [Any])?.count ?? -2
      if count != rows { mismatches.append("expenseCount \(count), rows \(rows)") }
      reports += 1
    }
    #expect(failure.get() == nil, "\(failure.get() ?? "")")
    #expect(mismatches.isEmpty, "\(mismatches.count) of \(reports) reports: \(mismatches.prefix(3))")
    let last = try reader.renderReport(ReportRequest(today: UseCaseTests.today, month: UseCaseTests.october))
    let final = try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any]
    #expect(final?["expenseCount"] as? Int == 4 + imports * 20, "every import is in")
  }
}

/// A value shared by the test's two threads.
final class Locked<Value>: @unchecked Sendable {
  private var value: Value
  private let lock = NSLock()
  init(_ value: Value) { self.value = value }
  func get() -> Value { lock.withLock { value } }
  func set(_ new: Value) { lock.withLock { value = new } }
}
