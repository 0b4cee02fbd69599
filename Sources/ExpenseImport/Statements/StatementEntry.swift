import ExpenseCore

/// One transaction as a statement format states it, before it becomes an `ImportedRow`: what
/// every non-CSV reader (OFX, QIF, CAMT.053, MT940) produces, so that categories, rules,
/// fingerprints, duplicates and the summary are the CSV import's own.
public struct StatementEntry: Sendable, Equatable {
  /// 1-based line of the file where the entry starts (for XML, the line of its element).
  public var line: Int
  /// The booking date (the date the money moved on the account); for a card payment the
  /// statement marks as one, the day the card was used (`dateCardPayment`).
  public var date: CivilDate
  /// Signed: negative is money out of the account (a purchase, a fee, a transfer out).
  public var amount: Money
  /// What a person reads: payee, then memo or remittance text (the reader joins them; the
  /// importer collapses whitespace and removes control characters).
  public var description: String
  /// The file's own category (QIF `L`), or nil.
  public var category: String?
  /// The account the statement is of (OFX `ACCTID`, CAMT IBAN, MT940 `:25:`), or nil.
  public var account: String?
  /// The account's name as it is stored and shown, when it differs from `account`, which
  /// stays the row's identity (its fingerprint): an OFX card number is stored masked
  /// ("Card …8812"), never whole, while re-importing a file stored before still finds its rows.
  public var accountName: String?
  /// The bank's stable id of the transaction (OFX `FITID`, CAMT `AcctSvcrRef`, MT940 bank
  /// reference), when the format gives one: the identity for duplicates, so two identical
  /// purchases with different ids are both kept and an overlapping later file adds only what is new.
  public var transactionID: String?
  /// A transfer between the user's own accounts (QIF `L[Account]`): stored in a category of
  /// kind transfer, so it is neither spending nor income.
  public var isTransfer: Bool
  /// Rows of one split transaction (QIF `S`/`$`) share a group number; nil otherwise.
  public var splitGroup: Int?
  /// The description an earlier version of the reader made of this entry, when this one makes
  /// another (an MT940 `:86:` in the `/NAME/…/REMI/…` style was the whole field before): the
  /// fingerprint of an entry without the bank's id is computed from it, so a file imported by
  /// that version comes in again as duplicates instead of twice. Nil: `description` is it.
  public var identityDescription: String?
  /// The date an earlier version gave this entry, when this one dates it otherwise (a card
  /// payment was dated when booked, and is now dated when the card was used): its fingerprint
  /// is computed with it, and the store finds the row that version stored by the key of that
  /// date (`ImportedRow.formerKey`). Nil: `date` is it.
  public var identityDate: CivilDate?

  public init(
    line: Int, date: CivilDate, amount: Money, description: String, category: String? = nil,
    account: String? = nil, transactionID: String? = nil, isTransfer: Bool = false, splitGroup: Int? = nil
  ) {
    self.line = line
    self.date = date
    self.amount = amount
    self.description = description
    self.category = category
    self.account = account
    self.transactionID = transactionID
    self.isTransfer = isTransfer
    self.splitGroup = splitGroup
    identityDescription = nil
    identityDate = nil
  }
}

/// What a statement reader reports, in file order.
public enum StatementEvent: Sendable, Equatable {
  case entry(StatementEntry)
  /// Deliberately left out: pending, not booked, a reversal pair's cancelled half, …
  case excluded(line: Int, reason: String)
  /// Something the user should know that does not stop the import.
  case warning(String)
  /// An entry whose own values are bad (an amount that is not a number, an invalid date): the
  /// importer stops with it, or with `--skip-invalid` skips it (and `--rejects` keeps it). The
  /// reader goes on with the next entry; damage to the file's structure is thrown instead.
  case rejected(ImportIssue)
  /// A balance the statement states (OFX `LEDGERBAL`, CAMT.053 `Bal`, MT940 `:60F:`/`:62F:`),
  /// its account the name the statement's entries store.
  case balance(StatementBalance)
}

/// A setting the reader found, as `--preview` and the summary show it: ("currency", "EUR",
/// "CURDEF"), ("account", "DE12…", "<Acct><Id><IBAN>").
public struct StatementSetting: Sendable, Hashable {
  public var name: String
  public var value: String
  /// Where it came from: a tag, a header, a flag.
  public var source: String

  public init(name: String, value: String, source: String) {
    self.name = name
    self.value = value
    self.source = source
  }
}

/// `values` without repeats, in the order they first came: the accounts and currencies of a
/// file's statements, as a setting shows them. A set remembers what was seen, so a file of many
/// statements costs one pass (a list searched for each took time quadratic in their number).
func distinctInOrder(_ values: some Sequence<String>) -> [String] {
  var seen: Set<String> = []
  var out: [String] = []
  for value in values where seen.insert(value).inserted { out.append(value) }
  return out
}

/// Reads one statement format. A reader streams: it keeps at most one transaction (or one QIF
/// split set, one CAMT entry) in memory, whatever the file's size.
///
/// Errors are `ImportError.row(ImportIssue)` naming the file (`file`), the line, the element or
/// field (`columnName`: `TRNAMT`, `Ntry/Amt`, `:61:`), the raw value and a hint; anything that
/// makes the file unreadable as a whole (truncated, no statement in it) is
/// `ImportError.undetectable`. Nothing is written by a reader: the importer stores the rows in
/// one transaction after the reader has produced them, so a throw anywhere writes nothing.
public protocol StatementReader {
  /// `file` is the name errors use; `options` the import's flags (`--date-format`, `--account`,
  /// `--currency` where the format leaves them open); `defaultCurrency` the database's.
  init(file: String, options: ImportOptions, defaultCurrency: Currency)
  /// What the reader found so far (format version, account, currency, date format …).
  var settings: [StatementSetting] { get }
  /// Reads the whole file from `source`, calling `body` for each event in file order.
  mutating func read(_ source: any ByteSource, _ body: (StatementEvent) throws -> Void) throws
}
