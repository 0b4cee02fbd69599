/// A small record of a ledger's that the service defines and the store only keeps: a budget
/// move, a goal. Its `kind` names what it is, its `id` is never given twice within the kind (a
/// removed record's id included), and its `body` is the service's JSON, which no store reads.
///
/// Why one table of records rather than a table per feature: each of these is a handful of
/// rows a user types, read whole by the service; a table per kind would cost a migration and a
/// function in each store for every feature, where this costs the service a `Codable` type.
public struct StoredRecord: Hashable, Sendable {
  public var kind: String
  public var id: Int64
  public var body: String

  public init(kind: String, id: Int64, body: String) {
    self.kind = kind
    self.id = id
    self.body = body
  }
}
