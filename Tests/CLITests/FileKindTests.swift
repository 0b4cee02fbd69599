import Foundation
import Testing

/// Files that are not text are named by their first bytes and refused (65), whatever their name;
/// the database is not touched.
@Suite struct FileKindTests {
  /// A ZIP entry header naming `name` (what office files and archives start with).
  static func zipEntry(_ name: String) -> [UInt8] {
    [0x50, 0x4B, 0x03, 0x04, 0x14, 0, 0, 0, 8, 0] + [UInt8](repeating: 0, count: 16)
      + [UInt8(name.utf8.count), 0, 0, 0] + Array(name.utf8) + [0x78, 0x9C, 0x03, 0x00]
  }

  static let cases: [(name: String, bytes: [UInt8], message: String, hint: String)] = [
    (
      "png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52],
      "this is a PNG image, not a bank statement (CSV, OFX, QIF, CAMT.053 or MT940)",
      "export the statement from the bank as CSV"
    ),
    (
      "jpeg", [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 0x4A, 0x46, 0x49, 0x46, 0],
      "this is a JPEG image, not a bank statement (CSV, OFX, QIF, CAMT.053 or MT940)",
      "export the statement from the bank as CSV"
    ),
    (
      "pdf", Array("%PDF-1.7\n%\u{E2}\u{E3}\n1 0 obj\n".utf8),
      "this is a PDF document, not a bank statement (CSV, OFX, QIF, CAMT.053 or MT940)",
      "export the statement from the bank as CSV"
    ),
    (
      "zip", zipEntry("statement.csv") + Array("Date,Description,Amount\n".utf8),
      "this is a ZIP archive, not a bank statement (CSV, OFX, QIF, CAMT.053 or MT940)",
      "unpack it and import the CSV file inside"
    ),
    (
      "xlsx", zipEntry("[Content_Types].xml") + zipEntry("_rels/.rels") + zipEntry("xl/workbook.xml"),
      "this is an Excel workbook (xlsx), not a bank statement (CSV, OFX, QIF, CAMT.053 or MT940)", "export it as CSV"
    ),
    (
      "ods", zipEntry("mimetype") + Array("application/vnd.oasis.opendocument.spreadsheet".utf8),
      "this is an OpenDocument spreadsheet (ods), not a bank statement (CSV, OFX, QIF, CAMT.053 or MT940)",
      "export it as CSV"
    ),
    (
      "xls", [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1, 0, 0],
      "this is an old Excel workbook (xls) or Word file, not a bank statement (CSV, OFX, QIF, CAMT.053 or MT940)",
      "export it as CSV"
    ),
    (
      "gif", Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0],
      "this is a GIF image, not a bank statement (CSV, OFX, QIF, CAMT.053 or MT940)",
      "export the statement from the bank as CSV"
    ),
    (
      "sqlite", Array("SQLite format 3".utf8) + [0, 0x10, 0, 1, 1],
      "this is an SQLite database, not a bank statement (CSV, OFX, QIF, CAMT.053 or MT940)", "not a database"
    ),
  ]

  @Test(arguments: cases.map(\.name))
  func knownKindsAreNamedAndRefusedEvenWhenNamedCSV(_ name: String) throws {
    let known = try #require(Self.cases.first { $0.name == name })
    let cli = try CLI()
    #expect(try cli.run(["add", "2026-01-01", "1", "existing"]).code == 0)
    let before = try cli.databaseBytes()
    // Padded like a real file, with bytes that would be garbled text if read as one.
    let bytes = known.bytes + (0..<2000).map { UInt8(truncatingIfNeeded: $0 &* 37) }
    let path = cli.directory.appendingPathComponent("statement.csv").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    for arguments in [["import", path], ["import", path, "--dry-run"], ["import", path, "--encoding", "utf-8"]] {
      let result = try cli.run(arguments)
      #expect(result.code == 65, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains("statement.csv: \(known.message)\n"), "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains("hint: ") && result.stderr.contains(known.hint), "\(result.stderr)")
    }
    #expect(try cli.databaseBytes() == before, "nothing written")
  }
}
