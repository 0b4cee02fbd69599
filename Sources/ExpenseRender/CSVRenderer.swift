import ExpenseCore

/// The whole report as one RFC 4180 table: one header, one row per record, the record's type in
/// `record`, so a spreadsheet can filter it. Every field of the JSON contract is a column.
///
/// Records, in order: per currency one `category` row per category and a `total` row (with the
/// status counts, `daily_allowance` and `amounts_capped`), then the money that is not spending:
/// one `income` row per income category, `unsorted` money in (category `Uncategorized`) and
/// `transfer`s, each with its amount in `amount` and its row count in `transactions` (income:
/// empty); then one `expense` row per transaction of the month (`id`, `date`, `description`,
/// `account`, `source_file`, `source_line`, signed `amount`), one `trend` row per category and
/// month of the trends (`month` is that month, `spent` its spending), one `report` row (`today`,
/// `days_*`, `expense_count`) and one `section` row per section (`section`, `title`,
/// `collapsible`, `collapsible_in`, `expanded`, `item_count`). `kind` is the category's kind
/// for category and total rows and the record type of the money-in rows.
///
/// Amounts are plain decimals in the currency's minor digits (`-18.40`, `1500` for JPY),
/// percents one-decimal numbers, booleans `true`/`false`, missing values empty. CRLF line ends.
///
/// Written by `CSVWriter`: text columns (anything that can hold text from a bank file: category,
/// description, account, source file) are `CSVWriter.text` cells, sanitized and with a formula
/// defused by a leading `'`. Number columns are written by this renderer from integers and can
/// only be `-?digits[.digits]`, never a formula, so they stay numbers: `-18.40` in `remaining`
/// is a negative number a spreadsheet can sum. The split is by column, never by guessing from
/// the value.
public struct CSVRenderer {
  public let sections: SectionStates

  public init(sections: SectionStates) { self.sections = sections }

  public static let header = [
    "month", "currency", "category", "budget", "spent", "remaining", "percent_used", "status",
    "trailing_average", "change_from_average_percent", "pace", "projected", "transactions",
    "kind", "average_months", "projection_basis", "amount",
    "record", "today", "days_in_month", "days_elapsed", "days_left", "expense_count", "daily_allowance",
    "over_count", "near_count", "under_count", "unbudgeted_count", "amounts_capped",
    "id", "date", "description", "account", "source_file", "source_line",
    "section", "title", "collapsible", "collapsible_in", "expanded", "item_count",
    "carried_in", "available", "moved",
    "period", "period_spent", "month_share",
  ]

  /// One row being filled by column name; unknown names trap in tests, never at run time.
  struct Row {
    var cells = [String](repeating: "", count: CSVRenderer.header.count)
    subscript(_ name: String) -> String {
      get { CSVRenderer.index[name].map { cells[$0] } ?? "" }
      set { if let i = CSVRenderer.index[name] { cells[i] = newValue } }
    }
  }

  static let index: [String: Int] = Dictionary(
    uniqueKeysWithValues: header.enumerated().map { ($0.element, $0.offset) })

