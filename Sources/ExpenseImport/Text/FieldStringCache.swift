/// Strings made from cells that repeat (categories, accounts): a small cache from the cell's
/// bytes to the String, so a repeated cell is neither decoded nor allocated again. A cell lives
/// in one of 4 slots after its home slot; when those are taken it replaces the one at home.
/// Cells longer than `maxLength` bytes are not cached.
/// Noncopyable: it owns its buffers and frees them exactly once, when it goes.
struct FieldStringCache: ~Copyable {
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

  deinit {
    bytes.deallocate()
    lengths.deallocate()
  }
}
