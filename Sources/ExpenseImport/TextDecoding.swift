/// How field bytes (after any UTF-16 transcoding) become Strings.
enum FieldText: Sendable, Equatable {
  /// UTF-8, invalid bytes are an error (`--encoding utf-8`, or UTF-16 input).
  case utf8Strict
  /// UTF-8 detected from the sample; a field with invalid bytes is read as Windows-1252.
  case utf8Fallback
  case windows1252
  case latin1
}

/// Converts field bytes to text; keeps one scratch buffer so decoding does not allocate twice.
struct TextDecoder {
  var mode: FieldText
  var scratch: [UInt8] = []
  /// Set when a `utf8Fallback` field had to be read as Windows-1252.
  var usedFallback = false

  init(mode: FieldText) { self.mode = mode }

  static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    for b in bytes where b >= 0x80 { return false }
    return true
  }

  /// The text, or `nil` when the bytes are invalid under a strict encoding.
  mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    if TextDecoder.isASCII(bytes) { return String(decoding: bytes, as: UTF8.self) }
    switch mode {
    case .utf8Strict:
      return isValidUTF8(bytes) ? String(decoding: bytes, as: UTF8.self) : nil
    case .utf8Fallback:
      if isValidUTF8(bytes) { return String(decoding: bytes, as: UTF8.self) }
      usedFallback = true
      return singleByte(bytes, windows: true)
    case .windows1252: return singleByte(bytes, windows: true)
    case .latin1: return singleByte(bytes, windows: false)
    }
  }

  mutating func singleByte(_ bytes: UnsafeBufferPointer<UInt8>, windows: Bool) -> String {
    scratch.removeAll(keepingCapacity: true)
    for b in bytes {
      var scalar = UInt32(b)
      if b >= 0x80 && b < 0xA0 && windows {
        let mapped = TextDecoder.cp1252[Int(b - 0x80)]
        scalar = mapped == 0 ? UInt32(b) : UInt32(mapped)
      }
      appendUTF8(scalar)
    }
    return String(decoding: scratch, as: UTF8.self)
  }

  mutating func appendUTF8(_ scalar: UInt32) {
    if scalar < 0x80 {
      scratch.append(UInt8(scalar))
    } else if scalar < 0x800 {
      scratch.append(UInt8(0xC0 | (scalar >> 6)))
      scratch.append(UInt8(0x80 | (scalar & 0x3F)))
    } else {
      scratch.append(UInt8(0xE0 | (scalar >> 12)))
      scratch.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
      scratch.append(UInt8(0x80 | (scalar & 0x3F)))
    }
  }

  /// Windows-1252 0x80–0x9F (0 = undefined, kept as the C1 control).
  static let cp1252: [UInt16] = [
    0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0,
    0x017D, 0, 0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
    0x0153, 0, 0x017E, 0x0178,
  ]
}

/// Detects the encoding of a sample: BOM, then UTF-16 without BOM by zero bytes, then UTF-8 validity.
func detectEncoding(_ sample: [UInt8], truncated: Bool) -> (TextEncoding, reason: String) {
  if sample.count >= 3 && sample[0] == 0xEF && sample[1] == 0xBB && sample[2] == 0xBF {
    return (.utf8, "UTF-8 byte order mark")
  }
  if sample.count >= 2 && sample[0] == 0xFF && sample[1] == 0xFE { return (.utf16le, "UTF-16LE byte order mark") }
  if sample.count >= 2 && sample[0] == 0xFE && sample[1] == 0xFF { return (.utf16be, "UTF-16BE byte order mark") }
  if sample.count >= 4 {
    var evenZeros = 0
    var oddZeros = 0
    for (i, b) in sample.prefix(4096).enumerated() where b == 0 {
      if i % 2 == 0 { evenZeros += 1 } else { oddZeros += 1 }
    }
    let half = min(sample.count, 4096) / 2
    if oddZeros > half * 4 / 10 && evenZeros == 0 { return (.utf16le, "UTF-16LE (no byte order mark)") }
    if evenZeros > half * 4 / 10 && oddZeros == 0 { return (.utf16be, "UTF-16BE (no byte order mark)") }
  }
  var bytes = sample[...]
  if truncated {
    // Drop an incomplete multi-byte sequence cut off at the end of the sample.
    var back = 0
    while back < 3, let last = bytes.last, last & 0xC0 == 0x80 {
      bytes = bytes.dropLast()
      back += 1
    }
    if let last = bytes.last, last >= 0xC0 { bytes = bytes.dropLast() }
  }
  if bytes.withUnsafeBufferPointer(isValidUTF8) { return (.utf8, "valid UTF-8") }
  let line = firstInvalidUTF8Line(bytes)
  // A file that holds real UTF-8 (a valid multi-byte sequence) but also a stray byte is UTF-8
  // with damage, not Windows-1252: reading it whole as 1252 would turn every "é" into "Ã©".
  // It is read as strict UTF-8, so the rows with bad bytes are refused naming line and column.
  let (valid, invalid) = bytes.withUnsafeBufferPointer(countUTF8Sequences)
  if valid > 0 && valid >= invalid {
    return (.utf8, "UTF-8 (with invalid bytes, first on line \(line))")
  }
  return (.windows1252, "not valid UTF-8 (first on line \(line)), no UTF-8 sequence: read as Windows-1252")
}

