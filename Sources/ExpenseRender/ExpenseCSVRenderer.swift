import ExpenseCore

/// `list --format csv`: the `list --format json` contract as one RFC 4180 table, one row per
/// expense, newest first: `id`, `date`, `amount_minor` (signed integer, exact), `amount` (the
/// same as a decimal), `currency`, `description`, `category` (empty when none), `account`,
/// `source_file`, `source_line` (empty for rows added by hand). CRLF line ends.
///
/// Text columns are sanitized and formula-neutralised as `CSVWriter.text` documents; the
/// number columns (`id`, `amount_minor`, `amount`, `source_line`) are written from integers and
/// stay numbers, so `-1234` is a negative amount, not a formula.
public enum ExpenseCSVRenderer {
  public static let header = [
    "id", "date", "amount_minor", "amount", "currency", "description", "category", "account", "source_file",
    "source_line",
  ]

  public static func render(_ expenses: [Expense]) -> String {
    let rows = expenses.map { e in
      [
        e.id.map(String.init) ?? "", e.date.description, String(e.amount.minor), e.amount.decimalString,
        e.amount.currency.code, CSVWriter.text(e.description), e.category.map(CSVWriter.text) ?? "",
        e.account.map(CSVWriter.text) ?? "", e.source.map { CSVWriter.text($0.file) } ?? "",
        e.source.map { String($0.line) } ?? "",
      ]
    }
    return CSVWriter(lineEnd: .crlf).table(header: header, rows: rows)
  }
}
