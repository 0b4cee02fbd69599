import Foundation

/// The encoding a statement file declares for itself: the OFX 1.x header's `CHARSET` and
/// `ENCODING` lines, or an XML declaration's `encoding="…"` (OFX 2.x). Files without one (QIF,
/// MT940) are detected like CSV files (`EncodingGuess`).
enum StatementEncoding {
  /// The declared encoding and where it was declared, or nil when the file declares none (or
  /// `NONE`, plain ASCII). An encoding the importer does not read is refused, naming it and its
  /// line: read as ASCII, UTF-7 (or EBCDIC) could spell `<!DOCTYPE` or `&xxe;` in bytes the
  /// checks never see, and guessing would store text the bank never wrote.
  static func declared(in sample: [UInt8], format: StatementFormat, file: String) throws(ImportError)
    -> (TextEncoding, String)?
  {
    guard format == .ofx else { return nil }
    let head = String(decoding: sample.prefix(4096), as: UTF8.self)
    if let xml = xmlEncoding(head) {
      guard let encoding = TextEncoding(name: xml) else {
        if ["US-ASCII", "ASCII", "UTF-16"].contains(xml.uppercased()) { return nil }
        throw unsupported("the XML declaration says encoding=\"\(xml)\"", line: 1, file: file)
      }
      return (encoding, "the XML declaration says \(xml)")
    }
    var charset: (value: String, line: Int)?
    var encodingLine: String?
    var number = 0
    for line in head.split(
      omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
    {
      number += 1
      if line.hasPrefix("<") { break }
      let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
      guard parts.count == 2 else { continue }
      switch parts[0].uppercased() {
      case "CHARSET": charset = (parts[1], number)
      case "ENCODING": encodingLine = parts[1]
      default: break
      }
    }
    if let encodingLine, encodingLine.uppercased() == "UTF-8" || encodingLine.uppercased() == "UNICODE" {
      return (.utf8, "the OFX header says ENCODING:\(encodingLine)")
    }
    guard let (value, line) = charset else { return nil }
    let said = "the OFX header says CHARSET:\(value)"
    switch value.uppercased() {
    case "1252", "WINDOWS-1252", "CP1252": return (.windows1252, said)
    case "ISO-8859-1", "8859-1", "LATIN1", "ISO-8859-1:1987": return (.latin1, said)
    case "UTF-8": return (.utf8, said)
    case "", "NONE", "USASCII", "US-ASCII", "ASCII": return nil
    default:
      guard let encoding = TextEncoding(name: value) else { throw unsupported(said, line: line, file: file) }
      return (encoding, said)
    }
  }

  /// The refusal of an encoding the importer does not read, as `said` names it.
  static func unsupported(_ said: String, line: Int, file: String) -> ImportError {
    .malformed(
      file: file, line: line,
      message:
        "\(visibleControlCharacters(said)), an encoding that is not read (it could hide markup the checks must see)",
      hint:
        "export the statement again in UTF-8 or windows-1252, or give the encoding its bytes really are in with --encoding"
    )
  }

  /// A declared single-byte charset is checked against the bytes: banks often declare 1252 and
  /// write UTF-8, which read as 1252 would turn every "é" into "Ã©".
  static func check(_ declared: (TextEncoding, String), sample: [UInt8], truncated: Bool) -> (TextEncoding, String) {
    guard declared.0 != .utf8, sample.contains(where: { $0 >= 0x80 }) else { return declared }
    let bytes = truncated ? trimmedToWholeSequence(sample) : sample
    if bytes.withUnsafeBufferPointer({ isValidUTF8($0) }) {
      return (.utf8, "\(declared.1), but every byte is valid UTF-8")
    }
    return declared
  }

  /// The sample without a multi-byte sequence cut at its end.
  static func trimmedToWholeSequence(_ sample: [UInt8]) -> [UInt8] {
    var end = sample.count
    var back = 0
    while end > 0 && back < 3 && sample[end - 1] & 0xC0 == 0x80 {
      end -= 1
      back += 1
    }
    if end > 0 && sample[end - 1] >= 0xC0 { end -= 1 }
    return Array(sample[..<end])
  }

  /// `encoding="…"` of an XML declaration at the start of `head`.
  static func xmlEncoding(_ head: String) -> String? {
    guard let start = head.range(of: "<?xml"), let end = head.range(of: "?>", range: start.upperBound..<head.endIndex)
    else { return nil }
    let declaration = head[start.upperBound..<end.lowerBound]
    guard let key = declaration.range(of: "encoding") else { return nil }
    let rest = declaration[key.upperBound...].drop { $0 == " " || $0 == "=" }
    guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
    let value = rest.dropFirst().prefix { $0 != quote }
    return value.isEmpty ? nil : String(value)
  }
}
