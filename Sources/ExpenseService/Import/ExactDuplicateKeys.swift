/// The keys of an import's exact duplicates near the stored rows (`MatchCollector`), kept in
/// chunks as the writer reports them and asked about only when the import also added rows.
///
/// Why not a `Set`: a file imported again is all duplicates, and a set of a million keys (and
/// its doubling as it grew) was a third of that import's peak memory, for an answer the import
/// then never asked for (with no row added there is nothing to match). Chunks of a batch's
/// keys cost 8 bytes a key and never move; `sorted()` joins them when they are asked about.
struct ExactDuplicateKeys {
  private var chunks: [[Int64]] = []
  private var current: [Int64] = []
  static let chunkSize = 4096

  var isEmpty: Bool { chunks.isEmpty && current.isEmpty }

  mutating func insert(_ key: Int64) {
    if current.isEmpty { current.reserveCapacity(Self.chunkSize) }
    current.append(key)
    if current.count == Self.chunkSize {
      chunks.append(current)
      current = []
    }
  }

  /// The keys, sorted, for `SortedKeys.contains`.
  func sorted() -> SortedKeys {
    var all: [Int64] = []
    all.reserveCapacity(chunks.count * Self.chunkSize + current.count)
    for chunk in chunks { all.append(contentsOf: chunk) }
    all.append(contentsOf: current)
    all.sort()
    return SortedKeys(keys: all)
  }

  struct SortedKeys {
    let keys: [Int64]

    func contains(_ key: Int64) -> Bool {
      var (low, high) = (0, keys.count)
      while low < high {
        let middle = low + (high - low) / 2
        if keys[middle] < key { low = middle + 1 } else { high = middle }
      }
      return low < keys.count && keys[low] == key
    }
  }
}
