/// Bytes on their way to an output (stdout, a file), collected into blocks: a streaming renderer
/// appends each row here, and a full block goes to `drain` in one piece.
///
/// Why: writing a million rows one `String` at a time costs a conversion and a call per piece;
/// here a row is a few copies into memory the buffer owns, and the output gets one write per
/// block (64 KiB). Memory stays one block plus the row being written, whatever the number of
/// rows: a row bigger than the block (a huge description) grows the buffer for itself, and the
/// buffer shrinks back after it is drained.
///
/// Appending never fails; `endRow()` drains a full block and `flush()` the rest, and they throw
/// what `drain` throws (a closed pipe, a full disk). Not copyable: it owns its memory.
public struct OutputBuffer: ~Copyable {
  /// The size of the blocks handed to `drain` (a block may be longer by the end of one row).
  public let blockSize: Int
  private var base: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  /// Bytes waiting to be drained.
  public private(set) var count = 0
  private let drain: (UnsafeRawBufferPointer) throws -> Void

  public init(blockSize: Int = 1 << 16, drain: @escaping (UnsafeRawBufferPointer) throws -> Void) {
    self.blockSize = max(1, blockSize)
    self.capacity = self.blockSize + 4096
    self.base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    self.drain = drain
  }

  deinit { base.deallocate() }

  /// Drains the block once it is full: call after each row.
  public mutating func endRow() throws {
    if count >= blockSize { try flush() }
  }

  /// Hands every waiting byte to `drain`.
  public mutating func flush() throws {
    guard count > 0 else { return }
    let pending = count
    count = 0
    defer {
      // A huge row grew the buffer: once drained, it goes back to the usual size.
      if capacity > 4 * blockSize {
        base.deallocate()
        capacity = blockSize + 4096
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
      }
    }
    try drain(UnsafeRawBufferPointer(start: base, count: pending))
  }

  /// Room for `extra` more bytes.
  @inline(__always)
  mutating func reserve(_ extra: Int) {
    if count + extra > capacity { grow(count + extra) }
  }

  private mutating func grow(_ needed: Int) {
    let newCapacity = max(needed, capacity * 2)
    let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    bigger.update(from: base, count: count)
    base.deallocate()
    base = bigger
    capacity = newCapacity
  }

  public mutating func append(_ byte: UInt8) {
    reserve(1)
    base[count] = byte
    count += 1
  }

  public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
    reserve(bytes.count)
    (base + count).update(from: source, count: bytes.count)
    count += bytes.count
  }

  /// Bytes made once and written often (`ExpenseJSONStream`'s pieces).
  public mutating func append(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { append($0) }
  }

  /// The UTF-8 bytes of `text`.
  public mutating func append(_ text: String) {
    var text = text
    text.withUTF8 { append($0) }
  }

  /// The bytes of a literal.
  public mutating func append(_ text: StaticString) {
    append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// `n` spaces (none when `n` is 0 or less).
  public mutating func appendSpaces(_ n: Int) {
    guard n > 0 else { return }
    reserve(n)
    (base + count).initialize(repeating: UInt8(ascii: " "), count: n)
    count += n
  }

  /// The last byte waiting, if any: for trimming what a row just wrote.
  var last: UInt8? { count > 0 ? base[count - 1] : nil }

  /// Drops the last `n` bytes written (never more than are waiting).
  mutating func removeLast(_ n: Int) { count -= min(n, count) }

  /// The bytes from `start` (a `count` taken earlier, in the same block) to the end.
  func bytes(from start: Int) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: base + start, count: count - start)
  }

  /// Writes a decimal integer: the sign when negative, then the digits.
  public mutating func appendInteger(_ value: Int64) {
    if value < 0 { append(UInt8(ascii: "-")) }
    appendDigits(value.magnitude, grouped: false)
  }

  /// The digits of `value`, with a comma between groups of three when `grouped`.
  mutating func appendDigits(_ value: UInt64, grouped: Bool) {
    var digits = 1
    var bound: UInt64 = 10
    while digits < 20 && value >= bound {
      digits += 1
      bound = bound &* 10
    }
    let length = grouped ? digits + (digits - 1) / 3 : digits
    reserve(length)
    // A local pointer, written backwards: `base` and `count` are not reloaded per digit.
    var cursor = base + count + length
    var remaining = value
    if grouped {
      var inGroup = 0
      repeat {
        if inGroup == 3 {
          cursor -= 1
          cursor.pointee = UInt8(ascii: ",")
          inGroup = 0
        }
        let next = remaining / 10
        cursor -= 1
        cursor.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining &- next &* 10)
        remaining = next
        inGroup += 1
      } while remaining > 0
    } else {
      repeat {
        let next = remaining / 10
        cursor -= 1
        cursor.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining &- next &* 10)
        remaining = next
      } while remaining > 0
    }
    count += length
  }

  /// `n` (0 through 9999) in exactly `width` (at most 4) digits, zeros in front: a date's parts.
  mutating func appendFixedDigits(_ n: Int, width: Int) {
    reserve(width)
    var cursor = base + count + width
    var remaining = n
    for _ in 0..<width {
      let next = remaining / 10
      cursor -= 1
      cursor.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining &- next &* 10)
      remaining = next
    }
    count += width
  }
}
