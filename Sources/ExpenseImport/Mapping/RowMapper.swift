import ExpenseCore

#if canImport(Glibc)
  import Glibc
#endif

/// Turns one CSV record into a row, an exclusion or an issue, working on the field bytes.
///
/// `map` runs the stages in order, each in its own file: exclusion (`--skip-when`, status),
/// date and currency (RowMapper+Fields), amount (RowMapper+Amount), account and the
/// fingerprint's prefix, description and its hash (RowMapper+Description), category, and the
/// occurrence that tells identical rows apart. Noncopyable: it owns raw buffers and frees them
/// exactly once, in `deinit`.
///
/// Amount rules:
/// - one signed amount column: the value as is (negated with `--spending positive`);
/// - debit/credit columns: `|credit| − |debit|` (an empty cell or `0.00` counts as zero, so a
///   row with both filled is netted);
/// - amount + direction column: `−|amount|` for `Af`, `D`, `Debit`, `DR`, `Out`, `-`, `Soll`,
///   `S`, `Withdrawal`; `+|amount|` for `Bij`, `C`, `Credit`, `CR`, `In`, `+`, `Haben`, `H`, `Deposit`;
/// - a fee column is charged on top: `amount − |fee|`. With PayPal's Gross and Fee (signed,
///   negative fees) this equals PayPal's Net column; with Revolut's positive fees it is the
///   amount plus the fee as an outflow.
struct RowMapper: ~Copyable {
  /// What `map` makes of a record: `.row`, `.excluded` or `.rejected` (never `.warning`).
  typealias Outcome = ImportEvent

