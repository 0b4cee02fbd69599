/// Well-formed multi-byte UTF-8 sequences and bytes that are in none, counted. UTF-8 with a
/// stray byte has many of the first and few of the second; a legacy multi-byte encoding
/// (EUC-JP, GBK) forms a valid sequence only now and then.
func countUTF8Sequences(_ p: UnsafeBufferPointer<UInt8>) -> (valid: Int, invalid: Int) {
  let scan = scanUTF8Sequences(p, stopAtFirstInvalid: false)
  return (scan.valid, scan.invalid)
}

/// The 0-based offset in `p` of the first byte that starts no well-formed UTF-8 sequence.
func firstInvalidUTF8Offset(_ p: UnsafeBufferPointer<UInt8>) -> Int? {
  scanUTF8Sequences(p, stopAtFirstInvalid: true).firstInvalid
}

/// The one walk over `p` by UTF-8 sequence: each byte that leads a well-formed sequence (table
/// 3-7, checked by `isValidUTF8`) moves past it, any other byte counts as invalid and moves one
/// byte on. ASCII runs are skipped 8 bytes at a time (they count as neither).
private func scanUTF8Sequences(_ p: UnsafeBufferPointer<UInt8>, stopAtFirstInvalid: Bool) -> (
  valid: Int, invalid: Int, firstInvalid: Int?
) {
  guard let base = p.baseAddress else { return (0, 0, nil) }
  var i = 0
  let n = p.count
  var valid = 0
  var invalid = 0
  var firstInvalid: Int?
  while i < n {
    if i &+ 8 <= n && UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
      i &+= 8
      continue
    }
    let b = base[i]
    let length: Int
    switch b {
    case 0x00...0x7F:
      i &+= 1
      continue
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF4: length = 4
    default: length = 0
    }
    if length > 0, i + length <= n, isValidUTF8(UnsafeBufferPointer(rebasing: p[i..<(i + length)])) {
      valid &+= 1
      i &+= length
    } else {
      if firstInvalid == nil { firstInvalid = i }
      if stopAtFirstInvalid { break }
      invalid &+= 1
      i &+= 1
    }
  }
  return (valid, invalid, firstInvalid)
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
