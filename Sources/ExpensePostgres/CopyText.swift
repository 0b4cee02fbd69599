import ExpenseCore
import NIOCore

/// Rows in the text format of `COPY … FROM STDIN` (tab between columns, a newline after each
/// row, `\N` for NULL), cut into buffers of about `chunkBytes` for `BlockingConnection.copy`.
///
/// Why text: postgres-nio 1.33.2's `copyFrom` speaks only the text format. Every text is
/// escaped (backslash, tab, newline, carriage return: what the format gives a meaning), so
/// any description arrives byte for byte as a bound parameter would; numbers are written as
/// decimal digits without a `String` each, because a million rows make six million of them.
struct CopyText {
  static let chunkBytes = 256 * 1024
  private(set) var buffers: [ByteBuffer] = []
  private var current: ByteBuffer

  init() {
    current = ByteBufferAllocator().buffer(capacity: Self.chunkBytes + 4096)
  }

  /// The buffers written so far, the last one included.
  mutating func finish() -> [ByteBuffer] {
    if current.readableBytes > 0 { buffers.append(current) }
    current = ByteBufferAllocator().buffer(capacity: 0)
    return buffers
  }

  /// Ends a row; starts a new buffer when this one is full.
  mutating func endRow() {
    current.writeInteger(UInt8(ascii: "\n"))
    if current.readableBytes >= Self.chunkBytes {
      buffers.append(current)
      current = ByteBufferAllocator().buffer(capacity: Self.chunkBytes + 4096)
    }
  }

  mutating func tab() { current.writeInteger(UInt8(ascii: "\t")) }

  mutating func null() { current.writeStaticString("\\N") }

  /// `value` in decimal.
  mutating func integer(_ value: Int64) {
    if value < 0 { current.writeInteger(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var start = 20
      repeat {
        start -= 1
        digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      current.writeBytes(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(digits)[start...]))
    }
  }

  /// `YYYY-MM-DD` of a date in `CivilDate.supportedRange` (four-digit years).
  mutating func date(_ date: CivilDate) {
    digits(date.year, width: 4)
    current.writeInteger(UInt8(ascii: "-"))
    digits(date.month, width: 2)
    current.writeInteger(UInt8(ascii: "-"))
    digits(date.day, width: 2)
  }

  private mutating func digits(_ value: Int, width: Int) {
    var divisor = 1
    for _ in 1..<width { divisor &*= 10 }
    var rest = value
    while divisor > 0 {
      current.writeInteger(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: (rest / divisor) % 10))
      rest %= divisor
      divisor /= 10
    }
  }

  /// `text`, escaped; as is when nothing in it needs it (the usual case).
  mutating func text(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
      guard bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\\") }) else {
        current.writeBytes(bytes)
        return
      }
      for byte in bytes {
        switch byte {
        case UInt8(ascii: "\\"): current.writeStaticString("\\\\")
        case UInt8(ascii: "\t"): current.writeStaticString("\\t")
        case UInt8(ascii: "\n"): current.writeStaticString("\\n")
        case UInt8(ascii: "\r"): current.writeStaticString("\\r")
        default: current.writeInteger(byte)
        }
      }
    }
  }
}
