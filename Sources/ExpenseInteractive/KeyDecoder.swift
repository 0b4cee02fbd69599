/// Turns the bytes read from a terminal in raw mode into `Key`s.
///
/// Bytes may arrive split anywhere (an escape sequence over two reads, half a UTF-8
/// character), so whatever does not yet form a whole key waits in `pending`. A lone ESC cannot
/// be told from the start of a sequence until the terminal pauses: the driver calls `flush()`
/// when no more bytes came within a short wait, and then it is the Escape key.
public struct KeyDecoder: Sendable {
  private var pending: [UInt8] = []

  public init() {}

  /// Whether bytes wait for more (the driver then reads with a short timeout and `flush`es).
  public var hasPending: Bool { !pending.isEmpty }

  /// Adds `bytes` and returns every key they complete.
  public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Key] {
    pending.append(contentsOf: bytes)
    var keys: [Key] = []
    var index = 0
    while index < pending.count {
      guard let (key, used) = decode(at: index) else { break }
      if let key { keys.append(key) }
      index += used
    }
    pending.removeFirst(index)
    return keys
  }

  /// The keys of whatever waits, taken as complete: a lone ESC is Escape, a cut sequence is
  /// dropped after its ESC.
  public mutating func flush() -> [Key] {
    guard !pending.isEmpty else { return [] }
    // Only an unfinished key can wait: a lone ESC is Escape; ESC with the start of a sequence
    // whose end never came is dropped whole (its `[` is not the previous-month key).
    let keys: [Key] = pending == [0x1B] ? [.escape] : []
    pending.removeAll()
    return keys
  }

  /// The key starting at `index` and how many bytes it used (`nil` key: bytes ignored);
  /// `nil` when more bytes are needed.
  private func decode(at index: Int) -> (Key?, Int)? {
    let byte = pending[index]
    switch byte {
    case 0x1B: return escape(at: index)
    case 0x0D, 0x0A: return (.enter, 1)
    case 0x7F, 0x08: return (.backspace, 1)
    case 0x09: return (.tab, 1)
    case 0x03: return (.interrupt, 1)
    case 0x0C: return (.redraw, 1)
    case 0x00..<0x20: return (nil, 1)
    case 0x20..<0x7F: return (.character(Character(Unicode.Scalar(byte))), 1)
    default: return utf8(at: index)
    }
  }

  private func escape(at index: Int) -> (Key?, Int)? {
    guard index + 1 < pending.count else { return nil }
    switch pending[index + 1] {
    case UInt8(ascii: "["): return csi(at: index)
    case UInt8(ascii: "O"):
      guard index + 2 < pending.count else { return nil }
      return (final(pending[index + 2], parameters: []), 3)
    default:
      return (.escape, 1)  // Escape, then whatever follows as a key of its own (Alt+key)
    }
  }

  /// `ESC [ parameters final`: arrows, Home/End, PgUp/PgDn and SGR mouse reports.
  private func csi(at index: Int) -> (Key?, Int)? {
    var end = index + 2
    while end < pending.count, !(0x40...0x7E).contains(pending[end]) {
      if end - index > 32 { return (nil, end - index) }  // not a sequence we know: drop it
      end += 1
    }
    guard end < pending.count else { return nil }
    let body = pending[(index + 2)..<end]
    let used = end - index + 1
    let finalByte = pending[end]
    if body.first == UInt8(ascii: "<") {
      return (mouse(body.dropFirst(), pressed: finalByte == UInt8(ascii: "M")), used)
    }
    let parameters = String(decoding: body, as: UTF8.self).split(separator: ";").map { Int($0) ?? 0 }
    return (final(finalByte, parameters: parameters), used)
  }

  private func final(_ byte: UInt8, parameters: [Int]) -> Key? {
    switch byte {
    case UInt8(ascii: "A"): return .up
    case UInt8(ascii: "B"): return .down
    case UInt8(ascii: "C"): return .right
    case UInt8(ascii: "D"): return .left
    case UInt8(ascii: "H"): return .home
    case UInt8(ascii: "F"): return .end
    case UInt8(ascii: "~"):
      switch parameters.first ?? 0 {
      case 1, 7: return .home
      case 4, 8: return .end
      case 5: return .pageUp
      case 6: return .pageDown
      default: return nil
      }
    default: return nil
    }
  }

  /// `ESC [ < button ; column ; row M` (press) or `m` (release).
  private func mouse(_ body: ArraySlice<UInt8>, pressed: Bool) -> Key? {
    let numbers = String(decoding: body, as: UTF8.self).split(separator: ";").compactMap { Int($0) }
    guard numbers.count == 3 else { return nil }
    let (code, column, row) = (numbers[0], numbers[1], numbers[2])
    let action: MouseEvent.Action
    if code & 64 != 0 {
      action = code & 1 == 0 ? .wheelUp : .wheelDown
    } else if code & 32 != 0 {
      return nil  // motion while a button is held
    } else {
      action = pressed ? .press(button: code & 3) : .release
    }
    return .mouse(MouseEvent(action: action, column: column, row: row))
  }

  private func utf8(at index: Int) -> (Key?, Int)? {
    let lead = pending[index]
    let length: Int
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF4: length = 4
    default: return (nil, 1)  // a continuation byte or an invalid lead: skipped
    }
    guard index + length <= pending.count else { return nil }
    let bytes = pending[index..<(index + length)]
    guard bytes.dropFirst().allSatisfy({ $0 & 0xC0 == 0x80 }) else { return (nil, 1) }
    let text = String(decoding: bytes, as: UTF8.self)
    guard let character = text.first, text.unicodeScalars.allSatisfy({ $0.value >= 0xA0 }) else {
      return (nil, length)  // C1 controls never become text
    }
    return (.character(character), length)
  }
}
