import ExpenseCore
import Testing

@testable import ExpenseStore

/// A batch is the rows it was given, each once, in key order (of two rows with one key, the
/// file's first first), and `fileOrder` finds each row's place from its place in the file:
/// against a stable sort of the same rows, on batches of many shapes.
@Suite struct ImportBatcherTests {
  @Test func aBatchIsItsRowsInKeyOrderWithTheirFileOrder() throws {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 11
    }
    for count in [1, 2, 3, 17, 1_023, 1_024, 1_500, 4_000] {
      for shape in 0..<3 {
        var rows: [ImportedRow] = []
        for line in 0..<count {
          // One day, several days in order, or days in no order; hashes repeat now and then.
          let day = shape == 0 ? 20_000 : shape == 1 ? 20_000 + line / 300 : 20_000 + Int(next() % 40)
          let hash = next() % (shape == 2 ? 64 : 1 << 40)
          rows.append(
            ImportedRow(
              line: line + 2, date: CivilDate(daysSinceEpoch: day),
              amount: Money(minor: -Int64(line + 1), currency: .usd),
              description: "row \(line) \(String(repeating: "x", count: line % 30))",
              category: line % 3 == 0 ? nil : "C\(line % 5)",
              account: nil, fingerprintHash: hash))
        }
        var batcher = ImportBatcher(names: nil)
        var batches: [PreparedBatch] = []
        for row in rows { if let batch = try batcher.add(row) { batches.append(batch) } }
        if let batch = try batcher.finish() { batches.append(batch) }
        var start = 0
        for batch in batches {
          let given = Array(rows[start..<start + batch.count])
          let expected = given.enumerated().sorted { a, b in
            a.element.key != b.element.key ? a.element.key < b.element.key : a.offset < b.offset
          }.map(\.element)
          #expect(batch.rows == expected, "\(count) rows, shape \(shape)")
          for (position, row) in given.enumerated() {
            #expect(batch.rows[Int(batch.fileOrder[position])] == row)
          }
          start += batch.count
        }
        #expect(start == count)
      }
    }
  }
}
