import ExpenseCore

/// What the two plain-text journals (`LedgerRenderer`, `BeancountRenderer`) have in common: a
/// header (commodities, accounts, budgets) naming every account the rows and budgets use, then
/// one transaction per expense. The streamed export (`JournalStream`) calls the same two
/// functions row by row, so both ways print the same bytes.
protocol JournalRenderer {
  /// The lines before the transactions, and the name of every account.
  func headerLines(_ accounts: JournalAccounts, _ input: ExportInput) -> ([String], AccountNames)
  /// One expense's transaction.
  func transactionLines(_ e: Expense, _ input: ExportInput, _ names: AccountNames) -> [String]
}

extension JournalRenderer {
  /// The whole journal of `input` (each renderer's public `render`).
  func renderJournal(_ input: ExportInput) -> String {
    var accounts = JournalAccounts()
    for e in input.expenses { accounts.add(e, input) }
    let (header, names) = headerLines(accounts, input)
    var out = header
    for e in input.expenses { out += transactionLines(e, input, names) }
    return out.joined(separator: "\n")
  }
}
