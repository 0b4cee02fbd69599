import ExpenseCore
import NIOCore

/// Rows in the text format of `COPY … FROM STDIN` (tab between columns, a newline after each
/// row, `\N` for NULL), cut into buffers of about `chunkBytes` for `BlockingConnection.copy`.
///
/// Why text: postgres-nio 1.33.2's `copyFrom` speaks only the text format. Every text is
/// escaped (backslash, tab, newline, carriage return: what the format gives a meaning), so
/// any description arrives byte for byte as a bound parameter would. Why raw memory: a million
/// rows are about 90 MB of text written a byte or a few at a time; through `ByteBuffer`'s
/// checked writes that was most of the writer thread's time (measured with perf), so a row is
/// written into a scratch area sized for it first (`reserve`), then copied out a chunk at a time.
final class CopyText {
  static let chunkBytes = 256 * 1024
  private(set) var buffers: [ByteBuffer] = []
  private var scratch: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  private var count = 0

  init() {
    capacity = Self.chunkBytes + 64 * 1024
    scratch = .allocate(capacity: capacity)
  }

  deinit { scratch.deallocate() }

  /// The buffers written so far, the last one included.
  func finish() -> [ByteBuffer] {
    cut()
    return buffers
  }

  /// Moves the scratch area's bytes into a buffer of their own.
  private func cut() {
    guard count > 0 else { return }
    buffers.append(ByteBuffer(bytes: UnsafeBufferPointer(start: scratch, count: count)))
    count = 0
  }

  /// Makes room for `bytes` more: the bytes written so far go out as a chunk when the area is
  /// full; a row larger than the area (a huge description) grows it.
  func reserve(_ bytes: Int) {
    if count + bytes <= capacity { return }
    cut()
    if bytes > capacity {
      scratch.deallocate()
      capacity = bytes
      scratch = .allocate(capacity: capacity)
    }
  }

  /// The most bytes `text(_:)` writes for a text of `utf8Count` bytes, and `integer` or
  /// `date` with the separator after it.
  static func textBytes(_ utf8Count: Int) -> Int { 2 * utf8Count + 1 }
  static let fieldBytes = 22

  /// Ends a row (after `reserve` was given room for it); cuts a chunk once enough is written.
  func endRow() {
    scratch[count - 1] = UInt8(ascii: "\n")
    if count >= Self.chunkBytes { cut() }
  }

  private func byte(_ value: UInt8) {
    scratch[count] = value
    count &+= 1
  }

  /// `\N`, then a tab.
  func null() {
    byte(UInt8(ascii: "\\"))
    byte(UInt8(ascii: "N"))
    byte(UInt8(ascii: "\t"))
  }

  /// `value` in decimal, then a tab.
  func integer(_ value: Int64) {
    if value < 0 { byte(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    var digits = 1
    var power: UInt64 = 10
    while digits < 20 && magnitude >= power {
      digits &+= 1
      power = power &* 10
    }
    var end = count &+ digits
    count = end
    repeat {
      end &-= 1
      scratch[end] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
      magnitude /= 10
    } while magnitude > 0
    byte(UInt8(ascii: "\t"))
  }

  /// `YYYY-MM-DD` of a date in `CivilDate.supportedRange` (four-digit years), then a tab.
  func date(_ date: CivilDate) {
    digits(date.year, width: 4)
    byte(UInt8(ascii: "-"))
    digits(date.month, width: 2)
    byte(UInt8(ascii: "-"))
    digits(date.day, width: 2)
    byte(UInt8(ascii: "\t"))
  }

  private func digits(_ value: Int, width: Int) {
    var rest = value
    var index = count &+ width
    count = index
    for _ in 0..<width {
      index &-= 1
      scratch[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
      rest /= 10
    }
  }

  /// `text`, escaped, then a tab.
  func text(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
      if !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\\") }), let base = bytes.baseAddress {
        (scratch + count).update(from: base, count: bytes.count)
        count &+= bytes.count
      } else {
        for value in bytes {
          switch value {
          case UInt8(ascii: "\\"): escaped(UInt8(ascii: "\\"))
          case UInt8(ascii: "\t"): escaped(UInt8(ascii: "t"))
          case UInt8(ascii: "\n"): escaped(UInt8(ascii: "n"))
          case UInt8(ascii: "\r"): escaped(UInt8(ascii: "r"))
          default: byte(value)
          }
        }
      }
    }
    byte(UInt8(ascii: "\t"))
  }

  private func escaped(_ letter: UInt8) {
    byte(UInt8(ascii: "\\"))
    byte(letter)
  }
}
