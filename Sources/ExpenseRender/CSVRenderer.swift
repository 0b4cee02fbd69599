import ExpenseCore

/// The category benchmarks as RFC 4180 CSV, one row per category plus a `Total` row per currency,
/// then the money that is not spending: one row per income category (`kind` income), unsorted
/// money in (`kind` unsorted, category `Uncategorized`) and transfers (`kind` transfer), each
/// with its amount in `amount` and its row count in `transactions` (income: empty).
///
/// Amounts are plain decimals (`-18.40`), percents one-decimal numbers, missing values empty.
/// Text fields that a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, tab
/// or CR) get a leading `'`. CRLF line endings, as RFC 4180 says.
public struct CSVRenderer {
  public let sections: SectionStates

  public init(sections: SectionStates) { self.sections = sections }

  public static let header = [
    "month", "currency", "category", "budget", "spent", "remaining", "percent_used", "status",
    "trailing_average", "change_from_average_percent", "pace", "projected", "transactions",
    "kind", "average_months", "projection_basis", "amount",
  ]

  public func render(_ report: BudgetReport) -> String {
    var lines = [CSVRenderer.header.joined(separator: ",")]
    for group in report.groups {
      for row in group.categories + [group.totals.row] {
        let money: (Int64?) -> String = { minor in
          minor.map { Money(minor: $0, currency: group.currency).decimalString } ?? ""
        }
        let fields = [
          report.month.description, group.currency.code, CSVRenderer.text(row.category), money(row.budgetMinor),
          money(row.spentMinor), money(row.remainingMinor), row.percentUsed?.description ?? "", row.status.rawValue,
          money(row.trailingAverageMinor), row.changeFromAveragePercent?.description ?? "", money(row.paceMinor),
          money(row.projectedMinor), String(row.transactionCount), row.kind.rawValue,
          row.averageMonths.map(String.init) ?? "", row.projectionBasis?.rawValue ?? "", "",
        ]
        lines.append(fields.map(CSVRenderer.quote).joined(separator: ","))
      }
      for line in moneyInRows(group) {
        let fields =
          [report.month.description, group.currency.code, CSVRenderer.text(line.category)]
          + Array(repeating: "", count: 9) + [
            line.count.map(String.init) ?? "", line.kind, "", "",
            Money(minor: line.amount, currency: group.currency).decimalString,
          ]
        lines.append(fields.map(CSVRenderer.quote).joined(separator: ","))
      }
    }
    return lines.joined(separator: "\r\n") + "\r\n"
  }

  /// Income per category, unsorted money in and transfers, when there are any.
  func moneyInRows(_ group: CurrencyGroup) -> [(category: String, kind: String, amount: Int64, count: Int?)] {
    var rows = group.income.map { ($0.category, "income", $0.amountMinor, Int?.none) }
    if group.unsortedInCount > 0 || group.unsortedInMinor != 0 {
      rows.append((uncategorizedName, "unsorted", group.unsortedInMinor, group.unsortedInCount))
    }
    if group.transferCount > 0 || group.transfersMinor != 0 {
      rows.append((transfersName, "transfer", group.transfersMinor, group.transferCount))
    }
    return rows
  }

  /// User text for a cell: control characters made visible (`TerminalText.sanitize`: a CSV
  /// is often read with `cat`), and a leading `= + - @` quoted so a spreadsheet does not run it.
  static func text(_ s: String) -> String {
    let s = TerminalText.sanitize(s)
    guard let first = s.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return s }
    return "'" + s
  }

  static func quote(_ field: String) -> String {
    guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
    else { return field }
    return "\"" + field.replacingAll("\"", with: "\"\"") + "\""
  }
}

extension String {
  func replacingAll(_ target: Character, with replacement: String) -> String {
    var out = ""
    for c in self { if c == target { out += replacement } else { out.append(c) } }
    return out
  }
}
