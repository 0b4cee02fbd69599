/// Descriptions repeat as well (the same merchants, month after month): a direct-mapped table
/// from the bytes of a description to its String, so a repeated one is not allocated again.
/// Only 8 to 56 bytes are kept (from 16 bytes a String is allocated; shorter ones are inline,
/// but still cheaper to look up than to validate and build).
///
/// In a file whose descriptions hardly repeat (reference numbers in them) the table would only
/// cost, so it pauses itself: a window of 4,096 lookups with fewer than a quarter hits turns it
/// off for the next 16 windows' worth of descriptions, then it tries again.
/// Noncopyable: it owns its table and frees it exactly once, when it goes.
struct TextCache: ~Copyable {
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

  deinit { lines.deallocate() }
}
