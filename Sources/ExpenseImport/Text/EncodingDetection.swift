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
