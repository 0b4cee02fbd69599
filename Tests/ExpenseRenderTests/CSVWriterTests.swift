import ExpenseCore
import ExpenseImport
import Foundation
import TestSupport
import Testing

@testable import ExpenseRender

/// `CSVWriter`, the one CSV writer: what it writes reads back exactly, with the project's
/// `CSVReader` and with Python's `csv` module; text cells are safe for a terminal and a
/// spreadsheet.
@Suite struct CSVWriterTests {
  /// Pieces of fields: every character RFC 4180 quotes, line ends of each kind, a quote and a
  /// comma that a combining mark joins into one `Character`, wide and composed text.
  static let pieces = [
    "a", "Z", "7", " ", ",", "\"", "\n", "\r", "\r\n", "\t", ";", "'", "=", "-", "@", "é", "e\u{301}",
    "\"\u{301}", ",\u{301}", "中", "😀", "x y", "0.5", "",
  ]

  /// Seeded random records of one to six fields.
  static func records(count: Int, seed: UInt64) -> [[String]] {
    var rng = SeededRandom(state: seed)
    return (0..<count).map { _ in
      (0..<Int(rng.next() % 6 + 1)).map { _ in
        (0..<Int(rng.next() % 7)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
      }
    }
  }

  /// The project's reader over `text`: every record's fields.
  static func readBack(_ text: String) throws -> [[String]] {
    let reader = CSVReader(source: MemorySource(Array(text.utf8)), bufferSize: 7)
    var out: [[String]] = []
    while try reader.next() { out.append(reader.strings) }
    return out
  }

  @Test(arguments: [CSVWriter.LineEnd.crlf, .lf])
  func whatItWritesTheReaderReadsBackExactly(_ lineEnd: CSVWriter.LineEnd) throws {
    let writer = CSVWriter(lineEnd: lineEnd)
    for (index, record) in Self.records(count: 2000, seed: 20_261_122).enumerated() {
      let line = writer.record(record)
      #expect(line.hasSuffix(lineEnd.rawValue))
      #expect(try Self.readBack(line) == [record], "record \(index): \(record.debugDescription)")
    }
  }

  @Test func pythonsCSVModuleReadsTheSameTable() throws {
    let rows = Self.records(count: 400, seed: 7)
    let header = ["first", "second"]
    let table = CSVWriter().table(header: header, rows: rows)
    #expect(try CSVOracle.read(table) == [header] + rows)
    #expect(try Self.readBack(table) == [header] + rows)
  }

  @Test func aLoneEmptyFieldIsNotAnEmptyLine() throws {
    #expect(CSVWriter().record([""]) == "\"\"\r\n")
    #expect(CSVWriter().record(["", ""]) == ",\r\n")
    #expect(try CSVOracle.read(CSVWriter().table(header: ["a"], rows: [[""], ["x"]])) == [["a"], [""], ["x"]])
  }

  @Test func quotingIsByScalarSoAJoinedQuoteIsStillDoubled() {
    #expect(CSVField.quoted("\"\u{301}") == "\"\"\"\u{301}\"")
    #expect(CSVField.quoted("a,\u{301}b") == "\"a,\u{301}b\"")
    #expect(CSVField.quoted("a\r\nb") == "\"a\r\nb\"")
    #expect(CSVField.quoted("a\tb") == "a\tb")
    #expect(CSVField.quoted("a\tb", delimiter: "\t") == "\"a\tb\"")
  }

  /// Every control, bidi control and formula start, at the front and inside.
  static let hostile: [String] = {
    let controls = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) } + ["\u{7F}", "\u{85}", "\u{9B}"]
    let bidi = ["\u{61C}", "\u{200E}", "\u{200F}", "\u{202A}", "\u{202E}", "\u{2066}", "\u{2069}", "\u{2028}"]
    let starts = ["=", "+", "-", "@", "\t", "\r", "\n"]
    return (controls + bidi + starts).flatMap { [$0 + "SUM(A1)", "a" + $0 + "b", $0] }
  }()

  @Test func textCellsAreSafeForATerminalAndASpreadsheet() {
    for s in Self.hostile {
      let cell = CSVWriter.text(s)
      #expect(!CSVWriter.looksLikeFormula(cell), "\(s.debugDescription) → \(cell.debugDescription)")
      for scalar in cell.unicodeScalars {
        let v = scalar.value
        #expect(
          v >= 0x20 && v != 0x7F && !(0x80..<0xA0).contains(v), "\(s.debugDescription) → \(cell.debugDescription)")
        #expect(!TerminalText.isBidiControl(v) && v != 0x2028, "\(s.debugDescription)")
      }
    }
    #expect(CSVWriter.text("\u{1B}[31m=1+2") == "^[[31m=1+2")
    #expect(CSVWriter.text("=1+2\u{1B}") == "'=1+2^[")
  }

  @Test func aBankRecordKeepsItsTabsAndNothingElseRaw() {
    #expect(CSVWriter.bankRecord("2026-10-01\t=cmd\u{1B}]0;x\u{7}\t-1.00") == "2026-10-01\t=cmd^[]0;x^G\t-1.00")
    #expect(CSVWriter.bankRecord("-1.00,Rent") == "'-1.00,Rent")
    #expect(CSVWriter.bankRecord("\t2026-10-01\tRent") == "'\t2026-10-01\tRent")
    #expect(CSVWriter.bankRecord("2026-10-01,\"Multi\nline\",-1.00") == "2026-10-01,\"Multi line\",-1.00")
    for s in Self.hostile {
      let cell = CSVWriter.bankRecord(s)
      #expect(!CSVWriter.looksLikeFormula(cell), "\(s.debugDescription) → \(cell.debugDescription)")
      #expect(cell.unicodeScalars.allSatisfy { $0 == "\t" || ($0.value >= 0x20 && $0.value != 0x7F) })
    }
  }
}
