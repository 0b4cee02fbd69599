import ExpenseCore
import Testing

/// The integer helpers of reports are total: no stored value (a zero, a sum near the 64-bit
/// limits) makes them trap.
@Suite struct TotalArithmeticTests {
  @Test func divisionByZeroIsZero() {
    #expect(Rounding.divideHalfEven(5, 0) == 0)
    #expect(Rounding.divideHalfEven(.min, -1) == 0)
    #expect(Rounding.divideHalfEven(7, 2) == 4)
  }

  @Test func aShareOfAHugeBudgetKeepsTheRatio() {
    // Six months of sums at the rollup's limit (2^62 - 1) times a budget of Int64.max passes
    // Int128: the share is still computed from the ratio.
    let whole = Int128(6) * Int128((1 << 62) - 1)
    #expect(Rounding.share(.max, part: whole, of: whole) == .max)
    #expect(Rounding.share(.max, part: whole / 2, of: whole) == Int64.max / 2 + 1)
    #expect(Rounding.share(1000, part: 1, of: 4) == 250)
    #expect(Rounding.share(1000, part: 0, of: 0) == 0)
  }
}
