import ExpenseCore
import Foundation

/// Whole-record tests and the record as text (for `--rejects`), used by the importer around `map`.
extension RowMapper {
  static func isBlank(_ reader: CSVReader) -> Bool {
    (0..<reader.fieldCount).allSatisfy { isBlankCell(reader.field($0)) }
  }

  static func extraFieldsEmpty(_ reader: CSVReader, _ width: Int) -> Bool {
    for i in width..<reader.fieldCount where reader.field(i).contains(where: { $0 != 0x20 && $0 != 0x09 }) {
      return false
    }
    return true
  }

  /// The whole record re-joined with the file's delimiter, fields quoted where they need it.
  static func record(_ reader: CSVReader) -> String {
    let delimiter = UnicodeScalar(reader.delimiter)
    return (0..<reader.fieldCount).map { CSVField.quoted(reader.string($0), delimiter: delimiter) }
      .joined(separator: String(delimiter))
  }

  /// The issue of a field longer than `ImportLimits.maxFieldBytes`: its start and length.
  static func tooLong(_ reader: CSVReader, _ column: Int, plan: Plan) -> ImportIssue {
    let field = reader.field(column)
    return ImportIssue(
      kind: .fieldTooLong, file: reader.file, line: reader.line, column: column + 1,
      columnName: plan.columnName(column), rawValue: ImportLimits.shortened(field, total: field.count),
      message: "the field is \(field.count) bytes; the limit is \(ImportLimits.size(ImportLimits.maxFieldBytes))",
      hint: "no bank export has a cell this long: the file may be damaged; --skip-invalid skips the row")
  }

  /// The record re-joined for messages, shortened.
  static func preview(_ reader: CSVReader) -> String {
    var parts: [String] = []
    var length = 0
    for i in 0..<reader.fieldCount {
      let s = reader.string(i)
      parts.append(s)
      length += s.count + 1
      if length > 120 { break }
    }
    let text = parts.joined(separator: String(UnicodeScalar(reader.delimiter)))
    return text.count > 120 ? String(text.prefix(120)) + "…" : text
  }
}
