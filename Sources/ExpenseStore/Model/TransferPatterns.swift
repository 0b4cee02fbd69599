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
    // A bank account's side of a card payment, as the card issuers word it (the card's side
    // is "PAYMENT - THANK YOU" above): without these, every card purchase counted twice, once
    // on the card and once as the unsorted payment from checking.
    "american express*pmt",  // "AMERICAN EXPRESS ACH PMT"
    "amex epayment",
    "amex*autopay",
    "credit crd*autopay",  // "CHASE CREDIT CRD AUTOPAY"
    "chase card*payment",
    "capital one*pmt",  // "CAPITAL ONE MOBILE PMT", "CAPITAL ONE ONLINE PMT"
    "capital one*autopay",
    "discover e-payment",
    "discover*autopay",
    "citi autopay",
    "citi card*payment",
    "applecard gsbank",
    "bk of amer*visa",  // "BK OF AMER VISA ONLINE PMT"
    "bank of america*credit card",
    "wells fargo card*payment",
    "synchrony bank*payment",
    "cardmember serv",
    "credit card autopay",
    "creditcard payment",
    "card autopay",
    "barclaycard*payment",  // UK
    "mbna*payment",
    "kreditkartenabrechnung",  // DE: the monthly settlement of a card
    "abrechnung kreditkarte",
    "kreditkarte*ausgleich",
    "remboursement carte credit",  // FR
    "pago tarjeta credito",  // ES
    "pago tarjeta crédito",
    "liquidacion tarjeta",
    "liquidación tarjeta",
    "saldo carta di credito",  // IT
    "creditcard afschrijving",  // NL
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