  public func render(_ report: BudgetReport) -> String {
    let writer = CSVWriter(lineEnd: .crlf)
    var out = writer.record(CSVRenderer.header)
    for group in report.groups {
      let money: (Int64?) -> String = { minor in
        minor.map { Money(minor: $0, currency: group.currency).decimalString } ?? ""
      }
      for (index, row) in (group.categories + [group.totals.row]).enumerated() {
        var r = Row()
        let isTotal = index == group.categories.count
        r["record"] = isTotal ? "total" : "category"
        r["month"] = report.month.description
        r["currency"] = group.currency.code
        r["category"] = CSVWriter.text(row.category)
        r["budget"] = money(row.budgetMinor)
        r["spent"] = money(row.spentMinor)
        r["remaining"] = money(row.remainingMinor)
        r["carried_in"] = money(row.carriedInMinor)
        r["available"] = money(row.availableMinor)
        r["moved"] = money(row.movedMinor)
        r["period"] = row.period?.rawValue ?? ""
        r["period_spent"] = money(row.periodSpentMinor)
        r["month_share"] = money(row.monthShareMinor)
        r["percent_used"] = row.percentUsed?.description ?? ""
        r["status"] = row.status.rawValue
        r["trailing_average"] = money(row.trailingAverageMinor)
        r["change_from_average_percent"] = row.changeFromAveragePercent?.description ?? ""
        r["pace"] = money(row.paceMinor)
        r["projected"] = money(row.projectedMinor)
        r["transactions"] = String(row.transactionCount)
        r["kind"] = row.kind.rawValue
        r["average_months"] = row.averageMonths.map(String.init) ?? ""
        r["projection_basis"] = row.projectionBasis?.rawValue ?? ""
        if isTotal {
          let t = group.totals
          r["over_count"] = String(t.overCount)
          r["near_count"] = String(t.nearCount)
          r["under_count"] = String(t.underCount)
          r["unbudgeted_count"] = String(t.unbudgetedCount)
          r["daily_allowance"] = money(group.dailyAllowanceMinor)
          r["amounts_capped"] = String(group.amountsCapped)
        }
        out += writer.record(r.cells)
      }
      for line in moneyInRows(group) {
        var r = Row()
        r["record"] = line.kind
        r["month"] = report.month.description
        r["currency"] = group.currency.code
        r["category"] = CSVWriter.text(line.category)
        r["transactions"] = line.count.map(String.init) ?? ""
        r["kind"] = line.kind
        r["amount"] = money(line.amount)
        out += writer.record(r.cells)
      }
    }
    for e in report.expenses ?? [] { out += writer.record(CSVRenderer.expenseRow(e, month: report.month).cells) }
    if let trends = report.trends {
      for row in trends.rows {
        for (month, spent) in zip(trends.months, row.spentMinor) {
          var r = Row()
          r["record"] = "trend"
          r["month"] = month.description
          r["currency"] = row.currency.code
          r["category"] = CSVWriter.text(row.category)
          // Empty, like every missing value: a month before the data is not a month of $0.00.
          r["spent"] = row.hasData(month) ? Money(minor: spent, currency: row.currency).decimalString : ""
          out += writer.record(r.cells)
        }
      }
    }
    var r = Row()
    r["record"] = "report"
    r["month"] = report.month.description
    r["today"] = report.today.description
    r["days_in_month"] = String(report.daysInMonth)
    r["days_elapsed"] = report.daysElapsed.map(String.init) ?? ""
    r["days_left"] = report.daysLeft.map(String.init) ?? ""
    r["expense_count"] = String(report.expenseCount)
    out += writer.record(r.cells)
    for id in SectionID.allCases {
      let entry = JSONRenderer.SectionEntry(id: id, report: report, states: sections)
      var r = Row()
      r["record"] = "section"
      r["month"] = report.month.description
      r["section"] = entry.id
      r["title"] = entry.title
      r["collapsible"] = String(entry.collapsible)
      r["collapsible_in"] = entry.collapsibleIn.rawValue
      r["expanded"] = String(entry.expanded)
      r["item_count"] = String(entry.itemCount)
      out += writer.record(r.cells)
    }
    return out
  }

  static func expenseRow(_ e: Expense, month: Month) -> Row {
    var r = Row()
    r["record"] = "expense"
    r["month"] = month.description
    r["currency"] = e.amount.currency.code
    r["category"] = CSVWriter.text(e.category ?? uncategorizedName)
    r["amount"] = e.amount.decimalString
    r["id"] = e.id.map(String.init) ?? ""
    r["date"] = e.date.description
    r["description"] = CSVWriter.text(e.description)
    r["account"] = e.account.map(CSVWriter.text) ?? ""
    r["source_file"] = e.source.map { CSVWriter.text($0.file) } ?? ""
    r["source_line"] = e.source.map { String($0.line) } ?? ""
    return r
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
}
