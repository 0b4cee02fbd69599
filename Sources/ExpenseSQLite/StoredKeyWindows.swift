import ExpenseCore
import Foundation
import GRDB
import GRDBSQLite

/// The keys the ledger held when an import's writer began, read on the parse thread through a
/// connection of its own (`StoredKeys`).
///
/// Why a second connection: the writer's connection is busy writing on another thread. In WAL
/// mode a reader sees the last commit and never waits for the writer; its read transaction
/// begins after the writer took the write lock (`ImportSession` makes this after its first
/// write), so no other commit can come between the two: the snapshot is what the writer's
/// duplicate check compares with, less this import's own rows (which a row of the same file
/// never duplicates: the occurrence number tells identical rows apart).
///
/// Keys are read a window of 32 days at a time (a range of the key, which starts with the day),
/// as the rows ask for them (the next one read ahead on a thread of its own,
/// `StoredKeyWindowPrefetch`), and kept sorted; the 8 windows asked last are kept. Memory follows
/// the rows stored in 8 × 32 days, not the ledger. A file whose dates jump about would read
/// windows over and over: past 64 reads with fewer than 64 lookups a read, or on any error,
/// every answer is false (unsure), and the writer checks every row as it would without it.
final class StoredKeyWindows: StoredKeys {
  static let dayBits: Int64 = 5
  static let windowsKept = 8

  /// The parse thread's connection (nil once closed), and the thread that reads ahead.
  private var reader: StoredKeyWindowReader?
  private var ahead: StoredKeyWindowPrefetch?
  /// The window read last, for the direction of the next one to read ahead.
  @exclusivity(unchecked) private var lastRead: Int64?
  /// The smallest and largest key stored: outside them nothing is.
  private let low: Int64
  private let high: Int64
  /// A window's keys in order, and where each of its days begins among them (the last entry:
  /// the count), so a lookup searches one day's keys. Its own memory, freed with it: the
  /// window asked last is searched through plain pointers to it (`current`), with no retain
  /// or copy of an array per lookup (they were a tenth of a re-import's parse thread).
  final class Window {
    let index: Int64
    let keys: UnsafeMutableBufferPointer<Int64>
    let dayStarts: UnsafeMutableBufferPointer<Int32>

    init(index: Int64, keys: [Int64], dayStarts: [Int32]) {
      self.index = index
      self.keys = .allocate(capacity: keys.count)
      _ = self.keys.initialize(from: keys)
      self.dayStarts = .allocate(capacity: dayStarts.count)
      _ = self.dayStarts.initialize(from: dayStarts)
    }

    deinit {
      keys.deallocate()
      dayStarts.deallocate()
    }
  }
  /// The windows kept, the one asked last first. Unchecked exclusivity: only the parse thread
  /// reads and changes them, one call at a time (a checked access is a lookup's cost again).
  @exclusivity(unchecked) private var windows: [Window] = [] {
    // The first window, as plain values: `windows` keeps it alive while it is first.
    didSet {
      current = windows.first.map { ($0.index, UnsafeBufferPointer($0.keys), UnsafeBufferPointer($0.dayStarts)) }
    }
  }
  @exclusivity(unchecked) private var current:
    (index: Int64, keys: UnsafeBufferPointer<Int64>, dayStarts: UnsafeBufferPointer<Int32>)?
  @exclusivity(unchecked) private(set) var reads = 0
  @exclusivity(unchecked) private(set) var lookups = 0
  @exclusivity(unchecked) private(set) var gaveUp = false

  /// A reader of the database `writer` writes, or nil when there is nothing to read (an empty
  /// ledger, a memory database, a file not in WAL mode) or it cannot be opened.
  static func open(beside writer: Database, low: Int64, high: Int64) -> StoredKeyWindows? {
    guard let name = sqlite3_db_filename(writer.sqliteConnection, "main") else { return nil }
    let path = String(cString: name)
    guard !path.isEmpty,
      (try? String.fetchOne(writer, sql: "PRAGMA journal_mode"))?.lowercased() == "wal"
    else { return nil }
    let windows = StoredKeyWindows(low: low, high: high)
    guard windows.begin(path: path) else { return nil }
    return windows
  }

  private init(low: Int64, high: Int64) {
    self.low = low
    self.high = high
  }

