import ExpenseCore
import ExpenseStore

/// Recurring payments found from the rows: listed with ids that stay theirs, confirmed or
/// ignored by the user. A series never creates rows; the report's projection expects what a
/// series still owes this month (`ReportLoader`).
extension ExpenseService {
  /// Every series found in the rows up to today, each with its stored id (a series listed for
  /// the first time gets the next id, in one transaction: a write, though nothing the history
  /// keeps). Ignored series are listed only with `includeIgnored`.
  public func recurring(includeIgnored: Bool = false) throws -> [RecurringItem] {
    let today = clock.today()
    return try store.atomically {
      let found = try RecurringPayments.series(store, through: today.calendarMonth, today: today)
      var stored = try RecurringRecords.load(store)
      var items: [RecurringItem] = []
      for series in found {
        let key = RecurringRecords.Key(payee: series.payee, currency: series.currency)
        if stored[key] == nil {
          let body = RecurringRecords.Body(payee: series.payee, currency: series.currency, decision: .detected)
          stored[key] = (try RecurringRecords.records.add(body, to: store), body)
        }
        guard let (id, body) = stored[key], includeIgnored || body.decision != .ignored else { continue }
        items.append(RecurringItem(id: id, series: series, decision: body.decision, today: today))
      }
      return items.sorted { (order($0), $0.next, $0.id) < (order($1), $1.next, $1.id) }
    }
  }

  /// Late first, then expected, then stopped; ignored last.
  private func order(_ item: RecurringItem) -> Int {
    if item.decision == RecurringRecords.Decision.ignored.rawValue { return 3 }
    switch item.status {
    case .late: return 0
    case .expected: return 1
    case .stopped: return 2
    }
  }

  /// Confirms series `id` (`ServiceError.recurringNotFound` when no series has it).
  public func confirmRecurring(id: Int64) throws -> RecurringItem {
    try decide(id: id, .confirmed, action: "recurring confirm")
  }

  /// Ignores series `id`: it leaves the report and its projection, and stays listed only by
  /// `recurring --all`, from where `recurring confirm` brings it back.
  public func ignoreRecurring(id: Int64) throws -> RecurringItem {
    try decide(id: id, .ignored, action: "recurring ignore")
  }

  private func decide(id: Int64, _ decision: RecurringRecords.Decision, action: String) throws -> RecurringItem {
    let today = clock.today()
    return try recording(action) {
      guard let record = try store.record(kind: RecurringRecords.records.name, id: id),
        let old = try RecurringRecords.records.load(store).first(where: { $0.id == id })?.body
      else { throw ServiceError.recurringNotFound(id) }
      let found = try RecurringPayments.series(store, through: today.calendarMonth, today: today)
      guard let series = found.first(where: { $0.payee == old.payee && $0.currency == old.currency }) else {
        throw ServiceError.recurringNotFound(id)
      }
      var body = old
      body.decision = decision
      let replaced = StoredRecord(kind: record.kind, id: id, body: try RecurringRecords.records.encoded(body))
      var effect: History.Recorded? = nil
      if replaced != record {
        _ = try store.removeRecord(kind: record.kind, id: id)
        try store.restoreRecord(replaced)
        effect = .effect(.records(kind: record.kind, added: [replaced], removed: [record]))
      }
      let item = RecurringItem(id: id, series: series, decision: decision, today: today)
      return (item, "\(action) #\(id) \(series.name)", effect)
    }
  }
}
