import ExpenseCore
import ExpenseStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The rows of one date, copied out of SQLite as they are read in key order, to be visited in
/// id order (see `DateOrderCheck`): the only rows a grouped read holds, at most
/// `DateOrderCheck.runLimit` of them. The storage is kept from one date to the next, so after
/// the first dates nothing is allocated.
///
/// A row that did not decode keeps its error at its place in the order: the read fails where
/// `ORDER BY` would have met the row, after the rows before it were visited.
struct DateRunBuffer {
  /// A row's values; its currency by index in `currencies` (no reference counting per row).
  private struct Entry {
    var id: Int64
    var date: CivilDate
    var minor: Int64
    var currency: Int
    var description: Range<Int>
    var category: Range<Int>?
    var account: Range<Int>?
    var file: Range<Int>?
    var line: Int
  }

  private var entries: [Entry] = []
  /// Each entry's id and index, sorted to visit them: moving two integers, not whole entries.
  private var order: [(id: Int64, index: Int)] = []
  /// The texts of `entries`, one after another.
  private var arena: [UInt8] = []
  /// Errors of the rows that did not decode, by id.
  private var failures: [Int64: any Error] = [:]
  /// The currencies of the rows read so far (a handful).
  private var currencies: [Currency] = []

  /// The stored `date` bytes of the run (nil before the first row).
  private(set) var date: [UInt8]?
  /// The run's rows are read again by SQL instead of held (`leaveToSQL`).
  private(set) var readBySQL = false

  var isEmpty: Bool { entries.isEmpty && failures.isEmpty }
  /// The rows held, decoded or not.
  var count: Int { entries.count + failures.count }

  /// Whether `bytes` are this run's date.
  func holds(date bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let date, date.count == bytes.count else { return false }
    return date.withUnsafeBufferPointer { stored in
      guard let a = stored.baseAddress, let b = bytes.baseAddress else { return true }
      return memcmp(a, b, bytes.count) == 0
    }
  }

  /// Starts the run of another date (the buffer is empty: emitted or cleared).
  mutating func begin(date bytes: UnsafeBufferPointer<UInt8>) {
    clear()
    if date == nil { date = [] }
    date?.removeAll(keepingCapacity: true)
    date?.append(contentsOf: bytes)
  }

  /// Holds no more rows of this date: they are to be read again by SQL.
  mutating func leaveToSQL() {
    clear()
    readBySQL = true
  }

  /// Copies a decoded row (its id is the stored one, an INTEGER).
  mutating func add(_ row: ExpenseRow, id: Int64) {
    let currency: Int
    if let last = currencies.indices.last, currencies[last] == row.amount.currency {
      currency = last
    } else if let known = currencies.firstIndex(of: row.amount.currency) {
      currency = known
    } else {
      currencies.append(row.amount.currency)
      currency = currencies.count - 1
    }
    entries.append(
      Entry(
        id: id, date: row.date, minor: row.amount.minor, currency: currency, description: copy(row.description),
        category: row.category.map { copy($0) }, account: row.account.map { copy($0) },
        file: row.sourceFile.map { copy($0) }, line: row.sourceLine))
  }

  private mutating func copy(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
    let start = arena.count
    arena.append(contentsOf: bytes)
    return start..<arena.count
  }

  /// A row that did not decode.
  mutating func add(failure: any Error, id: Int64) {
    if failures[id] != nil { hasTwiceAFailedId = true }
    failures[id] = failure
  }

  /// Two rows that did not decode had one id: their order is not the id's.
  private var hasTwiceAFailedId = false

  /// Slots by id for `putInOrder`: the index of the entry with that id, or -1.
  private var slots: [Int32] = []

  /// Fills `order` with the entries by id; false when two have one id. A day's rows of one
  /// file have ids close together (a file's rows are numbered in file order), so when the ids
  /// span at most four times as many numbers as there are rows, each is put in its slot (one
  /// pass, no comparisons; the sort was 3% of a 1M-row text list's instructions); else they are
  /// sorted.
  private mutating func putInOrder(descending: Bool) -> Bool {
    guard let first = entries.first else { return true }
    var low = first.id
    var high = first.id
    for entry in entries {
      low = min(low, entry.id)
      high = max(high, entry.id)
    }
    let (span, overflow) = high.subtractingReportingOverflow(low)
    if !overflow && span < 4 * Int64(entries.count) {
      slots.removeAll(keepingCapacity: true)
      slots.append(contentsOf: repeatElement(-1, count: Int(span) + 1))
      for (index, entry) in entries.enumerated() {
        let slot = Int(entry.id &- low)
        if slots[slot] >= 0 { return false }
        slots[slot] = Int32(index)
      }
      if descending {
        for slot in slots.indices.reversed() where slots[slot] >= 0 {
          order.append((low &+ Int64(slot), Int(slots[slot])))
        }
      } else {
        for slot in slots.indices where slots[slot] >= 0 { order.append((low &+ Int64(slot), Int(slots[slot]))) }
      }
      return true
    }
    for (index, entry) in entries.enumerated() { order.append((entry.id, index)) }
    order.sort { descending ? $0.id > $1.id : $0.id < $1.id }
    for index in order.indices.dropFirst() where order[index].id == order[index - 1].id { return false }
    return true
  }

  /// Empties the buffer (its date stays), keeping its storage.
  mutating func clear() {
    entries.removeAll(keepingCapacity: true)
    order.removeAll(keepingCapacity: true)
    arena.removeAll(keepingCapacity: true)
    failures.removeAll()
    hasTwiceAFailedId = false
    readBySQL = false
  }

  /// Visits the rows by id (descending or ascending) and empties the buffer; or visits
  /// nothing and returns false when they are left to SQL, or when two rows have one id (a
  /// tie only the key orders, which these rows do not carry).
  mutating func emit(descending: Bool, _ body: (ExpenseRow) throws -> Void) throws -> Bool {
    defer { clear() }
    if readBySQL { return false }
    guard putInOrder(descending: descending) else { return false }
    if hasTwiceAFailedId || (!failures.isEmpty && order.contains { failures[$0.id] != nil }) { return false }
    // Only the first failure in the order matters: the read ends there.
    let failed = descending ? failures.keys.max() : failures.keys.min()
    try arena.withUnsafeBufferPointer { texts in
      func text(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: texts[range]) }
      for (_, index) in order {
        let entry = entries[index]
        if let failed, descending ? failed > entry.id : failed < entry.id { break }
        try body(
          ExpenseRow(
            id: entry.id, date: entry.date, amount: Money(minor: entry.minor, currency: currencies[entry.currency]),
            description: text(entry.description),
            category: entry.category.map(text), account: entry.account.map(text), sourceFile: entry.file.map(text),
            sourceLine: entry.line))
      }
    }
    if let failed, let failure = failures[failed] { throw failure }
    return true
  }
}
