/// Which sign a single amount column uses for spending.
public enum SpendingSign: String, Sendable, Codable {
  /// Negative amounts are money out (most bank accounts).
  case negative
  /// Positive amounts are money out (many US credit card exports).
  case positive
}
