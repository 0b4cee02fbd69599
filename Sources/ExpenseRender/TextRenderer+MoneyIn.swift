import ExpenseCore

/// The summary lines about money that is not spending: income, unsorted
/// money in (with the command that sorts it), transfers, and a credit shown as one.
extension TextRenderer {
  /// The command that sorts unsorted money in, as the summary prints it.
  static let sortCommand = "expenses rules add TEXT CATEGORY"

  /// `Unsorted money out $145.57 · 2 rows · sort: …`,
  /// `Unsorted money in $2,500.00 · 1 row · sort: expenses rules add TEXT CATEGORY` and
  /// `Transfers $500.00 out · 2 rows`, each as flowed parts; empty lines are left out.
  func moneyInLines(_ group: CurrencyGroup, _ amounts: Amounts) -> [[String]] {
    var lines: [[String]] = []
    // Spending without a category counts as spending but sits against no budget: say how much,
    // and how to sort it (a newcomer's first report is often mostly this).
    if let unsorted = group.categories.first(where: { $0.category == uncategorizedName }), unsorted.spentMinor > 0 {
      lines.append([
        "Unsorted money out \(amounts.money(unsorted.spentMinor, group.currency))",
        TextRenderer.rows(unsorted.transactionCount), "sort: \(TextRenderer.sortCommand)",
      ])
    }
    if group.unsortedInCount > 0 || group.unsortedInMinor != 0 {
      lines.append([
        "Unsorted money in \(amounts.money(group.unsortedInMinor, group.currency))",
        TextRenderer.rows(group.unsortedInCount), "sort: \(TextRenderer.sortCommand)",
      ])
    }
    if group.transferCount > 0 || group.transfersMinor != 0 {
      let direction = group.transfersMinor < 0 ? "in" : "out"
      lines.append([
        "Transfers \(amounts.money(group.transfersMinor.magnitudeClamped, group.currency)) \(direction)",
        TextRenderer.rows(group.transferCount),
      ])
    }
    if group.amountsCapped {
      lines.append(["Some totals are too large to show and are capped"])
    }
    return lines
  }

  static func rows(_ count: Int) -> String { count == 1 ? "1 row" : "\(count) rows" }
}

extension Amounts {
  /// Spent as a person reads it: a negative spent (refunds above purchases) is a credit,
  /// `$20.00 cr`, never `-$20.00` spent.
  func spent(_ minor: Int64, _ currency: Currency) -> String {
    minor < 0 ? money(minor.magnitudeClamped, currency) + " cr" : money(minor, currency)
  }
}
