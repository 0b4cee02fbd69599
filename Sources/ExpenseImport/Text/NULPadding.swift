/// NUL bytes at the very end of a file: some banks (and old mainframe exports) pad a statement to a
/// block size with 0x00. They are not text, and not a row: they are ignored, with a warning.
/// NULs anywhere else keep their meaning (a stray one is a control character in a field, shown as
/// ␀; many make the file binary).
enum NULPadding {
  /// The sample without the NULs that end it; for UTF-16 an even number is removed, so that the
  /// last character keeps its zero byte.
  static func trimmed(_ sample: [UInt8]) -> [UInt8] {
    guard sample.last == 0, let last = sample.lastIndex(where: { $0 != 0 }) else {
      return sample.last == 0 ? [] : sample
    }
    var trimmed = Array(sample[...last])
    if (sample.count - trimmed.count) % 2 == 1, let unicode = detectUnicode(trimmed, truncated: false),
      unicode.0 == .utf16le || unicode.0 == .utf16be
    {
      trimmed.append(0)
    }
    return trimmed
  }

  /// The warning for `count` NUL bytes ignored at the end.
  static func warning(_ count: Int64) -> String {
    "the file ends with \(count) NUL byte\(count == 1 ? "" : "s") (padding): ignored"
  }
}

/// Hands out the bytes of `inner` but holds back a run of NUL bytes until something other than
/// NUL follows it: at the end of the input the run is dropped and counted (`dropped`).
///
/// It sits after the transcoder, where a NUL byte is the character U+0000 in every encoding.
/// Only the end of each chunk is looked at, so the cost is nothing next to parsing.
final class TrailingNULSource: ByteSource {
  let inner: any ByteSource
  /// NULs read but not yet handed out: padding if the input ends after them.
  var held: Int64 = 0
  /// Bytes ready to hand out before reading on: held NULs that text followed, then that text.
  var ready: [UInt8] = []
  var readyOffset = 0
  /// NULs dropped at the end of the input.
  private(set) var dropped: Int64 = 0

  init(_ inner: any ByteSource) { self.inner = inner }

  func read(into buffer: UnsafeMutablePointer<UInt8>, capacity: Int) throws(ImportError) -> Int {
    if readyOffset < ready.count {
      let n = min(capacity, ready.count - readyOffset)
      ready.withUnsafeBufferPointer { p in
        if let base = p.baseAddress { buffer.update(from: base + readyOffset, count: n) }
      }
      readyOffset += n
      if readyOffset == ready.count {
        ready.removeAll(keepingCapacity: true)
        readyOffset = 0
      }
      return n
    }
    while true {
      let n = try inner.read(into: buffer, capacity: capacity)
      if n == 0 {
        dropped += held
        held = 0
        return 0
      }
      var end = n
      while end > 0 && buffer[end - 1] == 0 { end -= 1 }
      if end == 0 {
        held += Int64(n)  // nothing but NULs: hold them all
        continue
      }
      let trailing = Int64(n - end)
      if held == 0 {
        held = trailing
        return end
      }
      // Held NULs followed by text were not padding: they go out first, then the text (a rare
      // path: a chunk of a file that happened to end in NULs in the middle of the file).
      ready = [UInt8](repeating: 0, count: Int(held)) + UnsafeBufferPointer(start: buffer, count: end)
      readyOffset = 0
      held = trailing
      return try read(into: buffer, capacity: capacity)
    }
  }
}
