import ExpenseCore

/// An account against its bank in words, the same in every format: `Checking …2345:
/// $1,817.50 · matches the bank on 2026-10-31`, or `off by $92.10 since 2026-10-31 · first row
/// after: #3`; and the bad news a folded header keeps (`1 off by $92.10`, `2 off`).
enum AccountWords {
  static func name(_ check: AccountCheck) -> String { check.account ?? "(no account)" }

  static func parts(_ check: AccountCheck, money: (Int64, Currency) -> String) -> [String] {
    var parts = [money(check.balanceMinor, check.currency)]
    if let off = check.offByMinor, let since = check.offSince {
      parts.append("off by \(money(Int64(clamping: off.magnitude), check.currency)) since \(since)")
      if let id = check.firstRowAfterMatchId { parts.append("first row after its last match: #\(id)") }
    } else {
      parts.append("matches the bank on \(check.matchedOn)")
    }
    return parts
  }

  static func bad(_ checks: [AccountCheck], money: (Int64, Currency) -> String) -> String? {
    let off = checks.filter { !$0.matches }
    guard let first = off.first, let by = first.offByMinor else { return nil }
    return off.count == 1 ? "1 off by \(money(Int64(clamping: by.magnitude), first.currency))" : "\(off.count) off"
  }
}

extension TextRenderer {
  /// The Accounts section: a line (or a few, wrapped) per account and currency; printed only
  /// when a statement stated a balance.
  func renderAccountsSection(_ report: BudgetReport, _ c: TextContext, _ out: inout TextOutput) {
    guard !report.accounts.isEmpty else { return }
    let a = c.amounts(short: false)
    let bad = AccountWords.bad(report.accounts) { a.money($0, $1) }
    guard sectionHeader(.accounts, count: report.accounts.count, noun: "item", bad: bad, c, &out) else { return }
    for check in report.accounts {
      let head = TerminalText.sanitize(AccountWords.name(check)) + ":"
      let parts = AccountWords.parts(check) { a.money($0, $1) }
      let separator = c.plain ? ", " : c.separator
      if DisplayWidth.of(head) + 1 <= c.width / 2 {
        out.addFlow(parts, separator: separator, first: head + " ", rest: "  ")
      } else {
        out.add(head)
        out.addFlow(parts, separator: separator, first: "  ", rest: "  ")
      }
    }
  }
}
