import ExpenseCore
import Foundation
import Testing

@testable import ExpenseImport

/// The bytes-to-text layer: damaged UTF-8 is refused per row (never read as Latin-1), kept with
/// U+FFFD on request, NUL padding at the end is ignored, and legacy encodings are named by uchardet.
@Suite struct TextBytesTests {
  static let header = Array("Date,Description,Amount\n".utf8)

  /// "Café Central" is UTF-8 elsewhere in the file; one row has two bad bytes beside an "é".
  static let damaged: [UInt8] =
    header + Array("2026-10-01,Café Central,-3.50\n2026-10-02,Caf".utf8) + [0xC3, 0xA9, 0x20, 0xE4, 0xE4]
    + Array(" x,-4.20\n2026-10-03,Tea,-2.00\n".utf8)

  @Test func aDamagedRowIsRefusedWithItsLineColumnAndByte() throws {
    let path = temporaryFile(Self.damaged)
    #expect(throws: ImportError.self) { try importAll(path) }
    do {
      _ = try importAll(path)
    } catch let error as ImportError {
      let issue = try #require(error.issue)
      #expect(issue.kind == .invalidText)
      #expect(issue.line == 3 && issue.column == 2)
      #expect(issue.message == "invalid UTF-8 at byte 7 of the field (0xE4)")
      #expect(
        issue.hint
          == "the rest of the file is UTF-8: fix the row, or --replace-invalid keeps it with U+FFFD (�) for the bad bytes"
      )
    }
    let skipping = try importAll(path, skipInvalid: true)
    #expect(skipping.rows.map(\.description) == ["Café Central", "Tea"])
    #expect(skipping.rejected.map(\.line) == [3])
    #expect(!skipping.rows.contains { $0.description.contains("Ã") }, "never read as Latin-1")
  }

  /// A category cell with bad bytes refuses its row too: it is not stored as "no category", and
  /// the same bytes on a later row are refused again (not taken from the cache of cells).
  @Test func aDamagedCategoryCellRefusesItsRow() throws {
    var bytes = Array("Date,Description,Amount,Category\n2026-10-01,Café,-1.00,Café\n".utf8)
    for day in 2...3 { bytes += Array("2026-10-0\(day),Tea,-2.00,Caf".utf8) + [0xC3, 0xA9, 0xE9] + Array("\n".utf8) }
    let result = try importAll(temporaryFile(bytes), skipInvalid: true)
    #expect(result.rows.map(\.category) == ["Café"])
    #expect(result.rejected.map(\.line) == [3, 4])
    #expect(result.rejected.first?.column == 4)
    #expect(result.rejected.first?.message == "invalid UTF-8 at byte 6 of the field (0xE9)")
  }

  /// The issue's case with nothing else beyond ASCII: one row, one "é" and two bad bytes.
  @Test func aLoneDamagedRowIsNotReadAsWindows1252() throws {
    let bytes = Self.header + Array("2026-10-01,Caf".utf8) + [0xC3, 0xA9, 0xE4, 0xE4] + Array(",-1.00\n".utf8)
    let result = try importAll(temporaryFile(bytes), skipInvalid: true)
    #expect(result.rows.isEmpty)
    #expect(result.rejected.first?.message == "invalid UTF-8 at byte 6 of the field (0xE4)")
  }

  /// Past an ASCII sample a field with real UTF-8 and a bad byte is damage too, not Windows-1252.
  @Test func damageAfterAnASCIISampleIsRefusedToo() throws {
    var bytes = Self.header
    for day in 0..<40_000 { bytes += Array("2026-10-\(day % 28 + 1),Coffee shop,-1.00\n".utf8) }
    bytes += Array("2026-10-01,Caf".utf8) + [0xC3, 0xA9, 0xE4] + Array(",-1.00\n".utf8)
    bytes += Array("2026-10-02,M".utf8) + [0xFC] + Array("ller,-1.00\n".utf8)
    #expect(bytes.count > CSVImporter.sampleSize)
    let result = try importAll(temporaryFile(bytes), skipInvalid: true)
    #expect(result.rejected.map(\.line) == [40_002])
    #expect(result.rows.last?.description == "Müller", "a lone Windows-1252 byte is still read as before")
  }

  @Test func replaceInvalidKeepsTheRowWithTheReplacementCharacter() throws {
    var options = ImportOptions()
    options.replaceInvalid = true
    let result = try importAll(temporaryFile(Self.damaged), options)
    #expect(result.rows.map(\.description) == ["Café Central", "Café \u{FFFD}\u{FFFD} x", "Tea"])
    #expect(result.warnings == ["line 3, column 2: invalid UTF-8 at byte 7 of the field (0xE4) replaced with U+FFFD"])
  }

  @Test func replaceInvalidWarnsTheFirstHundredLinesThenCounts() throws {
    var bytes = Self.header + Array("2026-10-01,Café,-1.00\n".utf8)
    for _ in 0..<105 { bytes += Array("2026-10-02,Caf".utf8) + [0xC3, 0xA9, 0xFF] + Array(",-1.00\n".utf8) }
    var options = ImportOptions()
    options.replaceInvalid = true
    let result = try importAll(temporaryFile(bytes), options)
    #expect(result.rows.count == 106)
    #expect(result.warnings.count == 101)
    #expect(
      result.warnings.first == "line 3, column 2: invalid UTF-8 at byte 6 of the field (0xFF) replaced with U+FFFD")
    #expect(result.warnings.last == "invalid UTF-8 replaced with U+FFFD on 5 more lines")
  }

  @Test(arguments: [3, 4096, 2_000_000])
  func trailingNULPaddingIsIgnoredWithAWarning(_ padding: Int) throws {
    var bytes = Self.header
    for day in 1...20 { bytes += Array("2026-10-\(day),Bäckerei \(day),-1.00\n".utf8) }
    bytes += [UInt8](repeating: 0, count: padding)
    let result = try importAll(temporaryFile(bytes))
    #expect(result.rows.count == 20)
    #expect(result.rows.last?.description == "Bäckerei 20")
    #expect(result.warnings == ["the file ends with \(padding) NUL bytes (padding): ignored"])
  }

  @Test func paddingAfterALastLineWithoutNewlineAndInUTF16() throws {
    let bare = Self.header + Array("2026-10-01,Tea,-2.00".utf8) + [0, 0, 0, 0]
    let plain = try importAll(temporaryFile(bare))
    #expect(plain.rows.map(\.description) == ["Tea"])
    #expect(plain.warnings == ["the file ends with 4 NUL bytes (padding): ignored"])
    let text = "Date,Description,Amount\n2026-10-01,Tee,-2.00\n"
    let utf16: [UInt8] =
      [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } + [0, 0, 0, 0, 0, 0]
    let wide = try importAll(temporaryFile(utf16))
    #expect(wide.rows.map(\.description) == ["Tee"])
    #expect(wide.warnings == ["the file ends with 6 NUL bytes (padding): ignored"])
  }

  /// NULs inside the file keep their meaning: one in a field is stored as ␀, and a run in the
  /// middle of the stream (here across read chunks) goes through unchanged.
  @Test func nulsBeforeTheEndAreNotPadding() throws {
    let one = try importAll(temporaryFile(Self.header + Array("2026-10-01,a".utf8) + [0] + Array("b,-1.00\n".utf8)))
    #expect(one.rows.map(\.description) == ["a\u{2400}b"])
    #expect(one.warnings.isEmpty)
    let bytes: [UInt8] = Array("ab".utf8) + [0, 0, 0, 0, 0] + Array("cd".utf8) + [0, 0]
    let source = TrailingNULSource(ChunkSource(bytes, chunk: 3))
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 9, count: 16)
    while true {
      let n = try buffer.withUnsafeMutableBufferPointer { try source.read(into: $0.baseAddress!, capacity: 3) }
      if n == 0 { break }
      out += buffer.prefix(n)
    }
    #expect(out == Array("ab".utf8) + [0, 0, 0, 0, 0] + Array("cd".utf8))
    #expect(source.dropped == 2)
  }

  @Test func siblingEncodingsAreChosenByTheirDistinctBytes() {
    #expect(LatinFamily.western.member(for: ByteHistogram([0xE9, 0x80])) == .windows1252)
    #expect(LatinFamily.western.member(for: ByteHistogram([0xE9, 0xA4])) == .iso885915)
    #expect(LatinFamily.western.member(for: ByteHistogram([0xE9, 0xA4, 0x93])) == .windows1252)
    #expect(LatinFamily.centralEuropean.member(for: ByteHistogram([0xF8, 0x9A])) == .windows1250)
    #expect(LatinFamily.centralEuropean.member(for: ByteHistogram([0xF8, 0xB6])) == .iso88592)
    #expect(LatinFamily.centralEuropean.member(for: ByteHistogram([0xF8])) == .windows1250)
    // ł (0xB3) is a letter only in Windows-1250 (³ in 1252); è/č (0xE8) is one in both.
    #expect(LatinFamily.byLetters(ByteHistogram([0xB3, 0xE8])) == .centralEuropean)
    #expect(LatinFamily.byLetters(ByteHistogram([0xE8, 0xF1])) == .western)
  }

  @Test func uchardetNamesMapToTheImportersEncodings() {
    #expect(UchardetName("WINDOWS-1250") == .family(.centralEuropean))
    #expect(UchardetName("ISO-8859-2") == .family(.centralEuropean))
    #expect(UchardetName("ISO-8859-1") == .family(.western))
    #expect(UchardetName("KOI8-R") == .exact(.koi8r))
    #expect(UchardetName("UHC") == .exact(.eucKR))
    #expect(UchardetName("SHIFT_JIS") == .exact(.shiftJIS))
    #expect(UchardetName("ISO-8859-10") == .otherLatin)
    #expect(UchardetName(nil) == .otherLatin)
    #expect(UchardetName("ISO-8859-7") == .unsupported("ISO-8859-7"))
    #expect(Uchardet.charset(of: Array("Data;Opis\n2026;Zakup Żabka Łódź świeże źródło\n".utf8)) == "UTF-8")
  }

  @Test func knownKindsOfFileAreNamedByTheirFirstBytes() {
    #expect(FileKind.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1])?.name == "a PNG image")
    #expect(FileKind.sniff([0xFF, 0xD8, 0xFF, 0xE1])?.name == "a JPEG image")
    #expect(FileKind.sniff(Array("%PDF-1.4".utf8))?.name == "a PDF document")
    #expect(
      FileKind.sniff([0x50, 0x4B, 0x03, 0x04] + Array("xl/workbook.xml".utf8))?.name == "an Excel workbook (xlsx)")
    #expect(FileKind.sniff([0x50, 0x4B, 0x03, 0x04, 0])?.name == "a ZIP archive")
    #expect(FileKind.sniff(Array("RIFF0000WEBPVP8 ".utf8))?.name == "a WebP image")
    #expect(FileKind.sniff(Array("XXXX0000WEBP".utf8)) == nil)
    #expect(FileKind.sniff(Array("Date,Description\n".utf8)) == nil)
    #expect(FileKind.sniff([0xFF, 0xFE, 0x44, 0x00]) == nil, "a UTF-16 byte order mark is text")
  }
}

/// Hands out `bytes` at most `chunk` at a time, as a pipe would.
final class ChunkSource: ByteSource {
  let bytes: [UInt8]
  let chunk: Int
  var offset = 0

  init(_ bytes: [UInt8], chunk: Int) {
    self.bytes = bytes
    self.chunk = chunk
  }

  func read(into buffer: UnsafeMutablePointer<UInt8>, capacity: Int) throws(ImportError) -> Int {
    let n = min(capacity, chunk, bytes.count - offset)
    for i in 0..<n { buffer[i] = bytes[offset + i] }
    offset += n
    return n
  }
}
