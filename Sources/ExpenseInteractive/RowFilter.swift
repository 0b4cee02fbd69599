import ExpenseCore

/// The `/` filter: an expense matches when every word of the filter appears, ignoring case, in
/// its description, category, account or date.
struct RowFilter {
  let words: [String]

  init(_ text: String) { words = text.lowercased().split(separator: " ").map(String.init) }

  /// Each expense's searchable text, lowercased once per report, not once per keystroke.
  struct Index {
    let texts: [String]

    init(_ expenses: [Expense]) {
      texts = expenses.map { expense in
        [expense.description, expense.category ?? uncategorizedName, expense.account ?? "", "\(expense.date)"]
          .joined(separator: "\u{1F}").lowercased()
      }
    }

    /// Indices of the expenses `filter` keeps, in order.
    func matches(_ filter: RowFilter) -> [Int] {
      guard !filter.words.isEmpty else { return Array(texts.indices) }
      return texts.indices.filter { index in filter.words.allSatisfy { texts[index].contains($0) } }
    }
  }
}
