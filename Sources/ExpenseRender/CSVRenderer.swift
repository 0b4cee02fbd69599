import ExpenseCore

/// The category benchmarks as RFC 4180 CSV, one row per category plus a `Total` row per currency.
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
          money(row.projectedMinor), String(row.transactionCount),
        ]
        lines.append(fields.map(CSVRenderer.quote).joined(separator: ","))
      }
    }
    return lines.joined(separator: "\r\n") + "\r\n"
  }

  static func text(_ s: String) -> String {
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
