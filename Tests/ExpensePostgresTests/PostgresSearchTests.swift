import ExpenseCore
import ExpenseStore
import Foundation
import TestSupport
import Testing

@testable import ExpensePostgres

/// A search over PostgreSQL reads exactly the rows a full read keeps once every row is tested,
/// in the same order, whether it reads them by one plain query or, past its limit, through the
/// cursor with the condition.
@Suite(.enabled(if: TestTier.postgres, Comment(rawValue: TestTier.reason)))
struct PostgresSearchTests {
  @Test func aSearchKeepsWhatAFullReadKeeps() throws {
    let store = try PostgresStore(location: try RowLevelSecurityTests.ownedDatabase())
    let texts = ["Café Müller", "CAFE MULLER 2", "Straße Markt", "Bakery", "Ｆｕｌｌ Ｗｉｄｔｈ", "zebra cafe", "Noodle 麺"]
    _ = try store.importRows(sourceFile: "bank.csv", dryRun: false, explainLimit: 0, importedAt: nil) { writer in
      var batcher = ImportBatcher()
      for index in 0..<120 {
        let row = ImportedRow(
          line: index + 2, date: CivilDate(year: 2026, month: 1 + index % 12, day: 1 + index % 28)!,
          amount: Money(minor: Int64(-100 - index), currency: .usd), description: texts[index % texts.count],
          category: index % 5 == 0 ? "Cafés" : nil, account: index % 4 == 0 ? "Café card" : nil,
          fingerprintHash: UInt64(index + 1) &* 0x9E37_79B9_7F4A_7C15)
        if let batch = try batcher.add(row) { try writer.write(batch) }
      }
      if let batch = try batcher.finish() { try writer.write(batch) }
    }
    for term in ["cafe", "strasse", "full", "zzzz", "bakery", "麺"] {
      let filter = ExpenseFilter(text: term)
      let test = TextTest(
        name: "contains:" + term, ascii: filter.asciiNeedleText.map { .lowercasedContains($0) } ?? .never
      ) {
        filter.contains(text: $0)
      }
      func keeps(_ row: ExpenseRow) -> Bool {
        [row.description, row.category, row.account].contains { bytes in
          bytes.map { test.test(String(decoding: $0, as: UTF8.self)) } ?? false
        }
      }
      func read(_ texts: TextTest?, rowLimit: Int) throws -> [Int64] {
        try store.consistently {
          try store.read { connection in
            var query = ExpenseQuery(order: .newestFirst)
            query.texts = texts
            var ids: [Int64] = []
            let snapshot = PostgresStore.Snapshot(store: store, connection: connection, rowLimit: rowLimit)
            try snapshot.forEachExpense(query) { if keeps($0) { ids.append($0.id ?? -1) } }
            return ids
          }
        }
      }
      let all = try read(nil, rowLimit: 0)
      #expect(all.isEmpty == (term == "zzzz"), "\(term): \(all.count) rows")
      #expect(try read(test, rowLimit: PostgresStore.Snapshot.searchRowLimit) == all, "\(term), one query")
      #expect(try read(test, rowLimit: 1) == all, "\(term), through the cursor")
    }
  }
}
