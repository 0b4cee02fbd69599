import ExpenseCore

/// Reading cells: the bytes of a column, blank and equality tests, decoded text.
extension RowMapper {
  @inline(__always)
  static func cell(_ reader: CSVReader, _ index: Int?) -> UnsafeBufferPointer<UInt8> {
    guard let index, index >= 0, index < reader.fieldCount else { return UnsafeBufferPointer(start: nil, count: 0) }
    return reader.field(index)
  }

  func issue(
    _ kind: ImportIssue.Kind, _ reader: CSVReader, _ column: Int?, _ message: String, _ hint: String
  ) -> ImportIssue {
    let raw: String
    if let column, column < reader.fieldCount {
      raw = String(decoding: reader.field(column), as: UTF8.self)
    } else {
      raw = ""
    }
    return ImportIssue(
      kind: kind, file: file, line: reader.line, column: column.map { $0 + 1 },
      columnName: column.flatMap { plan.columnName($0) }, rawValue: raw, message: message, hint: hint)
  }

  /// Whether a cell holds nothing but spaces and tabs.
  static func isBlankCell(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
    !p.contains { $0 != 0x20 && $0 != 0x09 }
  }

  static func trimmedLowercase(_ p: UnsafeBufferPointer<UInt8>) -> String {
    var start = 0
    var end = p.count
    while start < end && (p[start] == 0x20 || p[start] == 0x09) { start += 1 }
    while end > start && (p[end - 1] == 0x20 || p[end - 1] == 0x09) { end -= 1 }
    return String(decoding: UnsafeBufferPointer(rebasing: p[start..<end]), as: UTF8.self).lowercased()
  }

  static func equal(_ p: UnsafeBufferPointer<UInt8>, _ array: [UInt8]) -> Bool {
    guard p.count == array.count else { return false }
    for i in 0..<p.count where p[i] != array[i] { return false }
    return true
  }

  /// Space, tab, LF, VT, FF or CR: collapsed to one space inside a description, dropped at its ends.
  @inline(__always)
  static func isSpace(_ b: UInt8) -> Bool { b <= 0x20 && (b == 0x20 || b &- 0x09 < 5) }

  /// A category or account cell as stored: decoded, trimmed, `nil` when empty.
  mutating func cellText(_ p: UnsafeBufferPointer<UInt8>) -> String? {
    guard let decoded = text.decode(p) else {
      text.failed = true  // refused by the importer with the row (`invalidTextCell`)
      return nil
    }
    let t = trimmingASCIIBlanks(decoded)
    return t.isEmpty ? nil : t
  }

  /// The first category or account cell of the row whose bytes are invalid in the file's
  /// encoding, as the issue refusing the row (after `cellText` set `text.failed`).
  func invalidTextCell(_ reader: CSVReader) -> ImportIssue? {
    var probe = TextDecoder(mode: plan.fieldText)
    for column in [plan.category, plan.accountColumn].compactMap({ $0 }) where column < reader.fieldCount {
      let p = RowMapper.cell(reader, column)
      if probe.decode(p) == nil {
        return issue(
          .invalidText, reader, column, InvalidText.message(p, encoding: plan.encoding),
          InvalidText.hint(encoding: plan.encoding))
      }
    }
    return nil
  }
}
