/// A count per 64-bit key: open addressing with linear probing, keys used as their own hash
/// (they are FNV hashes), and `removeAll` in O(1) by bumping a stamp instead of clearing slots.
final class OccurrenceTable {
  struct Storage {
    var keys: UnsafeMutablePointer<UInt64>
    /// Per slot: stamp << 32 | count; a slot is in use when its stamp is the current one.
    var slots: UnsafeMutablePointer<UInt64>
    var mask: Int
    var count = 0
    var stamp: UInt64 = 1
  }

  /// Mutable state behind one pointer: no exclusivity checks on the hot path.
  let s: UnsafeMutablePointer<Storage>

  init() {
    let capacity = 256
    s = .allocate(capacity: 1)
    s.initialize(
      to: Storage(keys: .allocate(capacity: capacity), slots: .allocate(capacity: capacity), mask: capacity - 1))
    s.pointee.slots.initialize(repeating: 0, count: capacity)
  }

  deinit {
    s.pointee.keys.deallocate()
    s.pointee.slots.deallocate()
    s.deinitialize(count: 1)
    s.deallocate()
  }

  /// Number of keys.
  var count: Int { s.pointee.count }

  /// Forgets every key.
  func removeAll() {
    s.pointee.count = 0
    s.pointee.stamp &+= 1
    if s.pointee.stamp == 1 << 32 {  // the stamp wrapped: old slots could look current again
      s.pointee.stamp = 1
      s.pointee.slots.update(repeating: 0, count: s.pointee.mask + 1)
    }
  }

  @inline(__always)
  static func home(_ key: UInt64, _ mask: Int) -> Int {
    Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) &>> 32) & mask
  }

  /// Adds one to the key's count and returns the new count.
  @inline(__always)
  func increment(_ key: UInt64) -> UInt32 {
    let st = s
    let stamp = st.pointee.stamp << 32
    let mask = st.pointee.mask
    var i = OccurrenceTable.home(key, mask)
    while true {
      let slot = st.pointee.slots[i]
      if slot & 0xFFFF_FFFF_0000_0000 != stamp { break }
      if st.pointee.keys[i] == key {
        st.pointee.slots[i] = slot &+ 1
        return UInt32(truncatingIfNeeded: slot &+ 1)
      }
      i = (i &+ 1) & mask
    }
    st.pointee.keys[i] = key
    st.pointee.slots[i] = stamp | 1
    st.pointee.count &+= 1
    if st.pointee.count * 4 > (mask + 1) * 3 { grow() }
    return 1
  }

  func grow() {
    let old = s.pointee
    let capacity = (old.mask + 1) * 2
    let keys = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
    let slots = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
    slots.initialize(repeating: 0, count: capacity)
    let mask = capacity - 1
    let stamp = old.stamp << 32
    for j in 0...old.mask where old.slots[j] & 0xFFFF_FFFF_0000_0000 == stamp {
      var i = OccurrenceTable.home(old.keys[j], mask)
      while slots[i] != 0 { i = (i &+ 1) & mask }
      keys[i] = old.keys[j]
      slots[i] = old.slots[j]
    }
    old.keys.deallocate()
    old.slots.deallocate()
    s.pointee.keys = keys
    s.pointee.slots = slots
    s.pointee.mask = mask
  }
}
