import ExpenseCore
import Foundation
import PropertyBased
import TestSupport
import Testing

@testable import ExpenseImport

@Suite struct PropertyTests {
  /// Bytes that matter to a CSV parser, plus invalid UTF-8 and NUL.
  static let alphabet: [UInt8] = [
    0x22, 0x2C, 0x3B, 0x09, 0x7C, 0x0D, 0x0A, 0x00, 0xFF, 0xC3, 0xA9, 0x80, 0x2D, 0x2E, 0x31, 0x32, 0x30, 0x36,
    0x2F, 0x61, 0x20, 0xEF, 0xBB, 0xBF, 0xFE,
  ]

  @Test func randomBytesNeverCrashTheReader() async {
    await propertyCheck(count: 300, input: Gen.int(in: 0...24).array(of: 0...300), Gen.int(in: 0...3)) { indexes, d in
      let bytes = indexes.map { PropertyTests.alphabet[$0] }
      let delimiter = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t"), UInt8(ascii: "|")][d]
      let reader = CSVReader(source: MemorySource(bytes), delimiter: delimiter, bufferSize: 16)
      var records = 0
      do {
        while try reader.next() {
          records += 1
          _ = reader.strings
        }
      } catch {
        #expect((error as? ImportError)?.issue?.kind == .unterminatedQuote)
      }
      #expect(records <= bytes.count + 1)
    }
  }

  /// The reader with a tiny record limit: the only errors are the documented two, a too-long
  /// record never stops the reading, and no record it returns is longer than the limit.
  @Test func randomBytesWithARecordLimit() {
    var random = SeededRandom(state: fuzzSeed)
    for _ in 0..<(fuzzCount * 3) {
      let bytes = (0..<random.int(0...400)).map { _ in PropertyTests.alphabet[random.int(0...24)] }
      let limit = random.int(8...64)
      let reader = CSVReader(source: MemorySource(bytes), bufferSize: 16)
      reader.maxRecordBytes = limit
      var calls = 0
      reading: while calls <= bytes.count + 2 {
        calls += 1
        do {
          guard try reader.next() else { break reading }
          let length = (0..<reader.fieldCount).reduce(0) { $0 + reader.field($1).count }
          #expect(length <= limit + 16)
        } catch {
          let kind = error.issue?.kind
          #expect(kind == .unterminatedQuote || kind == .recordTooLong)
          if kind == .unterminatedQuote { break reading }
        }
      }
      #expect(calls <= bytes.count + 2, "the reader ends")
    }
  }

