import ExpenseCore

#if canImport(Glibc)
  import Glibc
#endif

/// The description stage of `map` and the fingerprint up to it: the description is copied
/// and hashed in one pass over the bytes.
extension RowMapper {
  /// `account|date|CUR|`, kept while the three stay the same (`prefixValid`).
  @inline(__always)
  mutating func fingerprintPrefix(_ date: CivilDate, _ currency: Currency, _ currencyKey: UInt32)
    -> Fingerprint.Hasher64
  {
    if !prefixValid || currencyKey != prefixCurrencyKey {
      prefix = Fingerprint.prefix(account: lastAccount, date: date, currency: currency)
      prefixValid = true
      prefixCurrencyKey = currencyKey
    }
    return prefix
  }

  /// The description as stored (whitespace runs collapsed, columns joined with " / "), hashed
  /// into `h` with ASCII letters lower-cased. Where the stored text is not the bytes read (a
  /// legacy encoding, a NUL made visible), the stored text is what is hashed.
  @inline(__always)
  mutating func description(_ reader: CSVReader, _ h: inout Fingerprint.Hasher64) -> String? {
    let beforeDescription = h
    let ascii = scanDescription(reader, &h)
    return descriptionText(reader, ascii: ascii, validUTF8: nil, before: beforeDescription, &h)
  }

  /// Whether the bytes of a description `scanDescription` copied are its UTF-8 as read (ASCII,
  /// or valid UTF-8 in a UTF-8 file): then they are the text stored (`descriptionText`'s
  /// `validUTF8`), unless a NUL is among them.
  @inline(__always)
  func scannedBytesAreUTF8(ascii: Bool) -> Bool {
    ascii
      || ((text.mode == .utf8Strict || text.mode == .utf8Fallback || text.mode == .utf8Replacing)
        && isValidUTF8(UnsafeBufferPointer(start: scratch, count: scratchCount)))
  }

  /// Whether the description scanned holds a NUL (stored as a visible symbol, so hashed again).
  @inline(__always)
  var scannedHasNUL: Bool { scratchCount > 0 && memchr(scratch, 0, scratchCount) != nil }

  /// Copies the description into `scratch` (whitespace runs collapsed, columns joined with
  /// " / ") and hashes it into `h` (ASCII letters lower-cased) in the same pass; returns whether
  /// every byte was ASCII.
  @inline(__always)
  mutating func scanDescription(_ reader: CSVReader, _ h: inout Fingerprint.Hasher64) -> Bool {
    scratchCount = 0
    // The table read once a row: a global's every read checks its one-time initialization.
    let lowercase = Fingerprint.lowercase
    var state = h.state
    var bits: UInt8 = 0  // every byte written, or-ed: ASCII when below 0x80
    for k in 0..<descriptionColumns.count {
      let p = RowMapper.cell(reader, descriptionColumns[k])
      let n = p.count
      guard n > 0, let source = p.baseAddress else { continue }
      var i = 0
      while i < n && RowMapper.isSpace(source[i]) { i &+= 1 }
      if i == n { continue }
      if scratchCount + n + 3 > scratchCapacity { growScratch(scratchCount + n + 3) }
      let buffer = scratch
      var out = scratchCount
      if out > 0 {
        buffer[out] = 0x20  // " / " between columns
        buffer[out &+ 1] = 0x2F
        buffer[out &+ 2] = 0x20
        out &+= 3
        state = Fingerprint.Hasher64.mix(state, 0x20)
        state = Fingerprint.Hasher64.mix(state, 0x2F)
        state = Fingerprint.Hasher64.mix(state, 0x20)
      }
      var pendingSpace = false
      while i < n {
        let b = source[i]
        i &+= 1
        if RowMapper.isSpace(b) {
          pendingSpace = true
          continue
        }
        if pendingSpace {
          buffer[out] = 0x20
          out &+= 1
          state = Fingerprint.Hasher64.mix(state, 0x20)
          pendingSpace = false
        }
        bits |= b
        buffer[out] = b
        out &+= 1
        state = (state ^ UInt64(lowercase[Int(b)])) &* Fingerprint.prime
      }
      scratchCount = out
    }
    h.state = state
    return bits < 0x80
  }

  /// The stored text of the description `scanDescription` copied. `validUTF8`, when the caller
  /// has settled it, is `scannedBytesAreUTF8`. Where the text is not the bytes scanned, `h` is
  /// hashed again from `before` over the text.
  @inline(__always)
  mutating func descriptionText(
    _ reader: CSVReader, ascii: Bool, validUTF8: Bool?, before beforeDescription: Fingerprint.Hasher64,
    _ h: inout Fingerprint.Hasher64
  ) -> String? {
    let scratchBytes = UnsafeBufferPointer(start: scratch, count: scratchCount)
    var description: String
    // A description whose bytes are its UTF-8 (ASCII, or valid UTF-8 read as UTF-8) may come
    // from the cache of earlier ones.
    let sameBytes = ascii || text.mode == .utf8Strict || text.mode == .utf8Fallback || text.mode == .utf8Replacing
    var key: UInt64 = 0
    if sameBytes && scratchCount >= TextCache.minLength && scratchCount <= TextCache.maxLength
      && descriptionCache.use()
    {
      key = TextCache.key(scratchBytes)
    }
    if key != 0, let known = descriptionCache.find(scratchBytes, key) {
      description = known
    } else if ascii || (sameBytes && (validUTF8 ?? isValidUTF8(scratchBytes))) {
      description = String(decoding: scratchBytes, as: UTF8.self)
      if key != 0 { descriptionCache.store(scratchBytes, key, description) }
    } else {
      guard let decoded = text.decode(scratchBytes) else {
        var bad = plan.descriptions.first
        var probe = TextDecoder(mode: plan.fieldText)
        for column in plan.descriptions where probe.decode(RowMapper.cell(reader, column)) == nil {
          bad = column; break
        }
        let cell = bad.map { RowMapper.cell(reader, $0) } ?? scratchBytes
        return fail(
          issue(
            .invalidText, reader, bad, InvalidText.message(cell, encoding: plan.encoding),
            InvalidText.hint(encoding: plan.encoding)))
      }
      description = decoded
      // The text is not the bytes that were hashed: hash what is stored.
      h = beforeDescription
      var copy = description
      copy.withUTF8 { h.lowercasedBytes($0) }
    }
    // SQLite text ends at a NUL (the description would be cut off there): the visible symbol
    // for it is stored instead (`memchr`: a vectorized scan, a few nanoseconds a row).
    if scratchCount > 0, memchr(scratch, 0, scratchCount) != nil {
      description = String(String.UnicodeScalarView(description.unicodeScalars.map { $0 == "\u{0}" ? "\u{2400}" : $0 }))
      h = beforeDescription
      var copy = description
      copy.withUTF8 { h.lowercasedBytes($0) }
    }
    return description
  }

  mutating func growScratch(_ needed: Int) {
    var capacity = scratchCapacity * 2
    while capacity < needed { capacity *= 2 }
    let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    bigger.update(from: scratch, count: scratchCount)
    scratch.deallocate()
    scratch = bigger
    scratchCapacity = capacity
  }
}
