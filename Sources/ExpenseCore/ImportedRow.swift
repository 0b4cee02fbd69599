/// One validated transaction row read from a file, as the importer makes it and the store
/// keeps it: the one row type between `ExpenseImport` and `ExpenseStore` (neither copies it
/// into a type of its own).
public struct ImportedRow: Sendable, Equatable {
  /// The stable 64-bit FNV-1a fingerprint (see `Fingerprint` in ExpenseImport).
  public let fingerprintHash: UInt64
  /// `ExpenseKey(date:fingerprintHash:).rawValue`, computed once: batches sort by it.
  public let key: Int64
  /// 1-based physical line the record starts on.
  public var line: Int
  public let date: CivilDate
  /// Signed amount: negative is money out; fees already included.
  public var amount: Money
  /// Trimmed, whitespace-collapsed description.
  public var description: String
  /// The stored spelling of the category, or nil.
  public private(set) var category: String?
  public var account: String?
  /// Where `category` came from: the file's column unless set otherwise; none without one.
  public private(set) var categorySource: CategorySource
  /// Non-zero for the parts of one split transaction (a QIF record with `S`/`$` lines): the
  /// parts of one record share the number, unique within the file. The store keeps the parts
  /// together (see `StoreError.splitPart`); 0 for every ordinary row.
  public var splitGroup: Int = 0
  /// The key an earlier version gave this row when it dated it otherwise (a card payment was
  /// dated when the bank booked it, and is now dated when the card was used), or nil. The key
  /// holds the day, so the row's own key cannot find the row that version stored: a stored row
  /// with this key is this row too, and the store counts it a duplicate, so a statement
  /// imported then is never stored twice.
  public var formerKey: Int64?

  public init(
    line: Int, date: CivilDate, amount: Money, description: String, category: String?, account: String?,
    fingerprintHash: UInt64, categorySource: CategorySource? = nil
  ) {
    self.fingerprintHash = fingerprintHash
    key = ExpenseKey(date: date, fingerprintHash: fingerprintHash).rawValue
    self.line = line
    self.date = date
    self.amount = amount
    self.description = description
    self.category = category
    self.account = account
    self.categorySource = category == nil ? .none : categorySource ?? .file
  }

  /// Sets the category and where it came from (none when `name` is nil).
  public mutating func setCategory(_ name: String?, source: CategorySource) {
    category = name
    categorySource = name == nil ? .none : source
  }

  /// The fingerprint as 16 hex digits (made on demand: the import binds the integer).
  public var fingerprint: String {
    let hex = String(fingerprintHash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }
}
