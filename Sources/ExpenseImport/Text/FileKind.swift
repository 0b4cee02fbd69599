/// What a file is when its first bytes say it is not text: images, archives, office documents,
/// programs and databases, told by their magic numbers whatever the file is called.
///
/// Why by content: people pick "the statement" from a downloads folder, and a bank's PDF or an
/// `.xlsx` renamed `.csv` would otherwise be read as garbled text and refused by a confusing
/// encoding or column error, or worse, half-read. Naming the kind says what to do instead.
struct FileKind: Equatable {
  /// What the file is, as the message says it: "a PNG image".
  var name: String
  /// What to do instead.
  var hint: String

  static let exportHint = "export the statement from the bank as CSV (a spreadsheet can save a sheet as CSV)"

  /// One row per kind: the bytes it starts with (at `offset`) and what it is.
  static let signatures: [(offset: Int, magic: [UInt8], kind: FileKind)] = [
    (0, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], FileKind(name: "a PNG image", hint: exportHint)),
    (0, [0xFF, 0xD8, 0xFF], FileKind(name: "a JPEG image", hint: exportHint)),
    (0, Array("GIF87a".utf8), FileKind(name: "a GIF image", hint: exportHint)),
    (0, Array("GIF89a".utf8), FileKind(name: "a GIF image", hint: exportHint)),
    (0, [0x49, 0x49, 0x2A, 0x00], FileKind(name: "a TIFF image", hint: exportHint)),
    (0, [0x4D, 0x4D, 0x00, 0x2A], FileKind(name: "a TIFF image", hint: exportHint)),
    (8, Array("WEBP".utf8), FileKind(name: "a WebP image", hint: exportHint)),
    (0, Array("%PDF-".utf8), FileKind(name: "a PDF document", hint: exportHint)),
    (0, [0x50, 0x4B, 0x03, 0x04], FileKind(name: "a ZIP archive", hint: "unpack it and import the CSV file inside")),
    (0, [0x50, 0x4B, 0x05, 0x06], FileKind(name: "a ZIP archive", hint: "unpack it and import the CSV file inside")),
    (0, [0x1F, 0x8B], FileKind(name: "a gzip archive", hint: "unpack it (gunzip) and import the CSV file inside")),
    (
      0, Array("7z".utf8) + [0xBC, 0xAF, 0x27, 0x1C],
      FileKind(name: "a 7-Zip archive", hint: "unpack it and import the CSV file inside")
    ),
    (0, Array("Rar!".utf8), FileKind(name: "a RAR archive", hint: "unpack it and import the CSV file inside")),
    (
      0, [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1],
      FileKind(
        name: "an old Excel workbook (xls) or Word file",
        hint: "export it as CSV: open it in a spreadsheet and save the sheet as CSV")
    ),
    (
      0, Array("SQLite format 3".utf8) + [0],
      FileKind(name: "an SQLite database", hint: "import a bank statement (CSV), not a database")
    ),
    (0, [0x7F, 0x45, 0x4C, 0x46], FileKind(name: "a program", hint: exportHint)),
  ]

  /// The kinds of ZIP told apart by the name of an entry (office documents are ZIP archives).
  static let zipContents: [(entry: [UInt8], kind: FileKind)] = [
    (
      Array("xl/".utf8),
      FileKind(
        name: "an Excel workbook (xlsx)", hint: "export it as CSV: open it in a spreadsheet and save the sheet as CSV")
    ),
    (
      Array("application/vnd.oasis.opendocument.spreadsheet".utf8),
      FileKind(
        name: "an OpenDocument spreadsheet (ods)",
        hint: "export it as CSV: open it in a spreadsheet and save the sheet as CSV")
    ),
    (Array("word/".utf8), FileKind(name: "a Word document (docx)", hint: exportHint)),
  ]

  /// The kind of file `sample` starts, or nil when its first bytes are none of the known ones.
  static func sniff(_ sample: [UInt8]) -> FileKind? {
    for (offset, magic, kind) in signatures
    where sample.count >= offset + magic.count && sample[offset..<(offset + magic.count)].elementsEqual(magic) {
      if magic.starts(with: [0x50, 0x4B]) {
        // Entry names are stored uncompressed (in each entry's header and the directory at the
        // end): an office file names its parts there.
        for (entry, zipKind) in zipContents where contains(sample[...], entry) { return zipKind }
      }
      if offset == 8 && !sample.starts(with: Array("RIFF".utf8)) { continue }
      return kind
    }
    return nil
  }

  /// The refusal: "this is a PNG image, not a bank statement (CSV, OFX, QIF, CAMT.053 or MT940)", with what to do instead (for
  /// a workbook: "export it as CSV").
  func refusal(file: String) -> ImportError {
    .undetectable(
      file: file, message: "this is \(name), not a bank statement (CSV, OFX, QIF, CAMT.053 or MT940)", hint: hint)
  }

  static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
    guard let first = needle.first, haystack.count >= needle.count else { return false }
    var i = haystack.startIndex
    let last = haystack.endIndex - needle.count
    while i <= last {
      if haystack[i] == first && haystack[i..<(i + needle.count)].elementsEqual(needle) { return true }
      i += 1
    }
    return false
  }
}
