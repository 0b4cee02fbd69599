import ExpenseCore

/// What a journal's header declares about its expenses: every account they post to, their
/// currencies and their earliest date. Gathered row by row, so a streamed export can write the
/// header after a first pass over the rows and before the second.
struct JournalAccounts {
  var paths = Set<AccountPath>()
  var currencies = Set<Currency>()
  var earliest: CivilDate?

  mutating func add(_ e: Expense, _ input: ExportInput) {
    let p = input.posting(e)
    paths.insert(p.counter)
    paths.insert(p.asset)
    currencies.insert(e.amount.currency)
    add(date: e.date)
  }

  mutating func add(date: CivilDate) {
    if let earliest, earliest <= date { return }
    earliest = date
  }
}