/// The 1-based line of the first byte that is not part of valid UTF-8.
func firstInvalidUTF8Line(_ bytes: ArraySlice<UInt8>) -> Int {
  var start = bytes.startIndex
  var line = 1
  while start < bytes.endIndex {
    let end = bytes[start...].firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.endIndex
    if !bytes[start..<end].withUnsafeBufferPointer(isValidUTF8) { return line }
    line += 1
    start = end
  }
  return line
}

/// Well-formed multi-byte UTF-8 sequences and bytes that are in none, counted. UTF-8 with a
/// stray byte has many of the first and few of the second; a legacy multi-byte encoding
/// (EUC-JP, GBK) forms a valid sequence only now and then.
func countUTF8Sequences(_ p: UnsafeBufferPointer<UInt8>) -> (valid: Int, invalid: Int) {
  var i = 0
  let n = p.count
  var valid = 0
  var invalid = 0
  while i < n {
    let b = p[i]
    let length: Int
    switch b {
    case 0x00...0x7F:
      i += 1
      continue
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF4: length = 4
    default: length = 0
    }
    if length > 0, i + length <= n, isValidUTF8(UnsafeBufferPointer(rebasing: p[i..<(i + length)])) {
      valid += 1
      i += length
    } else {
      invalid += 1
      i += 1
    }
  }
  return (valid, invalid)
}

/// Whether the bytes are well-formed UTF-8 (Unicode table 3-7: no overlong forms, no surrogates,
/// nothing above U+10FFFF), exactly what `String(validating:as:)` accepts, without its generic,
/// unspecialized path and without building a String. ASCII runs are skipped 8 bytes at a time.
func isValidUTF8(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
  guard let base = p.baseAddress else { return true }
  let n = p.count
  var i = 0
  while i < n {
    if i &+ 8 <= n && UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
      i &+= 8
      continue
    }
    let b = base[i]
    if b < 0x80 {
      i &+= 1
      continue
    }
    @inline(__always) func continuation(_ k: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
      k < n && base[k] >= low && base[k] <= high
    }
    switch b {
    case 0xC2...0xDF:
      guard continuation(i &+ 1) else { return false }
      i &+= 2
    case 0xE0:
      guard continuation(i &+ 1, 0xA0), continuation(i &+ 2) else { return false }
      i &+= 3
    case 0xE1...0xEC, 0xEE...0xEF:
      guard continuation(i &+ 1), continuation(i &+ 2) else { return false }
      i &+= 3
    case 0xED:
      guard continuation(i &+ 1, 0x80, 0x9F), continuation(i &+ 2) else { return false }
      i &+= 3
    case 0xF0:
      guard continuation(i &+ 1, 0x90), continuation(i &+ 2), continuation(i &+ 3) else { return false }
      i &+= 4
    case 0xF1...0xF3:
      guard continuation(i &+ 1), continuation(i &+ 2), continuation(i &+ 3) else { return false }
      i &+= 4
    case 0xF4:
      guard continuation(i &+ 1, 0x80, 0x8F), continuation(i &+ 2), continuation(i &+ 3) else { return false }
      i &+= 4
    default:
      return false
    }
  }
  return true
}

