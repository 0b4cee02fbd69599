import Testing

@testable import ExpenseService

/// `ExactDuplicateKeys` answers as a `Set` of the same keys would, whatever their order and
/// however many chunks they fill, kept in memory or written to its file, asked for all of them
/// or for a range.
@Suite struct ExactDuplicateKeysTests {
  @Test(arguments: [0, 1, 4095, 4096, 4097, 20_000])
  func itHoldsExactlyTheKeysInserted(_ count: Int) throws {
    // Kept in memory (the default holds them all), and past 8,192 keys written to the file.
    for memoryKeys in [1 << 20, 8_192] {
      var state: UInt64 = UInt64(count) &+ 3
      func next() -> Int64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int64(bitPattern: state) >> 40
      }
      let keys = ExactDuplicateKeys(memoryKeys: memoryKeys)
      var set = Set<Int64>()
      for _ in 0..<count {
        let key = next()
        keys.insert(key)
        set.insert(key)
      }
      #expect(keys.isEmpty == set.isEmpty)
      let sorted = try keys.sorted()
      for key in set { #expect(sorted.contains(key)) }
      var probes = (0..<2_000).map { _ in next() }
      probes += set.prefix(500)
      for probe in probes { #expect(sorted.contains(probe) == set.contains(probe)) }
      // Asked for a range: exactly the keys in it, whichever chunks hold them.
      let range = Int64(-1 << 21)...Int64(1 << 21)
      let within = try keys.sorted(within: range)
      // (The generator repeats a key now and then; an import's keys never repeat.)
      #expect(Array(Set(within.keys)).sorted() == set.filter { range.contains($0) }.sorted())
      #expect(within.keys == within.keys.sorted())
    }
  }

  /// Keys in date order, as a file's are: a range near the end reads back only the chunks
  /// that reach into it, and still finds every key in it.
  @Test func keysInOrderAreFoundInARangeFromTheFile() throws {
    let keys = ExactDuplicateKeys(memoryKeys: 4_096)
    let all = (0..<50_000).map { Int64($0) * 1_000 + Int64($0 % 7) }
    for key in all { keys.insert(key) }
    let range = Int64(12_345_000)...Int64(12_999_999)
    #expect(try keys.sorted(within: range).keys == all.filter { range.contains($0) })
    #expect(try keys.sorted().keys == all)
  }
}
