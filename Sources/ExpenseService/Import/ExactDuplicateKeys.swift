import ExpenseCore
import ExpenseImport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The keys of an import's exact duplicates near the stored rows (`MatchCollector`), kept in
/// chunks as the writer reports them and asked about only when the import also added rows.
///
/// Why not a `Set`: a file imported again is all duplicates, and a set of a million keys (and
/// its doubling as it grew) was a third of that import's peak memory, for an answer the import
/// then never asked for (with no row added there is nothing to match). Chunks of a batch's
/// keys cost 8 bytes a key and never move.
///
/// Why a file past `memoryKeys`: at 8 bytes a key, a re-import of ten million rows held 80 MB
/// of them (a peak of 130 MiB). Past the first 524,288 keys (4 MiB), the oldest chunk goes to an
/// anonymous temporary file (`tmpfile`, gone when closed) with the range of its keys, so
/// memory stays flat; the answer is asked for the key range around the added rows only
/// (`sorted(within:)`), and only the chunks that reach into it are read back. A file that
/// cannot be made or written keeps the keys in memory, as before; one that cannot be read back
/// is an error (`ImportError.io`), never a wrong answer.
final class ExactDuplicateKeys {
  static let chunkSize = 4096
  /// Keys kept in memory before the oldest chunks go to the file.
  let memoryKeys: Int
  private var chunks: [[Int64]] = []
  private var current: [Int64] = []
  private var inMemory = 0
  /// The chunks written to `file`: where each starts, how many keys, and their least and
  /// greatest.
  private var spilled: [(offset: Int, count: Int, keys: ClosedRange<Int64>)] = []
  private var file: UnsafeMutablePointer<FILE>?
  private var fileEnd = 0
  private var cannotSpill = false

  init(memoryKeys: Int = 1 << 19) { self.memoryKeys = memoryKeys }

  deinit { if let file { fclose(file) } }

  var isEmpty: Bool { chunks.isEmpty && current.isEmpty && spilled.isEmpty }

  func insert(_ key: Int64) {
    if current.isEmpty { current.reserveCapacity(Self.chunkSize) }
    current.append(key)
    guard current.count == Self.chunkSize else { return }
    chunks.append(current)
    inMemory += current.count
    current = []
    while inMemory > memoryKeys, !cannotSpill, let oldest = chunks.first {
      guard spill(oldest) else { break }
      chunks.removeFirst()
      inMemory -= oldest.count
    }
  }

  /// Writes `chunk` at the end of the file; false (and no more tries) if it cannot.
  private func spill(_ chunk: [Int64]) -> Bool {
    guard let least = chunk.min(), let greatest = chunk.max() else { return true }
    if file == nil { file = tmpfile() }
    guard let file, fseek(file, fileEnd, SEEK_SET) == 0,
      chunk.withUnsafeBufferPointer({ fwrite($0.baseAddress, 8, $0.count, file) }) == chunk.count
    else {
      cannotSpill = true
      return false
    }
    spilled.append((fileEnd, chunk.count, least...greatest))
    fileEnd += chunk.count * 8
    return true
  }

  /// The keys in `range` (all of them when nil), sorted, for `SortedKeys.contains`.
  func sorted(within range: ClosedRange<Int64>? = nil) throws(ImportError) -> SortedKeys {
    var all: [Int64] = []
    func take(_ keys: some Sequence<Int64>) {
      if let range {
        all.append(contentsOf: keys.lazy.filter { range.contains($0) })
      } else {
        all.append(contentsOf: keys)
      }
    }
    for chunk in chunks { take(chunk) }
    take(current)
    var buffer = [Int64](repeating: 0, count: Self.chunkSize)
    for chunk in spilled where range.map({ $0.overlaps(chunk.keys) }) ?? true {
      guard let file, fseek(file, chunk.offset, SEEK_SET) == 0,
        buffer.withUnsafeMutableBufferPointer({ fread($0.baseAddress, 8, chunk.count, file) }) == chunk.count
      else { throw .io(path: "a temporary file", message: "cannot read back the keys of exact duplicates") }
      take(buffer.prefix(chunk.count))
    }
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
