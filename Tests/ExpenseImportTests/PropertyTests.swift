import ExpenseCore
import Foundation
import PropertyBased
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
