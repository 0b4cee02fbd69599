/// Detects a Unicode encoding from a sample: BOM, then UTF-16 without BOM by zero bytes, then
/// UTF-8 validity (a few bad bytes in real UTF-8 included); nil when the sample is not Unicode.
func detectUnicode(_ sample: [UInt8], truncated: Bool) -> (TextEncoding, reason: String)? {
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
  let lines = countUTF8Lines(bytes)
  // A file that holds real UTF-8 but also stray bytes is UTF-8 with damage, not a legacy
  // encoding: reading it whole as Windows-1252 would turn every "é" into "Ã©". It is read as
  // strict UTF-8, so the rows with bad bytes are refused naming line and column. Real UTF-8
  // shows in whole lines that are valid (in legacy text a line with letters beyond ASCII is
  // valid UTF-8 only by rare chance), or in valid sequences at least half as many as the bad
  // bytes (legacy text forms one only by chance, among many bad bytes). When in doubt UTF-8 is
  // the safer reading: a wrong guess refuses rows naming their line, it does not garble them.
  let (valid, invalid) = bytes.withUnsafeBufferPointer(countUTF8Sequences)
  if (lines.valid > 0 && lines.valid >= lines.invalid) || (valid > 0 && invalid <= 2 * valid) {
    return (.utf8, "UTF-8 with invalid bytes, first on line \(lines.firstInvalid)")
  }
  return nil
}

/// Lines holding bytes beyond ASCII that are valid UTF-8, those that are not, and the 1-based
/// number of the first that is not.
func countUTF8Lines(_ bytes: ArraySlice<UInt8>) -> (valid: Int, invalid: Int, firstInvalid: Int) {
  var start = bytes.startIndex
  var line = 1
  var valid = 0
  var invalid = 0
  var firstInvalid = 0
  while start < bytes.endIndex {
    let end = bytes[start...].firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.endIndex
    let text = bytes[start..<end]
    if text.contains(where: { $0 >= 0x80 }) {
      if text.withUnsafeBufferPointer(isValidUTF8) {
        valid += 1
      } else {
        invalid += 1
        if firstInvalid == 0 { firstInvalid = line }
      }
    }
    line += 1
    start = end
  }
  return (valid, invalid, firstInvalid)
}

/// The 1-based line of the first byte that is not part of valid UTF-8.
func firstInvalidUTF8Line(_ bytes: ArraySlice<UInt8>) -> Int {
  let first = countUTF8Lines(bytes).firstInvalid
  return first == 0 ? 1 : first
}
