import ExpenseCore
import Foundation
import Testing

@testable import ExpenseImport

/// Parses all records of a text (or bytes) with a small buffer so records cross chunk borders.
func parseAll(_ bytes: [UInt8], delimiter: UInt8 = 0x2C, bufferSize: Int = 7) throws(ImportError) -> [(Int, [String])] {
  let reader = CSVReader(source: MemorySource(bytes), delimiter: delimiter, bufferSize: bufferSize)
  var out: [(Int, [String])] = []
  while try reader.next() { out.append((reader.line, reader.strings)) }
  return out
}

func parseAll(_ text: String, delimiter: UInt8 = 0x2C, bufferSize: Int = 7) throws(ImportError) -> [(Int, [String])] {
  try parseAll(Array(text.utf8), delimiter: delimiter, bufferSize: bufferSize)
}

@Suite struct CSVReaderTests {
  @Test func quotedFieldsEscapesAndEmbeddedNewlines() throws {
    let records = try parseAll("a,\"b,c\",\"say \"\"hi\"\"\"\n\"multi\nline\",,x\r\nlast,row")
    #expect(records.map(\.1) == [["a", "b,c", "say \"hi\""], ["multi\nline", "", "x"], ["last", "row"]])
    #expect(records.map(\.0) == [1, 2, 4])
  }

  @Test func lineEndingsLFCRLFAndLoneCR() throws {
    let records = try parseAll("a\rb\r\nc\nd")
    #expect(records.map(\.1) == [["a"], ["b"], ["c"], ["d"]])
    #expect(records.map(\.0) == [1, 2, 3, 4])
  }

  @Test func blankLinesAreRecordsWithoutFields() throws {
    let records = try parseAll("a\n\nb\n")
    #expect(records.map(\.1) == [["a"], [], ["b"]])
    #expect(records.map(\.0) == [1, 2, 3])
  }

  @Test func utf8BOMIsSkipped() throws {
    let records = try parseAll([0xEF, 0xBB, 0xBF] + Array("Date,Amount\n".utf8), bufferSize: 2)
    #expect(records.first?.1 == ["Date", "Amount"])
  }

  @Test func strayQuotesAreKeptLikePython() throws {
    #expect(try parseAll("ab\"c,d").map(\.1) == [["ab\"c", "d"]])
    #expect(try parseAll("\"ab\"c,d").map(\.1) == [["abc", "d"]])
    #expect(try parseAll(" \"a\",b").map(\.1) == [[" \"a\"", "b"]])
  }

  @Test func trailingDelimiterGivesEmptyLastField() throws {
    #expect(try parseAll("a,b,\n").map(\.1) == [["a", "b", ""]])
    #expect(try parseAll("a,").map(\.1) == [["a", ""]])
  }

  @Test(arguments: [UInt8(ascii: ";"), UInt8(ascii: "\t"), UInt8(ascii: "|")])
  func otherDelimiters(_ d: UInt8) throws {
    let sep = String(UnicodeScalar(d))
    let records = try parseAll("x\(sep)\"y\(sep)z\"\(sep),\n", delimiter: d)
    #expect(records.map(\.1) == [["x", "y\(sep)z", ","]])
  }

  @Test func unterminatedQuoteNamesTheLineWhereItBegan() {
    #expect {
      _ = try parseAll("a,b\nc,\"open\nmore\nstill")
    } throws: { error in
      guard let issue = (error as? ImportError)?.issue else { return false }
      return issue.kind == .unterminatedQuote && issue.line == 2 && issue.column == 2
    }
  }

  @Test func longFieldsGrowTheRecordBuffer() throws {
    let long = String(repeating: "x", count: 100_000)
    let records = try parseAll("\(long),\"\(long)\"\n", bufferSize: 4096)
    #expect(records.first?.1 == [long, long])
  }

  @Test func utf16SourceTranscodes() throws {
    var bytes: [UInt8] = [0xFF, 0xFE]
    for unit in "Café,😀\n".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
    let reader = CSVReader(source: UTF16Source(MemorySource(bytes), bigEndian: false), bufferSize: 16)
    #expect(try reader.next())
    #expect(reader.strings == ["Café", "😀"])
    var be: [UInt8] = [0xFE, 0xFF]
    for unit in "Ünïcode\n".utf16 { be += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
    let r2 = CSVReader(source: UTF16Source(MemorySource(be), bigEndian: true))
    #expect(try r2.next())
    #expect(r2.strings == ["Ünïcode"])
  }

  @Test func visibleControlCharactersEscapes() {
    #expect(visibleControlCharacters("a\u{1B}[31mb\tc\n") == "a\\u{1B}[31mb\\tc\\n")
    #expect(visibleControlCharacters("plain €") == "plain €")
  }
}
