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
/// The bytes `trimmingASCIIWhitespace` and `trimmingASCIIBlanks` trim: space, tab, CR, LF.
@inline(__always)
func isASCIIBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A }

func trimmingASCIIBlanks(_ s: String) -> String {
  var s = s
  enum Answer {
    case same, trimmed(String), characters
  }
  let answer = s.withUTF8 { u -> Answer in
    let n = u.count
    if n == 0 { return .same }
    if !isASCIIBlank(u[0]) && !isASCIIBlank(u[n - 1]) { return .same }
    for b in u where b >= 0x80 { return .characters }
    var start = 0
    var end = n
    while start < end && isASCIIBlank(u[start]) { start += 1 }
    while end > start && isASCIIBlank(u[end - 1]) { end -= 1 }
    return .trimmed(String(decoding: UnsafeBufferPointer(rebasing: u[start..<end]), as: UTF8.self))
  }
  switch answer {
  case .same: return s
  case .trimmed(let t): return t
  case .characters: return s.trimmingASCIIWhitespace()
  }
}

/// Exactly `text.lowercased()` (which maps each scalar by itself, through a `String` made for
/// each), with every ASCII scalar mapped directly (Unicode's lower case of an ASCII letter is
/// its ASCII lower case). The standard library's took most of the detection's time on a bank
/// file's sample: about 23,000 instructions for a 40-character text that is not all ASCII.
func lowercasedFast(_ text: String) -> String {
  @inline(__always) func lower(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }
  let ascii = text.utf8.withContiguousStorageIfAvailable { bytes -> String? in
    guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
    return String(unsafeUninitializedCapacity: bytes.count) { out in
      for (index, byte) in bytes.enumerated() { out[index] = lower(byte) }
      return bytes.count
    }
  }
  if let ascii, let lower = ascii { return lower }
  var out: [UInt8] = []
  out.reserveCapacity(text.utf8.count)
  for scalar in text.unicodeScalars {
    if scalar.isASCII {
      out.append(lower(UInt8(truncatingIfNeeded: scalar.value)))
    } else {
      out.append(contentsOf: scalar.properties.lowercaseMapping.utf8)
    }
  }
  return String(decoding: out, as: UTF8.self)
}
