/// One change as `expenses history` and `GET /v1/history` show it.
public struct HistoryChange: Sendable, Equatable, Encodable {
  /// The change's number: its own sequence, never given twice.
  public var id: Int64
  /// What kind of write (`History.Entry.action`).
  public var action: String
  /// One line saying what it did.
  public var summary: String
  /// Who made it: the user, and the token when it came over HTTP.
  public var by: String
  /// When, ISO 8601 in UTC.
  public var at: String
  /// Rows it touched.
  public var rows: Int
  /// The change an undo undid.
  public var undoes: Int64?
  /// The undo that undid this change, while that undo stands.
  public var undoneBy: Int64?
  /// Whether `undo` can reverse it now (kept, and not undone).
  public var undoable: Bool
}

/// What `undo` did: the change it undid, the undo as recorded (itself undoable), and one line
/// per thing it changed back.
public struct UndoResult: Sendable, Equatable, Encodable {
  public var undone: HistoryChange
  public var change: HistoryChange
  public var changedBack: [String]
}
