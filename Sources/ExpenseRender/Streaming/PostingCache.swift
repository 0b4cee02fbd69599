#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Values computed once per distinct (category, account, money in) of the rows, looked up by
/// the rows' bytes: an export posts a million rows to a few dozen accounts, and working an
/// account out (kind, trimming, spelling) from `String`s for every row cost more than writing
/// it.
///
/// Keys are the exact bytes (and whether the row is money in without a category, the one case
/// where the sign picks the account), so two spellings that Swift compares equal are two keys
/// with the same value: the cache never changes which account a row goes to, only how often it
/// is worked out. Its size follows the distinct accounts, which the journal's header lists
/// anyway.
struct PostingCache<Value> {
  private struct Entry {
    var category: [UInt8]?
    var account: [UInt8]?
    var moneyIn: Bool
    var value: Value
  }

  private var buckets: [UInt64: [Entry]] = [:]

  /// The value for these bytes, made by `make` the first time they are seen.
  mutating func value(
    category: UnsafeBufferPointer<UInt8>?, account: UnsafeBufferPointer<UInt8>?, moneyIn: Bool, make: () -> Value
  ) -> Value {
    var hash: UInt64 = moneyIn ? 0x9E37_79B9_7F4A_7C15 : 0xCBF2_9CE4_8422_2325
    PostingCache.mix(category, into: &hash)
    PostingCache.mix(account, into: &hash)
    if let bucket = buckets[hash] {
      for entry in bucket
      where entry.moneyIn == moneyIn && PostingCache.same(entry.category, category)
        && PostingCache.same(entry.account, account)
      {
        return entry.value
      }
    }
    let value = make()
    buckets[hash, default: []].append(
      Entry(category: category.map(Array.init), account: account.map(Array.init), moneyIn: moneyIn, value: value))
    return value
  }

  /// FNV-1a over a field, with a marker that tells a missing field from an empty one.
  private static func mix(_ bytes: UnsafeBufferPointer<UInt8>?, into hash: inout UInt64) {
    hash = (hash ^ (bytes == nil ? 0xFE : 0xFD)) &* 0x100_0000_01B3
    guard let bytes else { return }
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
  }

  private static func same(_ stored: [UInt8]?, _ bytes: UnsafeBufferPointer<UInt8>?) -> Bool {
    switch (stored, bytes) {
    case (nil, nil): return true
    case (let stored?, let bytes?):
      guard stored.count == bytes.count else { return false }
      return stored.withUnsafeBufferPointer { stored in
        guard let a = stored.baseAddress, let b = bytes.baseAddress else { return true }
        return memcmp(a, b, bytes.count) == 0
      }
    default: return false
    }
  }
}