  /// Opens the connections read-only and begins their read transactions (the first read fixes
  /// a snapshot); the one that reads ahead is left out if it cannot be opened.
  private func begin(path: String) -> Bool {
    guard let reader = StoredKeyWindowReader(path: path) else { return false }
    self.reader = reader
    // The snapshots: the window of the newest stored day, read now by both, on the writer's thread.
    let newest = ExpenseKey(rawValue: high).day >> StoredKeyWindows.dayBits
    if let second = StoredKeyWindowReader(path: path), second.read(newest) != nil {
      ahead = StoredKeyWindowPrefetch(reader: second)
    }
    return bringForward(newest)
  }

  func contains(_ key: Int64) -> Bool {
    guard key >= low, key <= high, !gaveUp else { return false }
    lookups &+= 1
    let day = ExpenseKey(rawValue: key).day
    let index = day >> StoredKeyWindows.dayBits
    if current?.index != index && !bringForward(index) { return false }
    guard let (_, keys, dayStarts) = current else { return false }
    let offset = Int(day - (index << StoredKeyWindows.dayBits))
    let end = Int(dayStarts[offset + 1])
    var (lower, upper) = (Int(dayStarts[offset]), end)
    StoredKeyWindows.narrow(&lower, &upper, to: key, in: keys)
    while lower < upper {
      let middle = (lower + upper) >> 1
      if keys[middle] < key { lower = middle + 1 } else { upper = middle }
    }
    return lower < end && keys[lower] == key
  }

  /// Narrows `lower..<upper`, a day's keys in order, to the few around where `key` would
  /// be, by one interpolation: below a day's first 21 bits a key is its fingerprint's hash,
  /// spread evenly, so the guess lands within a few places of it. The range is narrowed only
  /// when its keys show that `key` belongs inside it; otherwise it is left whole, and the
  /// binary search that follows answers as before. (The binary search alone, eight or nine
  /// mispredicted steps a row, was a tenth of a re-import's parse thread.)
  static func narrow(_ lower: inout Int, _ upper: inout Int, to key: Int64, in keys: UnsafeBufferPointer<Int64>) {
    let reach = 8
    guard upper - lower > 4 * reach else { return }
    let (first, last) = (keys[lower], keys[upper - 1])
    guard first < key, key < last else { return }
    let fraction = Double(key - first) / Double(last - first)
    let guess = lower + Int(fraction * Double(upper - 1 - lower))
    let (from, to) = (max(lower, guess - reach), min(upper, guess + reach + 1))
    // The key's place is in from...to when keys[from] <= key and (to is the end or key < keys[to]).
    guard keys[from] <= key, to == upper || key < keys[to] else { return }
    (lower, upper) = (from, to)
  }

  /// Makes window `index` the first, read if not kept; false once given up.
  private func bringForward(_ index: Int64) -> Bool {
    if let kept = windows.firstIndex(where: { $0.index == index }) {
      windows.insert(windows.remove(at: kept), at: 0)
      return true
    }
    guard let window = read(index) else { return false }
    windows.insert(window, at: 0)
    if windows.count > StoredKeyWindows.windowsKept { windows.removeLast() }
    return true
  }

  /// Window `index` (days `index << dayBits` and the 31 after), read ahead or read now, and
  /// the next one in the direction the file goes asked for ahead; nil once given up.
  private func read(_ index: Int64) -> Window? {
    reads += 1
    if reads > 64 && lookups / reads < 64 { return giveUp() }
    guard let reader else { return giveUp() }
    let window: Window?
    if let prefetched = ahead?.take(index) { window = prefetched } else { window = reader.read(index) }
    guard let window else { return giveUp() }
    ahead?.ask(lastRead.map { $0 > index } == true ? index - 1 : index + 1)
    lastRead = index
    return window
  }

  private func giveUp() -> Window? {
    gaveUp = true
    windows = []
    return nil
  }

  /// Ends the read transaction and closes the connection; every answer after is false. Called
  /// once the parse thread has stopped, before the writer commits (a reader left open would
  /// hold back the WAL's checkpoint).
  func close() {
    gaveUp = true
    windows = []
    ahead?.stop()
    ahead = nil
    reader?.close()
    reader = nil
  }

  deinit { close() }
}
