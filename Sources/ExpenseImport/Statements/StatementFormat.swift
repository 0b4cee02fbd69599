/// The kinds of statement file `expenses import` reads, told apart by content (never by the
/// file's name alone: banks name OFX files `.qfx`, `.ofx` or `download.txt`, and a CSV renamed
/// `.ofx` is still a CSV).
public enum StatementFormat: String, Sendable, CaseIterable, Equatable {
  case csv = "CSV"
  /// Open Financial Exchange 1.x (SGML, unclosed leaf tags) and 2.x (XML); QFX is OFX.
  case ofx = "OFX"
  /// Quicken Interchange Format.
  case qif = "QIF"
  /// ISO 20022 bank-to-customer statement (`BkToCstmrStmt`), or account report (CAMT.052,
  /// `BkToCstmrAcctRpt`), whose entries are the statement's.
  case camt053 = "CAMT.053"
  /// SWIFT MT940 customer statement.
  case mt940 = "MT940"

  /// The format the first bytes of a file (at most `CSVImporter.sampleSize`) are in. Anything
  /// that is none of the statement formats is CSV, whose detector explains what it finds.
  public static func sniff(_ sample: [UInt8]) -> StatementFormat {
    var bytes = sample[...]
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    // UTF-16 files: look at every other byte (the ASCII markers all formats start with).
    if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
      let body = bytes.dropFirst(2)
      let low = bytes.starts(with: [0xFF, 0xFE])
      let narrowed = stride(from: body.startIndex, to: body.endIndex - 1, by: 2).map {
        low ? body[$0] : body[$0 + 1]
      }
      return sniff(narrowed)
    }
    // UTF-16 or UTF-32 without a byte order mark: a `<` first, NUL bytes beside it. Only markup
    // can be told this way (a CSV file in UTF-16 has its mark), and the NULs dropped show it.
    if bytes.count >= 4, bytes.prefix(4).contains(0x3C), bytes.prefix(4).contains(0) {
      let narrowed = Array(bytes.prefix(128 << 10).filter { $0 != 0 })
      let format = sniff(narrowed)
      if format == .camt053 || format == .ofx { return format }
    }
    let head = Array(bytes.prefix(64 << 10)).map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }  // ASCII lower-cased
    let start = head.firstIndex { !(($0 == 0x20) || ($0 >= 0x09 && $0 <= 0x0D)) } ?? head.endIndex
    let text = head[start...]
    func has(_ s: String) -> Bool { contains(text, Array(s.utf8)) }
    func begins(_ s: String) -> Bool { text.starts(with: Array(s.utf8)) }
    if begins("ofxheader") || has("<?ofx") || (begins("<") && has("<ofx>")) { return .ofx }
    if begins("<") && (has("bktocstmrstmt") || has("camt.053") || has("bktocstmracctrpt") || has("camt.052")) {
      return .camt053
    }
    if begins("!type:") || begins("!account") || begins("!option:") || begins("!clear:") { return .qif }
    if (begins("{1:") || begins(":20:") || begins(":940:")) && has(":25:") && (has(":60f:") || has(":60m:")) {
      return .mt940
    }
    return .csv
  }

  static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
    FileKind.contains(haystack, needle)
  }
}
