import ExpenseStore

/// The one JSON object of a recorded import: `imports list --format json` and the HTTP API's
/// `ImportRecord`: id, file, importedAt (ISO 8601 UTC, null when unknown), rows added, the
/// first and last date (YYYY-MM-DD) and the id range.
public struct ImportRecordResource: Encodable, Sendable {
  public var record: ImportRecord

  public init(_ record: ImportRecord) { self.record = record }

  enum CodingKeys: String, CodingKey { case id, file, importedAt, rows, firstDate, lastDate, firstId, lastId }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(record.id, forKey: .id)
    try c.encode(record.file, forKey: .file)
    try c.encode(record.importedAt, forKey: .importedAt)  // null, not absent, when unknown
    try c.encode(record.rows, forKey: .rows)
    try c.encode(record.firstDate.description, forKey: .firstDate)
    try c.encode(record.lastDate.description, forKey: .lastDate)
    try c.encode(record.firstId, forKey: .firstId)
    try c.encode(record.lastId, forKey: .lastId)
  }
}
