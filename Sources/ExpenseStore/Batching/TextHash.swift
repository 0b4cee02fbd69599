/// A fast hash of a text's UTF-8 bytes, never 0 (0 marks an empty slot): the SQLite store's
/// window of descriptions and its Bloom filter key texts by it (`DescriptionTexts`), and the
/// batcher computes it on the parse thread for every row it copies (`PreparedBatch`). Not
/// stable across versions: nothing stored depends on it.
package enum TextHash {
  package static func of(_ p: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var h = UInt64(truncatingIfNeeded: p.count) &* 0x9E37_79B9_7F4A_7C15
    if let start = p.baseAddress {
      let base = UnsafeRawPointer(start)
      let n = p.count
      var i = 0
      while i &+ 8 <= n {
        h = (h ^ base.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
        h ^= h &>> 31
        i &+= 8
      }
      var tail: UInt64 = 0
      var shift: UInt64 = 0
      while i < n {
        tail |= UInt64(base.load(fromByteOffset: i, as: UInt8.self)) &<< shift
        shift &+= 8
        i &+= 1
      }
      h = (h ^ tail) &* 0x94D0_49BB_1331_11EB
    }
    h ^= h &>> 29
    return h == 0 ? 1 : h
  }
}