  let plan: Plan
  let file: String
  var text: TextDecoder
  let parser: AmountParser
  var occurrences = OccurrenceCounter()
  /// Description bytes of the current row (a raw buffer: no per-byte Array bookkeeping).
  var scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
  var scratchCapacity = 256
  var scratchCount = 0
  /// `plan.descriptions`, so the hot loop does not retain the plan's array.
  let descriptionColumns: UnsafeMutableBufferPointer<Int>
  let dateOrder: DateFormat.Order
  /// Bytes of the last date that parsed, and what they gave (dates repeat row after row).
  let lastDateBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: RowMapper.dateCacheLength)
  var lastDateCount = -1
  var lastDate = CivilDate(daysSinceEpoch: 0)
  var lastDay = 0
  var lastCurrencyKey: UInt32 = 0
  var lastCurrency: Currency
  var accounts = FieldStringCache()
  var lastAccountSlot = -1
  var lastAccount: String?
  /// The currency of the last row handed over as stored (`StoredRow`), for the file's balance
  /// evidence; with `lastAccount`, what a stored row no longer carries.
  var storedCurrency: Currency?
  var lastStatusBytes: [UInt8] = [0xFF]
  var lastStatusExcluded = false
  var categories = FieldStringCache()
  /// Maps a category as read to the spelling to store (`CSVImporter.categoryName`); applied
  /// once per distinct cell, when it enters `categories`.
  var categoryName: ((String) -> String?)?
  var descriptionCache = TextCache()
  /// Until the first category cell that is not the single byte 0xFF, rows get no category (the
  /// behaviour of the original one-entry cache, whose empty state was those bytes).
  var categoryUnset = true
  var unknownStatuses: Set<String> = []
  /// Fingerprint state after `account|date|CUR|`, valid while those stay the same.
  var prefix = Fingerprint.Hasher64()
  var prefixValid = false
  var prefixCurrencyKey: UInt32 = 0
  /// The issue of the stage that just failed (see `map`).
  var failure: ImportIssue?
  /// Warnings produced while mapping (unsorted dates, unknown statuses); drained by the importer.
  var warnings: [String] = []
  /// The keys the ledger held before the import (`CSVImporter.storedKeys`); nil: none asked.
  var storedKeys: (any StoredKeys)?

  static let dateCacheLength = 32

  /// Records a stage's issue; returns nil so a stage can `return fail(issue)`.
  /// Ends the fingerprint with the row's occurrence among identical rows of its day.
  @inline(__always)
  mutating func finishFingerprint(_ reader: CSVReader, _ h: inout Fingerprint.Hasher64) {
    let (occurrence, unsortedNow) = occurrences.next(day: lastDay, key: h.state)
    if unsortedNow {
      warnings.append(
        "dates are not in order (line \(reader.line)); counting identical rows now keeps every row in memory")
    }
    Fingerprint.finish(&h, occurrence: occurrence)
  }

  @inline(never)
  mutating func fail<T>(_ issue: ImportIssue) -> T? {
    failure = issue
    return nil
  }

  /// The recorded issue, cleared.
  @inline(never)
  mutating func takeFailure() -> ImportIssue {
    defer { failure = nil }
    return failure!
  }

  deinit {
    scratch.deallocate()
    descriptionColumns.deallocate()
    lastDateBytes.deallocate()
  }

  init(plan: Plan, file: String) {
    self.plan = plan
    self.file = file
    text = TextDecoder(mode: plan.fieldText)
    parser = AmountParser(decimalMark: plan.decimalMark)
    lastCurrency = plan.currency
    lastAccount = plan.account
    descriptionColumns = .allocate(capacity: plan.descriptions.count)
    _ = descriptionColumns.initialize(from: plan.descriptions)
    dateOrder = plan.dateFormat.order
  }

  static let excludedStatuses: Set<String> = [
    "pending", "declined", "reverted", "failed", "cancelled", "canceled", "rejected", "void", "voided", "denied",
    "vorgemerkt", "offen", "abgelehnt", "storniert", "in behandeling", "geweigerd", "en attente", "pendiente",
    "authorized", "authorised", "on hold", "held",
  ]
  /// Words a bank prints in the date column of a reservation not yet booked (Finnish `Varaus`,
  /// German `Vorgemerkt`, ...): such rows are excluded as pending, like a pending status.
  static let pendingDates: Set<String> = [
    "varaus", "pending", "vorgemerkt", "reserved", "reservation", "reservering", "en attente", "pendiente",
    "in attesa", "reserverad", "reservert", "reserveret", "autorisation", "authorization", "authorisation",
  ]

  static let countedStatuses: Set<String> = [
    "", "completed", "complete", "booked", "posted", "settled", "cleared", "gebucht", "success", "successful",
    "processed", "paid", "done", "refunded", "partially refunded", "verwerkt", "geboekt", "ok", "approved",
    "udført", "utført", "genomförd", "bokförd", "bokført", "contabilizzato", "eseguito", "contabilizado",
    "comptabilisé",
  ]

  mutating func map(_ reader: CSVReader) -> Outcome {
    if let excluded = exclusion(reader) { return excluded }
    guard let date = date(RowMapper.cell(reader, plan.date)) else { return .rejected(dateIssue(reader)) }
    // A stage that fails returns nil and leaves its issue in `failure` (a Result per stage would
    // copy the large `ImportIssue` payload on every row).
    guard let (currency, currencyKey) = self.currency(reader) else { return .rejected(takeFailure()) }
    guard let minor = amount(reader, currency) else { return .rejected(takeFailure()) }
    readAccount(reader)
    var h = fingerprintPrefix(date, currency, currencyKey)
    Fingerprint.amount(&h, minor)
    let beforeDescription = h
    let ascii = scanDescription(reader, &h)
    var validUTF8: Bool?
    var fingerprinted = false
    if let storedKeys {
      // The hash is the row's once its bytes are the text stored: a row the ledger holds is
      // settled here, before any text of it is made.
      let valid = scannedBytesAreUTF8(ascii: ascii)
      validUTF8 = valid
      if valid && !scannedHasNUL {
        finishFingerprint(reader, &h)
        fingerprinted = true
        let key = ExpenseKey(date: date, fingerprintHash: h.state).rawValue
        if storedKeys.contains(key) {
          _ = self.category(reader)  // read as for every row: a cell that cannot be read is refused
          storedCurrency = currency
          return .stored(StoredRow(line: reader.line, key: key, date: date))
        }
      }
    }
    // (Once fingerprinted, the text is the bytes hashed: `descriptionText` leaves `h` as it is.)
    guard let description = descriptionText(reader, ascii: ascii, validUTF8: validUTF8, before: beforeDescription, &h)
    else { return .rejected(takeFailure()) }
    let category = self.category(reader)
    if !fingerprinted { finishFingerprint(reader, &h) }
    return .row(
      ImportedRow(
        line: reader.line, date: date, amount: Money(minor: minor, currency: currency), description: description,
        category: category, account: lastAccount, fingerprintHash: h.state))
  }
}
