import ExpenseCore

/// What the text list's layout needs to know of all its rows, gathered in a first pass over
/// them (in any order): the widest cell of each column, as `Table` would measure the cells of
/// `ExpenseListRenderer.render`, without keeping a row.
///
/// - Texts: each description and category is measured as the table measures it
///   (`DisplayWidth.of(TerminalText.sanitize(text), limit: width)`), simple text (`SimpleText`)
///   from its bytes.
/// - Dates: a date's cell width depends only on its year and month; each new month is measured.
/// - Amounts: a full amount's cell (`-$1,234.50`) only widens with its magnitude, so per
///   currency the lowest and the highest amount are the widest money out and in; the short form
///   (`$12.3k`) is the full one below 10,000 major units (tracked the same way) and is measured
///   exactly above, in a second pass made only when no table with full amounts fits.
struct ExpenseListMeasure {
  var rows = 0
  var descriptionWidth = 0
  var categoryWidth = 0
  var longDateWidth = 0
  var shortDateWidth = 0
  /// The widest id (its digits), for the `Id` column of `ExpenseListRenderer.ids`.
  var idWidth = 0
  /// The widest short amount of 10,000 major units or more.
  var largeShortAmountWidth = 0
  /// Per currency: every amount's low and high, and those below 10,000 major units.
  var amounts: [(currency: Currency, low: Int64, high: Int64, smallLow: Int64?, smallHigh: Int64?)] = []
  private var lastMonth: (year: Int, month: Int)?
  private var lastCurrency = 0

  mutating func add(_ row: ExpenseRow, renderer: ExpenseListRenderer) {
    let cap = max(1, renderer.width)
    rows += 1
    if let id = row.id { idWidth = max(idWidth, ExpenseListMeasure.digits(id)) }
    descriptionWidth = max(descriptionWidth, ExpenseListMeasure.width(row.description, cap: cap))
    if let category = row.category {
      categoryWidth = max(categoryWidth, ExpenseListMeasure.width(category, cap: cap))
    } else {
      categoryWidth = max(categoryWidth, DisplayWidth.of(uncategorizedName, limit: cap))
    }
    if lastMonth?.year != row.date.year || lastMonth?.month != row.date.month {
      lastMonth = (row.date.year, row.date.month)
      longDateWidth = max(longDateWidth, DisplayWidth.of(renderer.date(row.date, long: true), limit: cap))
      shortDateWidth = max(shortDateWidth, DisplayWidth.of(renderer.date(row.date, long: false), limit: cap))
    }
    let amount = row.amount
    if lastCurrency >= amounts.count || amounts[lastCurrency].currency != amount.currency {
      if let index = amounts.firstIndex(where: { $0.currency == amount.currency }) {
        lastCurrency = index
      } else {
        amounts.append((amount.currency, amount.minor, amount.minor, nil, nil))
        lastCurrency = amounts.count - 1
      }
    }
    amounts[lastCurrency].low = min(amounts[lastCurrency].low, amount.minor)
    amounts[lastCurrency].high = max(amounts[lastCurrency].high, amount.minor)
    if amount.minor.magnitude / UInt64(amount.currency.scale) < 10_000 {
      amounts[lastCurrency].smallLow = min(amounts[lastCurrency].smallLow ?? amount.minor, amount.minor)
      amounts[lastCurrency].smallHigh = max(amounts[lastCurrency].smallHigh ?? amount.minor, amount.minor)
    }
  }

  /// Second pass, only when no table with full amounts fits: the short amounts of 10,000 major
  /// units or more, each measured (`render` formats every short amount in that case too).
  mutating func addShortAmount(_ row: ExpenseRow, renderer: ExpenseListRenderer, shortAmounts: Amounts) {
    guard row.amount.minor.magnitude / UInt64(row.amount.currency.scale) >= 10_000 else { return }
    let text = renderer.signed(row.amount, shortAmounts)
    largeShortAmountWidth = max(largeShortAmountWidth, DisplayWidth.of(text, limit: max(1, renderer.width)))
  }

  /// The widest amount cell in the full (`short == false`) or the short form.
  func amountWidth(renderer: ExpenseListRenderer, _ a: Amounts) -> Int {
    let cap = max(1, renderer.width)
    var widest = a.short ? largeShortAmountWidth : 0
    for entry in amounts {
      let ends = a.short ? [entry.smallLow, entry.smallHigh].compactMap { $0 } : [entry.low, entry.high]
      for minor in ends {
        let text = renderer.signed(Money(minor: minor, currency: entry.currency), a)
        widest = max(widest, DisplayWidth.of(text, limit: cap))
      }
    }
    return widest
  }

  /// The cells of an id as text (`String(id)`): its digits and a minus sign.
  static func digits(_ id: Int64) -> Int {
    var count = id < 0 ? 2 : 1
    var rest = id.magnitude / 10
    while rest > 0 {
      count += 1
      rest /= 10
    }
    return count
  }

  /// A text cell's width as `Table` measures it.
  static func width(_ bytes: UnsafeBufferPointer<UInt8>, cap: Int) -> Int {
    if let width = SimpleText.width(bytes, limit: cap) { return width }
    return DisplayWidth.of(TerminalText.sanitize(ExpenseRow.string(bytes)), limit: cap)
  }
}