/// Whether two byte ranges of length `n` are equal, a word at a time (the last word, and the
/// shorter reads for fewer than 8 bytes, overlap what came before instead of looping per byte).
@inline(__always)
func bytesEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
  let x = UnsafeRawPointer(a)
  let y = UnsafeRawPointer(b)
  if n >= 8 {
    var i = 0
    while i &+ 8 < n {
      if x.loadUnaligned(fromByteOffset: i, as: UInt64.self) != y.loadUnaligned(fromByteOffset: i, as: UInt64.self) {
        return false
      }
      i &+= 8
    }
    return x.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
      == y.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
  }
  if n >= 4 {
    return x.loadUnaligned(as: UInt32.self) == y.loadUnaligned(as: UInt32.self)
      && x.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
        == y.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
  }
  if n >= 2 {
    return x.loadUnaligned(as: UInt16.self) == y.loadUnaligned(as: UInt16.self)
      && a[n &- 1] == b[n &- 1]
  }
  return n == 0 || a[0] == b[0]
}

/// Exactly `s.trimmingASCIIWhitespace()` (which compares Characters), without walking
/// Characters when the answer is clear from the bytes: a string that neither starts nor ends
/// with a space, tab, CR or LF byte is returned as it is, and an ASCII string is trimmed bytewise.
/// Only non-ASCII text with a blank at an end (where a combining mark could join the space)
/// takes the Character path.
func trimmingASCIIBlanks(_ s: String) -> String {
  var s = s
  enum Answer {
    case same, trimmed(String), characters
  }
  let answer = s.withUTF8 { u -> Answer in
    let n = u.count
    if n == 0 { return .same }
    @inline(__always) func blank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A }
    if !blank(u[0]) && !blank(u[n - 1]) { return .same }
    for b in u where b >= 0x80 { return .characters }
    var start = 0
    var end = n
    while start < end && blank(u[start]) { start += 1 }
    while end > start && blank(u[end - 1]) { end -= 1 }
    return .trimmed(String(decoding: UnsafeBufferPointer(rebasing: u[start..<end]), as: UTF8.self))
  }
  switch answer {
  case .same: return s
  case .trimmed(let t): return t
  case .characters: return s.trimmingASCIIWhitespace()
  }
}

/// Strings made from cells that repeat (categories, accounts): a small cache from the cell's
/// bytes to the String, so a repeated cell is neither decoded nor allocated again. A cell lives
/// in one of 4 slots after its home slot; when those are taken it replaces the one at home.
/// Cells longer than `maxLength` bytes are not cached.
struct FieldStringCache {
  static let slotCount = 256
  static let probes = 4
  static let maxLength = 48
  let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: FieldStringCache.slotCount * FieldStringCache.maxLength)
  /// Byte count per slot, -1 when empty.
  let lengths: UnsafeMutablePointer<Int> = {
    let p = UnsafeMutablePointer<Int>.allocate(capacity: FieldStringCache.slotCount)
    p.initialize(repeating: -1, count: FieldStringCache.slotCount)
    return p
  }()
  var values = [String?](repeating: nil, count: FieldStringCache.slotCount)

  @inline(__always)
  static func home(_ p: UnsafeBufferPointer<UInt8>) -> Int {
    let n = p.count
    var h = UInt64(truncatingIfNeeded: n)
    if n >= 8 {
      let base = UnsafeRawPointer(p.baseAddress!)
      h ^= base.loadUnaligned(as: UInt64.self)
      h = (h &* 0x9E37_79B9_7F4A_7C15) ^ base.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
    } else {
      for b in p { h = h &<< 8 | UInt64(b) }
    }
    return Int(truncatingIfNeeded: (h &* 0x9E37_79B9_7F4A_7C15) &>> 56)
  }

  /// The slot holding these bytes, if any.
  @inline(__always)
  func slot(_ p: UnsafeBufferPointer<UInt8>) -> Int? {
    let n = p.count
    if n > FieldStringCache.maxLength { return nil }
    let home = FieldStringCache.home(p)
    for k in 0..<FieldStringCache.probes {
      let slot = (home &+ k) & (FieldStringCache.slotCount - 1)
      let length = lengths[slot]
      if length < 0 { return nil }
      if length == n && (n == 0 || bytesEqual(bytes + slot &* FieldStringCache.maxLength, p.baseAddress!, n)) {
        return slot
      }
    }
    return nil
  }

  mutating func store(_ p: UnsafeBufferPointer<UInt8>, _ value: String?) {
    let n = p.count
    if n > FieldStringCache.maxLength { return }
    let home = FieldStringCache.home(p)
    var slot = home
    for k in 0..<FieldStringCache.probes where lengths[(home + k) & (FieldStringCache.slotCount - 1)] < 0 {
      slot = (home + k) & (FieldStringCache.slotCount - 1)
      break
    }
    if n > 0 { (bytes + slot * FieldStringCache.maxLength).update(from: p.baseAddress!, count: n) }
    lengths[slot] = n
    values[slot] = value
  }

  func release() {
    bytes.deallocate()
    lengths.deallocate()
  }
}

