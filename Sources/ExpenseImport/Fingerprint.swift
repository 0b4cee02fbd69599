import ExpenseCore

/// A stable row fingerprint: 64-bit FNV-1a over
/// `account|YYYY-MM-DD|CUR|amountMinor|description|occurrence`, as 16 lower-case hex digits.
///
/// `description` is the normalized description with ASCII letters lower-cased; `account` is
/// `--account` or the account column (empty when neither); `amountMinor` is the signed decimal
/// integer of minor units. The hash does not depend on the process (unlike `Hasher`), so
/// re-importing a file, or an overlapping export of the same account, gives the same strings.
public enum Fingerprint {
  static let offset: UInt64 = 0xcbf2_9ce4_8422_2325
  static let prime: UInt64 = 0x0000_0100_0000_01b3

  /// Every byte with ASCII `A`–`Z` lower-cased, as a table (one load instead of a compare and
  /// a select per byte in the description loop). Never freed: 256 bytes for the process.
  nonisolated(unsafe) static let lowercase: UnsafePointer<UInt8> = {
    let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    for b in 0...255 { table[b] = UInt8(b) &- 0x41 < 26 ? UInt8(b) | 0x20 : UInt8(b) }
    return UnsafePointer(table)
  }()

  /// FNV-1a state, fed piece by piece.
  struct Hasher64 {
    var state: UInt64 = Fingerprint.offset

    @inline(__always)
    mutating func byte(_ b: UInt8) {
      state = (state ^ UInt64(b)) &* Fingerprint.prime
    }

    mutating func bytes(_ p: UnsafeBufferPointer<UInt8>) {
      var s = state
      for b in p { s = (s ^ UInt64(b)) &* Fingerprint.prime }
      state = s
    }

    mutating func lowercasedBytes(_ p: UnsafeBufferPointer<UInt8>) {
      var s = state
      for b in p {
        let c = b &- 0x41 < 26 ? b | 0x20 : b
        s = (s ^ UInt64(c)) &* Fingerprint.prime
      }
      state = s
    }

    mutating func string(_ s: String) {
      for b in s.utf8 { byte(b) }
    }

    @inline(__always)
    mutating func decimal(_ value: Int64) {
      if value < 0 { byte(0x2D) }
      var magnitude = value.magnitude
      if magnitude < 100_000_000 {
        // Up to 8 digits, packed most significant first in the low byte.
        var packed: UInt64 = 0
        var count = 0
        repeat {
          packed = packed &<< 8 | (magnitude % 10 &+ 0x30)
          magnitude /= 10
          count &+= 1
        } while magnitude > 0
        var s = state
        for _ in 0..<count {
          s = (s ^ (packed & 0xFF)) &* Fingerprint.prime
          packed &>>= 8
        }
        state = s
        return
      }
      decimalDigits(magnitude)
    }

    mutating func decimalDigits(_ value: UInt64) {
      var magnitude = value
      var digits:
        (
          UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
          UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
        ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
      var count = 0
      withUnsafeMutableBytes(of: &digits) { buffer in
        repeat {
          buffer[count] = UInt8(magnitude % 10) + 0x30
          magnitude /= 10
          count += 1
        } while magnitude > 0
        for i in stride(from: count - 1, through: 0, by: -1) { byte(buffer[i]) }
      }
    }

    mutating func date(_ d: CivilDate) {
      let y = d.year
      byte(UInt8(y / 1000 % 10) + 0x30)
      byte(UInt8(y / 100 % 10) + 0x30)
      byte(UInt8(y / 10 % 10) + 0x30)
      byte(UInt8(y % 10) + 0x30)
      byte(0x2D)
      byte(UInt8(d.month / 10) + 0x30)
      byte(UInt8(d.month % 10) + 0x30)
      byte(0x2D)
      byte(UInt8(d.day / 10) + 0x30)
      byte(UInt8(d.day % 10) + 0x30)
    }

    var hex: String {
      let v = state
      return String(unsafeUninitializedCapacity: 16) { buffer in
        for i in 0..<16 {
          let nibble = UInt8((v >> UInt64(60 - 4 * i)) & 0xF)
          buffer[i] = nibble < 10 ? nibble + 0x30 : nibble + 0x57
        }
        return 16
      }
    }
  }

  /// The fingerprint of one row (the same function the importer uses).
  public static func make(
    account: String, date: CivilDate, currency: Currency, amountMinor: Int64, description: String, occurrence: Int
  ) -> String {
    var h = base(account: account, date: date, currency: currency, amountMinor: amountMinor, description: description)
    finish(&h, occurrence: occurrence)
    return h.hex
  }

  static func base(account: String, date: CivilDate, currency: Currency, amountMinor: Int64, description: String)
    -> Hasher64
  {
    var h = Hasher64()
    h.string(account)
    h.byte(0x7C)
    h.date(date)
    h.byte(0x7C)
    h.string(currency.code)
    h.byte(0x7C)
    h.decimal(amountMinor)
    h.byte(0x7C)
    var text = description
    text.withUTF8 { h.lowercasedBytes($0) }
    return h
  }

