import ExpenseCore

/// The importer's built-in patterns for money moved between one's own accounts: a row whose
/// description matches one (and that has no category from its file and matches no user rule)
/// is stored in the `Transfers` category, whose kind is `transfer` unless the user sets another.
///
/// Why built in: a card payment or a top-up is the commonest row a new user's first report
/// gets wrong (it is neither spending nor income), and every bank words it one of a few ways.
/// The list is short and specific on purpose ("card payment" alone would catch UK debit-card
/// purchases, "CARD PAYMENT TO TESCO"); a user's rule always wins. docs/importing.md lists them.
public enum TransferPatterns {
  /// Case-insensitive, `*` for any run of characters, like a user rule.
  public static let patterns = [
    "payment*thank you",  // card statements: "PAYMENT THANK YOU", "AUTOPAY PAYMENT - THANK YOU"
    "credit card payment",
    "payment to*card ending",  // "Payment to Chase card ending in 1234"
    "transfer to",
    "transfer from",
    "internal transfer",
    "to savings",
    "from savings",
    "top-up",  // Revolut, Wise: "Top-Up by *1234"
    "topup",
    "top up",
    "umbuchung",  // German banks: a move between one's own accounts
  ]

  /// A matcher over `patterns`, every one categorizing to `Transfers`.
  public static let matcher = RuleMatcher(
    rules: patterns.enumerated().map {
      CategoryRule(id: Int64($0.offset + 1), pattern: $0.element, category: transfersName, field: .description)
    })

  /// `Transfers` when `description` matches a built-in pattern, else `nil`.
  public static func category(description: String) -> String? {
    matcher.match(description: description, account: nil)?.category
  }
}
