import ExpenseCore
import Foundation
import TestSupport
import Testing

@testable import ExpenseImport

/// Random statements written in OFX 1.x (SGML), QIF and MT940 by writers of the test target
/// (`SGMLStatementWriter`, `QIFStatementWriter`, `MT940StatementWriter`: the awkward but legal
/// forms each format allows are listed there), read back by the reader in random chunks: every
/// entry's line, date, amount in minor units, description, category, account, bank id,
/// transfer mark and split group is what was written, and nothing else is read. The writers
/// know the formats from their definitions, not from the readers' code. `FUZZ_COUNT` and
/// `FUZZ_SEED` draw more or other statements; a failure names the seed of its file.
@Suite struct StatementRoundTripTests {
  /// What an entry says, without what a reader adds of its own (an account's masked name, the
  /// description an earlier version gave).
  struct Compared: Equatable, CustomStringConvertible {
    var line: Int
    var date: CivilDate
    var amount: Money
    var text: String
    var category: String?
    var account: String?
    var transactionID: String?
    var isTransfer: Bool
    var splitGroup: Int?

    init(_ e: StatementEntry) {
      line = e.line
      date = e.date
      amount = e.amount
      text = e.description
      category = e.category
      account = e.account
      transactionID = e.transactionID
      isTransfer = e.isTransfer
      splitGroup = e.splitGroup
    }

    var description: String {
      "line \(line) \(date) \(amount) '\(text)' \(category ?? "-") \(account ?? "-") \(transactionID ?? "-")"
        + "\(isTransfer ? " transfer" : "")\(splitGroup.map { " split \($0)" } ?? "")"
    }
  }

  /// Reads `text` with `R` and records every difference from `expected`.
  static func check<R: StatementReader>(
    _ type: R.Type, _ text: String, options: ImportOptions = ImportOptions(), expected: [StatementEntry],
    seed: UInt64, chunk: Int
  ) {
    let result = StatementTesting.run(type, Array(text.utf8), options: options, chunk: chunk)
    let context = "seed \(seed), chunks of \(chunk)\n\(text.prefix(4000))"
    #expect(result.error == nil, "\(result.error.map { "\($0)" } ?? ""): \(context)")
    let read = StatementTesting.entries(result.events).map(Compared.init)
    let written = expected.map(Compared.init)
    #expect(read.count == written.count, "\(read.count) entries read, \(written.count) written: \(context)")
    for (got, want) in zip(read, written) where got != want {
      Issue.record("read  \(got)\nwrote \(want)\n\(context)")
      return
    }
  }

  /// `count` seeds from `FUZZ_SEED`, one per file.
  static func seeds(_ salt: UInt64, count: Int = fuzzCount) -> [UInt64] {
    var random = SeededRandom(state: fuzzSeed ^ salt)
    return (0..<count).map { _ in random.next() }
  }

  @Test func ofxSGMLStatementsReadBackExactly() {
    var entries = 0
    for seed in Self.seeds(0x53474D4C) {
      let (text, expected) = SGMLStatementWriter.make(seed: seed)
      entries += expected.count
      Self.check(OFXReader.self, text, expected: expected, seed: seed, chunk: Int(seed % 4096) + 1)
    }
    #expect(entries > fuzzCount * 3, "\(entries) entries")
    print("OFX 1.x round trips: \(fuzzCount) files (seed \(fuzzSeed)), \(entries) entries")
  }

  @Test func qifStatementsReadBackExactly() {
    var entries = 0
    var splits = 0
    for seed in Self.seeds(0x514946) {
      let (text, options, expected) = QIFStatementWriter.make(seed: seed)
      entries += expected.count
      splits += expected.filter { $0.splitGroup != nil }.count
      Self.check(QIFReader.self, text, options: options, expected: expected, seed: seed, chunk: Int(seed % 4096) + 1)
    }
    #expect(entries > fuzzCount * 3 && splits > fuzzCount / 2, "\(entries) entries, \(splits) split parts")
    print("QIF round trips: \(fuzzCount) files (seed \(fuzzSeed)), \(entries) entries, \(splits) split parts")
  }

  @Test func mt940StatementsReadBackExactly() {
    var entries = 0
    for seed in Self.seeds(0x4D54393430) {
      let (text, expected) = MT940StatementWriter.make(seed: seed)
      entries += expected.count
      Self.check(MT940Reader.self, text, expected: expected, seed: seed, chunk: Int(seed % 4096) + 1)
    }
    #expect(entries > fuzzCount * 3, "\(entries) entries")
    print("MT940 round trips: \(fuzzCount) files (seed \(fuzzSeed)), \(entries) entries")
  }
}
