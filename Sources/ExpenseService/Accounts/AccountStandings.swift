import ExpenseCore
import ExpenseStore
import Foundation

/// The balance check of every account, over a store: what `expenses accounts`, `GET
/// /v1/accounts`, the report's `accounts` section and an import's summary say.
enum AccountStandings {
  /// Every account with its rows and, in each currency its bank stated a balance in, whether
  /// the rows agree (`expenses accounts`, `GET /v1/accounts`). One consistent read.
  /// `stated`: the stated balances when the caller has read them already.
  static func of(_ store: any LedgerStore, stated given: [StatementBalance]? = nil) throws -> [AccountStanding] {
    try store.consistently {
      let summaries = try store.accounts()
      let stated = try given ?? StatementBalances.load(store).map(\.body.balance)
      let byAccount = Dictionary(grouping: stated) { $0.account }
      let (daily, unnamed) = try dailySums(of: Set(byAccount.keys), in: store)
      var standings = summaries.map {
        AccountStanding(name: $0.name, rows: $0.rows, firstDate: $0.firstDate, lastDate: $0.lastDate, balances: [])
      }
      // The rows that name no account: listed only when a statement stated their balance.
      if byAccount[nil] != nil {
        let days = daily.filter { $0.key.account == nil }.flatMap(\.value.keys)
        standings.append(
          AccountStanding(
            name: nil, rows: unnamed, firstDate: days.min(), lastDate: days.max(), balances: []))
      }
      var offAfter: [AccountKey: CivilDate] = [:]
      for index in standings.indices {
        let name = standings[index].name
        let balances = byAccount[name] ?? []
        for currency in Set(balances.map(\.amount.currency)).sorted() {
          let key = AccountKey(account: name, currency: currency)
          let check = BalanceCheck(currency: currency, balances: balances, daily: daily[key] ?? [:])
          guard let total = check.balanceMinor, let matched = check.lastMatch else { continue }
          var balance = AccountBalance(
            currency: currency, balanceMinor: total, statedCount: check.points.count, matchedOn: matched.date)
          if let off = check.firstOff {
            balance.offByMinor = off.offByMinor
            balance.offSince = off.balance.date
            offAfter[key] = matched.date
          }
          standings[index].balances.append(balance)
        }
      }
      // Where to look: each account's first row after its last agreement with the bank.
      let firsts = try firstRows(after: offAfter, in: store)
      for index in standings.indices {
        for b in standings[index].balances.indices where standings[index].balances[b].offByMinor != nil {
          let key = AccountKey(account: standings[index].name, currency: standings[index].balances[b].currency)
          standings[index].balances[b].firstRowAfterMatch = firsts[key]
        }
      }
      return standings
    }
  }

  /// An account in one currency: what a balance is checked in.
  struct AccountKey: Hashable {
    var account: String?
    var currency: Currency
  }

  /// The rows' sum per day of each account in `accounts` (nil: the rows naming none), per
  /// currency, and how many rows name no account (the store lists named accounts only): one
  /// pass over the rows in the store's fastest order.
  static func dailySums(of accounts: Set<String?>, in store: any LedgerStore) throws -> (
    sums: [AccountKey: [CivilDate: Int64]], unnamed: Int
  ) {
    guard !accounts.isEmpty else { return ([:], 0) }
    var sums: [AccountKey: [CivilDate: Int128]] = [:]
    var unnamed = 0
    // The accounts wanted, by their bytes: a row's name is compared where it lies, without
    // making a string of it (the last one seen first: rows of one account often follow).
    let wanted = accounts.compactMap { $0 }.map { (name: $0, bytes: Array($0.utf8)) }
    var last: (name: String, bytes: [UInt8])?
    func named(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
      if let last, last.bytes.elementsEqual(bytes) { return last.name }
      guard let found = wanted.first(where: { $0.bytes.elementsEqual(bytes) }) else { return nil }
      last = found
      return found.name
    }
    try store.withExpenseSnapshot { snapshot in
      try snapshot.forEachExpense(ExpenseQuery(order: .any)) { row in
        let account: String?
        if let bytes = row.account {
          guard let name = named(bytes) else { return }
          account = name
        } else {
          unnamed += 1
          guard accounts.contains(nil) else { return }
          account = nil
        }
        sums[AccountKey(account: account, currency: row.amount.currency), default: [:]][row.date, default: 0] +=
          Int128(row.amount.minor)
      }
    }
    return (sums.mapValues { $0.mapValues { Int64(clamping: $0) } }, unnamed)
  }

  /// The first row (oldest, then lowest id) of each account dated after its day in `after`.
  static func firstRows(after: [AccountKey: CivilDate], in store: any LedgerStore) throws -> [AccountKey: Expense] {
    guard let earliest = after.values.min() else { return [:] }
    var found: [AccountKey: Expense] = [:]
    struct Done: Error {}
    do {
      try store.withExpenseSnapshot { snapshot in
        try snapshot.forEachExpense(ExpenseQuery(from: earliest.adding(days: 1), order: .oldestFirst)) { row in
          let key = AccountKey(
            account: row.account.map { String(decoding: $0, as: UTF8.self) }, currency: row.amount.currency)
          guard let day = after[key], row.date > day, found[key] == nil else { return }
          found[key] = row.expense
          if found.count == after.count { throw Done() }
        }
      }
    } catch is Done {}
    return found
  }

}
