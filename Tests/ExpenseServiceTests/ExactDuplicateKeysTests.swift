import Testing

@testable import ExpenseService

/// `ExactDuplicateKeys` answers as a `Set` of the same keys would, whatever their order and
/// however many chunks they fill.
@Suite struct ExactDuplicateKeysTests {
  @Test(arguments: [0, 1, 4095, 4096, 4097, 20_000])
  func itHoldsExactlyTheKeysInserted(_ count: Int) {
    var state: UInt64 = UInt64(count) &+ 3
    func next() -> Int64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int64(bitPattern: state) >> 40
    }
    var keys = ExactDuplicateKeys()
    var set = Set<Int64>()
    for _ in 0..<count {
      let key = next()
      keys.insert(key)
      set.insert(key)
    }
    #expect(keys.isEmpty == set.isEmpty)
    let sorted = keys.sorted()
    for key in set { #expect(sorted.contains(key)) }
    for _ in 0..<2_000 {
      let probe = next()
      #expect(sorted.contains(probe) == set.contains(probe))
    }
  }
}