/// Descriptions repeat as well (the same merchants, month after month): a direct-mapped table
/// from the bytes of a description to its String, so a repeated one is not allocated again.
/// Only 8 to 56 bytes are kept (from 16 bytes a String is allocated; shorter ones are inline,
/// but still cheaper to look up than to validate and build).
///
/// In a file whose descriptions hardly repeat (reference numbers in them) the table would only
/// cost, so it pauses itself: a window of 4,096 lookups with fewer than a quarter hits turns it
/// off for the next 16 windows' worth of descriptions, then it tries again.
struct TextCache {
  static let slotBits = 12
  static let slotCount = 1 << slotBits
  static let minLength = 8
  static let maxLength = 56
  static let window = 4096
  /// One 64-byte line per slot: the key of the bytes it holds (0 when empty), then the bytes,
  /// so that a lookup touches one cache line.
  let lines: UnsafeMutableRawPointer = {
    let p = UnsafeMutableRawPointer.allocate(byteCount: TextCache.slotCount * 64, alignment: 64)
    p.initializeMemory(as: UInt8.self, repeating: 0, count: TextCache.slotCount * 64)
    return p
  }()
  var values = [String](repeating: "", count: TextCache.slotCount)
  var enabled = true
  /// Descriptions left in the current window, and the hits in it.
  var countdown = TextCache.window
  var hits = 0

  /// Whether to look this description up; call once per description of 8…56 bytes.
  @inline(__always)
  mutating func use() -> Bool {
    countdown &-= 1
    if countdown == 0 { endWindow() }
    return enabled
  }

  mutating func endWindow() {
    if enabled && hits * 4 < TextCache.window {
      enabled = false
      countdown = 16 * TextCache.window
    } else {
      enabled = true
      countdown = TextCache.window
    }
    hits = 0
  }

  /// A hash of the bytes with their length in the low byte (never 0); `p.count` must be 8…56.
  @inline(__always)
  static func key(_ p: UnsafeBufferPointer<UInt8>) -> UInt64 {
    let n = p.count
    let base = UnsafeRawPointer(p.baseAddress!)
    var h = UInt64(truncatingIfNeeded: n) &* 0x9E37_79B9_7F4A_7C15
    var i = 0
    while i &+ 8 <= n {
      h = (h ^ base.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
      h ^= h &>> 31
      i &+= 8
    }
    if i < n {
      h = (h ^ base.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
    }
    h ^= h &>> 29
    return h & ~0xFF | UInt64(truncatingIfNeeded: n)
  }

  @inline(__always)
  static func slot(_ key: UInt64) -> Int { Int(truncatingIfNeeded: key &>> (64 - TextCache.slotBits)) }

  /// The String made from these bytes before, if it is still here.
  @inline(__always)
  mutating func find(_ p: UnsafeBufferPointer<UInt8>, _ key: UInt64) -> String? {
    let slot = TextCache.slot(key)
    let line = lines + slot &* 64
    guard line.load(as: UInt64.self) == key,
      bytesEqual((line + 8).assumingMemoryBound(to: UInt8.self), p.baseAddress!, p.count)
    else { return nil }
    hits &+= 1
    return values[slot]
  }

  mutating func store(_ p: UnsafeBufferPointer<UInt8>, _ key: UInt64, _ value: String) {
    let slot = TextCache.slot(key)
    let line = lines + slot * 64
    line.storeBytes(of: key, as: UInt64.self)
    (line + 8).copyMemory(from: p.baseAddress!, byteCount: p.count)
    values[slot] = value
  }

  func release() { lines.deallocate() }
}
