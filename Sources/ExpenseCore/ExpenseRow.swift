/// One stored expense as a streaming read hands it to its visitor: the values of an `Expense`
/// with its texts as borrowed UTF-8 bytes.
///
/// Why not an `Expense`: a listing of a million rows would make four `String`s per row only to
/// copy their bytes out again. Here the texts point into the store's current row (or into the
/// `String`s of an `Expense`, see `withRow`) and stay valid only during the visitor's call:
/// never keep a buffer, copy it or make an `Expense` (`expense`).
///
/// Every text is valid UTF-8 without NUL and holds exactly the bytes of the `String` the
/// store's array reads give for that row, so a renderer that copies the bytes writes what it
/// would write from the `Expense`.
public struct ExpenseRow {
  public var id: Int64?
  public var date: CivilDate
  public var amount: Money
  public var description: UnsafeBufferPointer<UInt8>
  public var category: UnsafeBufferPointer<UInt8>?
  public var account: UnsafeBufferPointer<UInt8>?
  /// `Expense.source`'s file; `nil` for a row added by hand.
  public var sourceFile: UnsafeBufferPointer<UInt8>?
  /// `Expense.source`'s line (meaningful only with `sourceFile`).
  public var sourceLine: Int

  public init(
    id: Int64?, date: CivilDate, amount: Money, description: UnsafeBufferPointer<UInt8>,
    category: UnsafeBufferPointer<UInt8>?, account: UnsafeBufferPointer<UInt8>?,
    sourceFile: UnsafeBufferPointer<UInt8>?, sourceLine: Int
  ) {
    self.id = id
    self.date = date
    self.amount = amount
    self.description = description
    self.category = category
    self.account = account
    self.sourceFile = sourceFile
    self.sourceLine = sourceLine
  }

  /// The row as an `Expense` (its texts copied into `String`s), for the rare row a renderer
  /// handles through its general path.
  public var expense: Expense {
    Expense(
      id: id, date: date, amount: amount, description: ExpenseRow.string(description),
      category: category.map(ExpenseRow.string), account: account.map(ExpenseRow.string),
      source: sourceFile.map { Expense.Source(file: ExpenseRow.string($0), line: sourceLine) })
  }

  /// Calls `body` with `expense` seen as a row: for a store that reads whole `Expense`s, and
  /// for a row a store had to decode the slow way.
  public static func withRow<R>(of expense: Expense, _ body: (ExpenseRow) throws -> R) rethrows -> R {
    var description = expense.description
    var category = expense.category
    var account = expense.account
    var file = expense.source?.file
    return try description.withUTF8 { d in
      try withOptionalUTF8(&category) { c in
        try withOptionalUTF8(&account) { a in
          try withOptionalUTF8(&file) { f in
            try body(
              ExpenseRow(
                id: expense.id, date: expense.date, amount: expense.amount, description: d, category: c, account: a,
                sourceFile: f, sourceLine: expense.source?.line ?? 0))
          }
        }
      }
    }
  }

  /// The bytes as a `String` (they are valid UTF-8: see the type).
  public static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    String(decoding: bytes, as: UTF8.self)
  }

  private static func withOptionalUTF8<R>(
    _ text: inout String?, _ body: (UnsafeBufferPointer<UInt8>?) throws -> R
  ) rethrows -> R {
    guard var value = text else { return try body(nil) }
    return try value.withUTF8 { try body($0) }
  }
}
