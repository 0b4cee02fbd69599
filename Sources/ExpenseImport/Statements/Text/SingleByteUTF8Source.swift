/// Windows-1252 to UTF-8 while streaming, for the line-based statement readers (OFX 1.x and 2,
/// QIF, MT940), which read UTF-8.
///
/// Why: the CSV importer decodes a single-byte file field by field (`TextDecoder`), so its
/// transcoder hands those bytes on as they are; a statement reader has no fields to decode and
/// would have read "é" (0xE9) as invalid UTF-8, storing U+FFFD. ISO-8859-1 is read as
/// Windows-1252 too, as browsers read it: its 0x80–0x9F are C1 controls nobody writes, and
/// banks that say 8859-1 write `€` as 0x80. The five bytes Windows-1252 leaves undefined (0x81,
/// 0x8D, 0x8F, 0x90, 0x9D) are passed on as they are: invalid UTF-8, which `UTF8CheckSource`
/// then refuses naming the byte (or `--replace-invalid` keeps as U+FFFD).
final class SingleByteUTF8Source: ByteSource {
  let inner: any ByteSource
  var raw = [UInt8](repeating: 0, count: 16 << 10)
  /// Converted bytes that did not fit the caller's buffer yet.
  var pending: [UInt8] = []
  var pendingStart = 0

  init(_ inner: any ByteSource) { self.inner = inner }

  func read(into buffer: UnsafeMutablePointer<UInt8>, capacity: Int) throws(ImportError) -> Int {
    guard capacity > 0 else { return 0 }
    if pendingStart == pending.count {
      pending.removeAll(keepingCapacity: true)
      pendingStart = 0
      let n = try raw.withUnsafeMutableBufferPointer { (p) throws(ImportError) -> Int in
        guard let base = p.baseAddress else { return 0 }
        return try inner.read(into: base, capacity: p.count)
      }
      if n == 0 { return 0 }
      for b in raw[0..<n] { SingleByteUTF8Source.append(b, to: &pending) }
    }
    let count = min(capacity, pending.count &- pendingStart)
    pending.withUnsafeBufferPointer { p in
      guard let base = p.baseAddress else { return }
      buffer.update(from: base + pendingStart, count: count)
    }
    pendingStart &+= count
    return count
  }

  /// The UTF-8 of Windows-1252 byte `b` (an undefined byte as it is).
  static func append(_ b: UInt8, to out: inout [UInt8]) {
    if b < 0x80 {
      out.append(b)
      return
    }
    var scalar = UInt32(b)
    if b < 0xA0 {
      let mapped = TextDecoder.cp1252[Int(b &- 0x80)]
      guard mapped != 0 else {
        out.append(b)
        return
      }
      scalar = UInt32(mapped)
    }
    if scalar < 0x800 {
      out.append(UInt8(0xC0 | (scalar >> 6)))
      out.append(UInt8(0x80 | (scalar & 0x3F)))
    } else {
      out.append(UInt8(0xE0 | (scalar >> 12)))
      out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
      out.append(UInt8(0x80 | (scalar & 0x3F)))
    }
  }

  /// `text` as the build before this reader existed stored it: its Windows-1252 bytes read as
  /// UTF-8, each invalid byte a U+FFFD. An entry's identity (`StatementEntry.identityDescription`)
  /// is computed from that text, so a file imported before comes in as duplicates, not twice.
  /// Exact for text this source made (each character is one byte again); U+FFFD (a byte kept by
  /// `--replace-invalid`) goes back to a byte that reads as U+FFFD.
  static func legacyText(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 >= 0x80 }) else { return text }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      let v = scalar.value
      if v < 0x80 || (v >= 0xA0 && v <= 0xFF) {
        bytes.append(UInt8(v))
      } else if let index = TextDecoder.cp1252.firstIndex(of: UInt16(truncatingIfNeeded: v)), v <= 0xFFFF {
        bytes.append(UInt8(0x80 &+ index))
      } else if v == 0xFFFD {
        bytes.append(0x81)
      } else {
        bytes.append(contentsOf: String(scalar).utf8)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