  /// Every import fixture with random bytes changed, inserted or removed, imported end to end
  /// (detection, reader, date and amount parsers, row mapper): only `ImportError`s, and every
  /// row that comes out is well formed.
  @Test func mutatedFixturesImportOrFailCleanly() throws {
    let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fixtures/import")
    let fixtures = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".csv") }
      .sorted().map { Array(try Data(contentsOf: directory.appendingPathComponent($0))) }
    try #require(!fixtures.isEmpty)
    var random = SeededRandom(state: fuzzSeed)
    for _ in 0..<fuzzCount {
      var bytes = fixtures[random.int(0...(fixtures.count - 1))]
      for _ in 0..<random.int(1...8) where !bytes.isEmpty {
        let at = random.int(0...(bytes.count - 1))
        let byte = PropertyTests.alphabet[random.int(0...24)]
        switch random.int(0...2) {
        case 0: bytes[at] = byte
        case 1: bytes.insert(byte, at: at)
        default: bytes.remove(at: at)
        }
      }
      let path = temporaryFile(bytes)
      defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
      for skip in [true, false] {
        do {
          let result = try importAll(path, skipInvalid: skip)
          for row in result.rows {
            #expect(row.line >= 1)
            #expect(row.description.utf8.count <= ImportLimits.maxFieldBytes * 4)
            #expect((1...9999).contains(row.date.year))
          }
          for issue in result.rejected { #expect(issue.line >= 1 && !issue.message.isEmpty) }
        } catch let error as ImportError {
          #expect(!error.description.isEmpty)
        } catch {
          Issue.record("unexpected error type \(error)")
        }
      }
    }
  }

  /// The date and amount parsers on random bytes: a value or a documented failure, never a
  /// trap; a date that parses is a real calendar day, an amount that parses prints back.
  @Test func parsersTakeAnyBytes() {
    var random = SeededRandom(state: fuzzSeed)
    let dateAlphabet = Array("0123456789-./ 0\u{0}\u{FF}12319".utf8)
    for _ in 0..<(fuzzCount * 5) {
      let bytes = (0..<random.int(0...14)).map { _ in dateAlphabet[random.int(0...(dateAlphabet.count - 1))] }
      for format in ["YYYY-MM-DD", "DD.MM.YYYY", "MM/DD/YYYY", "YYYYMMDD", "DD/MM/YY"] {
        let parsed = bytes.withUnsafeBufferPointer { DateFormat(pattern: format)?.date($0) }
        if let parsed { #expect(CivilDate(year: parsed.year, month: parsed.month, day: parsed.day) == parsed) }
      }
    }
    let amountAlphabet = Array("0123456789.,-+ ()$€'\u{0}\u{FF}9".utf8)
    for _ in 0..<(fuzzCount * 5) {
      let bytes = (0..<random.int(0...30)).map { _ in amountAlphabet[random.int(0...(amountAlphabet.count - 1))] }
      for mark in [UInt8(ascii: "."), UInt8(ascii: ",")] {
        for units in [0, 2, 3] {
          let result = bytes.withUnsafeBufferPointer { AmountParser(decimalMark: mark).parse($0, minorUnits: units) }
          if case .success(let minor) = result, mark == UInt8(ascii: "."), units == 2 {
            let printed = Money(minor: minor, currency: .usd).decimalString
            #expect(AmountParser().parse(printed, minorUnits: 2) == .success(minor))
          }
        }
      }
    }
  }

  @Test func randomBytesNeverCrashTheImporter() async {
    await propertyCheck(count: 60, input: Gen.int(in: 0...24).array(of: 0...400)) { indexes in
      let head = Array("Date,Description,Amount\n2026-10-01,Cafe,-1.00\n".utf8)
      let bytes = head + indexes.map { PropertyTests.alphabet[$0] }
      let path = temporaryFile(bytes)
      for skip in [true, false] {
        do {
          _ = try importAll(path, skipInvalid: skip)
        } catch is ImportError {
          // Errors are fine; crashes are not.
        } catch {
          Issue.record("unexpected error type \(error)")
        }
      }
      try? FileManager.default.removeItem(atPath: path)
    }
  }

  static let pieces = ["a", "Z", "1", " ", "é", "😀", "\"", ",", ";", "\n", "\r", "\r\n", "|", "\t", ""]

  @Test func quotedTablesRoundTrip() async {
    await propertyCheck(
      count: 300, input: Gen.int(in: 0...14).array(of: 0...5).array(of: 1...4).array(of: 1...6), Gen.int(in: 0...3)
    ) { table, d in
      let delimiter = [",", ";", "\t", "|"][d]
      let rows: [[String]] = table.map { $0.map { $0.map { PropertyTests.pieces[$0] }.joined() } }
      var text = ""
      for row in rows {
        text += row.map { field in
          let needs =
            field.isEmpty || field.contains(delimiter) || field.contains("\"") || field.contains("\n")
            || field.contains("\r")
          return needs ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
        }.joined(separator: delimiter)
        text += "\r\n"
      }
      let parsed = try? parseAll(Array(text.utf8), delimiter: delimiter.utf8.first!, bufferSize: 9)
      #expect(parsed?.map(\.1) == rows)
    }
  }
}

/// The fuzz tests' budget and seed: fixed, so CI runs the same inputs every time;
/// `FUZZ_COUNT=N FUZZ_SEED=S swift test --filter PropertyTests` runs more or other ones.
let fuzzCount = Int(ProcessInfo.processInfo.environment["FUZZ_COUNT"] ?? "") ?? 150
let fuzzSeed = UInt64(ProcessInfo.processInfo.environment["FUZZ_SEED"] ?? "") ?? 20_261_122

extension SeededRandom {
  /// A uniform integer in `range` (the generator of the differential tests, reused).
  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
}
