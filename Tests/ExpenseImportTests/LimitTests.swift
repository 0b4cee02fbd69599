import ExpenseCore
import Foundation
import Testing

@testable import ExpenseImport

/// Field and record length limits: a too-long field is a bad row naming file:line:column, a
/// too-long record is read to its end without being kept, and reading goes on after both.
@Suite struct LimitTests {
  @Test func aRecordPastTheLimitIsDroppedAndReadingGoesOn() throws {
    // A quoted field with delimiters and line breaks, far longer than the limit, between two
    // good records; the buffer is tiny so the record crosses many refills.
    let long = "\"" + String(repeating: "ab,c\nd", count: 400) + "\""
    let text = "a,b\n1," + long + ",x\n2,after\n"
    let reader = CSVReader(source: MemorySource(Array(text.utf8)), bufferSize: 16)
    reader.maxRecordBytes = 100
    var seen: [(Int, [String])] = []
    var issues: [ImportIssue] = []
    while true {
      do {
        guard try reader.next() else { break }
        seen.append((reader.line, reader.strings))
      } catch {
        issues.append(try #require(error.issue))
      }
    }
    #expect(seen.map(\.1) == [["a", "b"], ["2", "after"]])
    #expect(seen.last?.0 == 403, "line numbers count the dropped record's line breaks")
    #expect(issues.count == 1)
    #expect(issues.first?.kind == .recordTooLong)
    #expect(issues.first?.line == 2)
    #expect(issues.first?.column == 2)
    #expect(issues.first?.rawValue.hasPrefix("1,\"ab,c") == true)
  }

  @Test func anUnclosedQuoteStillNamesItsLine() {
    let text = "a,b\n1,\"" + String(repeating: "x", count: 5000)
    let reader = CSVReader(source: MemorySource(Array(text.utf8)), bufferSize: 64)
    reader.maxRecordBytes = 1000
    #expect(throws: (any Error).self) {
      while try reader.next() {}
    }
  }

  func csv(description: String, rows: Int = 1) -> String {
    var text = "Date,Description,Amount\n2026-10-01,Before,-1.00\n"
    for i in 0..<rows { text += "2026-10-0\(2 + i),\(description),-2.00\n" }
    return text + "2026-10-09,After,-3.00\n"
  }

  @Test func aFieldAtTheLimitIsImportedOneByteMoreIsABadRow() throws {
    let atLimit = String(repeating: "d", count: ImportLimits.maxFieldBytes)
    let fine = temporaryFile(csv(description: atLimit))
    let imported = try importAll(fine)
    #expect(imported.rows.count == 3)
    #expect(imported.rows.contains { $0.description == atLimit })

    let over = temporaryFile(csv(description: atLimit + "é"))
    #expect {
      try importAll(over)
    } throws: { error in
      guard let issue = (error as? ImportError)?.issue else { return false }
      return issue.kind == .fieldTooLong && issue.line == 3 && issue.column == 2
        && issue.columnName == "Description" && issue.rawValue.count < 80
        && issue.message.contains("\(ImportLimits.maxFieldBytes + 2) bytes") && issue.hint.contains("--skip-invalid")
    }
    let skipped = try importAll(over, skipInvalid: true)
    #expect(skipped.rows.map(\.description) == ["Before", "After"])
    #expect(skipped.rejected.map(\.kind) == [.fieldTooLong])
    #expect(skipped.rejected.first?.record?.count ?? 0 > ImportLimits.maxFieldBytes, "the rejects keep the row")
  }

  @Test func aHugeFieldIsReadWithBoundedMemoryAndSkipped() throws {
    // 3 MiB in one unquoted field: more than the record limit, so the reader drops it as it goes.
    let huge = String(repeating: "z", count: 3 << 20)
    let path = temporaryFile(csv(description: huge))
    let skipped = try importAll(path, skipInvalid: true)
    #expect(skipped.rows.map(\.description) == ["Before", "After"])
    #expect(skipped.rejected.map(\.kind) == [.recordTooLong])
    #expect(skipped.rejected.first?.line == 3)
    #expect(throws: ImportError.self) { try importAll(path) }
  }
}