  @inline(__always)
  static func finish(_ h: inout Hasher64, occurrence: Int) {
    h.byte(0x7C)
    if occurrence >= 0 && occurrence < 10 {
      h.byte(UInt8(truncatingIfNeeded: occurrence) &+ 0x30)
    } else {
      h.decimal(Int64(occurrence))
    }
  }
}

/// Numbers identical rows within one file: 1 for the first, 2 for the second, …
///
/// Memory stays bounded for sorted files: while the dates are monotonic (ascending or
/// descending) only the current date's rows are remembered and the map is cleared when the
/// date changes. The first time the order breaks, the counter stops clearing and keeps every
/// row from then on (`becameUnsorted` reports it once). Rows of a date that was already
/// cleared before the break start counting at 1 again: an exact duplicate split across an
/// unsorted file can then get the fingerprint of its twin (a documented limitation).
struct OccurrenceCounter {
  var counts = OccurrenceTable()
  var currentDay: Int?
  var direction = 0
  var keepAll = false

  /// Returns the occurrence for a row key (the base hash) on a day; `unsortedNow` is true once.
  @inline(__always)
  mutating func next(day: Int, key: UInt64) -> (occurrence: Int, unsortedNow: Bool) {
    var unsortedNow = false
    if let current = currentDay, current != day {
      if !keepAll {
        let step = day > current ? 1 : -1
        if direction == 0 { direction = step }
        if step == direction {
          counts.removeAll()
        } else {
          keepAll = true
          unsortedNow = true
        }
      }
    }
    currentDay = day
    return (Int(counts.increment(key)), unsortedNow)
  }
}

/// A count per 64-bit key: open addressing with linear probing, keys used as their own hash
/// (they are FNV hashes), and `removeAll` in O(1) by bumping a stamp instead of clearing slots.
final class OccurrenceTable {
  struct Storage {
    var keys: UnsafeMutablePointer<UInt64>
    /// Per slot: stamp << 32 | count; a slot is in use when its stamp is the current one.
    var slots: UnsafeMutablePointer<UInt64>
    var mask: Int
    var count = 0
    var stamp: UInt64 = 1
  }

  /// Mutable state behind one pointer: no exclusivity checks on the hot path.
  let s: UnsafeMutablePointer<Storage>

  init() {
    let capacity = 256
    s = .allocate(capacity: 1)
    s.initialize(
      to: Storage(keys: .allocate(capacity: capacity), slots: .allocate(capacity: capacity), mask: capacity - 1))
    s.pointee.slots.initialize(repeating: 0, count: capacity)
  }

  deinit {
    s.pointee.keys.deallocate()
    s.pointee.slots.deallocate()
    s.deinitialize(count: 1)
    s.deallocate()
  }

  /// Number of keys.
  var count: Int { s.pointee.count }

  /// Forgets every key.
  func removeAll() {
    s.pointee.count = 0
    s.pointee.stamp &+= 1
    if s.pointee.stamp == 1 << 32 {  // the stamp wrapped: old slots could look current again
      s.pointee.stamp = 1
      s.pointee.slots.update(repeating: 0, count: s.pointee.mask + 1)
    }
  }

  @inline(__always)
  static func home(_ key: UInt64, _ mask: Int) -> Int {
    Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) &>> 32) & mask
  }

  /// Adds one to the key's count and returns the new count.
  @inline(__always)
  func increment(_ key: UInt64) -> UInt32 {
    let st = s
    let stamp = st.pointee.stamp << 32
    let mask = st.pointee.mask
    var i = OccurrenceTable.home(key, mask)
    while true {
      let slot = st.pointee.slots[i]
      if slot & 0xFFFF_FFFF_0000_0000 != stamp { break }
      if st.pointee.keys[i] == key {
        st.pointee.slots[i] = slot &+ 1
        return UInt32(truncatingIfNeeded: slot &+ 1)
      }
      i = (i &+ 1) & mask
    }
    st.pointee.keys[i] = key
    st.pointee.slots[i] = stamp | 1
    st.pointee.count &+= 1
    if st.pointee.count * 4 > (mask + 1) * 3 { grow() }
    return 1
  }

  func grow() {
    let old = s.pointee
    let capacity = (old.mask + 1) * 2
    let keys = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
    let slots = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
    slots.initialize(repeating: 0, count: capacity)
    let mask = capacity - 1
    let stamp = old.stamp << 32
    for j in 0...old.mask where old.slots[j] & 0xFFFF_FFFF_0000_0000 == stamp {
      var i = OccurrenceTable.home(old.keys[j], mask)
      while slots[i] != 0 { i = (i &+ 1) & mask }
      keys[i] = old.keys[j]
      slots[i] = old.slots[j]
    }
    old.keys.deallocate()
    old.slots.deallocate()
    s.pointee.keys = keys
    s.pointee.slots = slots
    s.pointee.mask = mask
  }
}
