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

    /// One byte into a state held in a local (the importer's description loop).
    @inline(__always)
    static func mix(_ state: UInt64, _ b: UInt8) -> UInt64 { (state ^ UInt64(b)) &* Fingerprint.prime }

    /// One byte, ASCII letters lower-cased through the table, into a state held in a local.
    @inline(__always)
    static func mixLowercased(_ state: UInt64, _ b: UInt8) -> UInt64 {
      (state ^ UInt64(Fingerprint.lowercase[Int(b)])) &* Fingerprint.prime
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
      let done: Void? = s.utf8.withContiguousStorageIfAvailable { bytes in
        var h = state
        for b in bytes { h = (h ^ UInt64(b)) &* Fingerprint.prime }
        state = h
      }
      if done == nil {
        for b in s.utf8 { byte(b) }
      }
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

  /// The fingerprint of one row, as 16 hex digits.
  public static func make(
    account: String, date: CivilDate, currency: Currency, amountMinor: Int64, description: String, occurrence: Int
  ) -> String {
    var h = Hasher64()
    h.state = hash(
      account: account, date: date, currency: currency, amountMinor: amountMinor, description: description,
      occurrence: occurrence)
    return h.hex
  }

  /// The fingerprint of one row: the definition. The importer computes the same value in
  /// stages from the field bytes (`prefix`, `amount`, the description's bytes through
  /// `Hasher64.mixLowercased`, `finish`); a property test holds the two equal.
  public static func hash(
    account: String, date: CivilDate, currency: Currency, amountMinor: Int64, description: String, occurrence: Int
  ) -> UInt64 {
    var h = prefix(account: account, date: date, currency: currency)
    amount(&h, amountMinor)
    var text = description
    text.withUTF8 { h.lowercasedBytes($0) }
    finish(&h, occurrence: occurrence)
    return h.state
  }

  /// Stage 1: `account|YYYY-MM-DD|CUR|` (the importer keeps it while the three stay the same).
  static func prefix(account: String?, date: CivilDate, currency: Currency) -> Hasher64 {
    var h = Hasher64()
    if let account { h.string(account) }
    h.byte(0x7C)
    h.date(date)
    h.byte(0x7C)
    h.string(currency.code)
    h.byte(0x7C)
    return h
  }

  /// Stage 2: `amountMinor|`.
  @inline(__always)
  static func amount(_ h: inout Hasher64, _ minor: Int64) {
    h.decimal(minor)
    h.byte(0x7C)
  }

  /// Stage 3 is the description's bytes, ASCII letters lower-cased; columns joined with " / ".
  /// Stage 4: `|occurrence`.
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
