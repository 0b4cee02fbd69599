import ExpenseCore

/// Imports one OFX, QIF, CAMT.053 or MT940 file through the same events as a CSV file: the
/// format's reader (`StatementReaders`) produces `StatementEntry`s, and this turns each into an
/// `ImportedRow` (description cleaned, category mapped, fingerprint) the way the CSV importer
/// does, so rules, duplicates, all-or-nothing and the summary are the same for every format.
///
/// Fingerprints: an entry with the bank's own id (OFX `FITID`, CAMT `AcctSvcrRef`, MT940 bank
/// reference) is identified by `account|id`: two identical purchases with different ids are
/// both kept, and an overlapping later file adds only what is new. Without an id, the CSV
/// definition applies (`Fingerprint.hash`, identical rows numbered by occurrence).
public final class StatementImporter: FileImporter {
  public let path: String
  public let format: StatementFormat
  public let options: ImportOptions
  public let defaultCurrency: Currency
  public let displayName: String
  public var categoryName: ((String) -> String?)?
  let sample: [UInt8]
  let truncated: Bool
  /// Standard input, already sampled: replayed in front of the rest.
  let standardInput: FileSource?
  /// What the reader found, once `run` has read the file.
  var found: [StatementSetting] = []
  var encoding: (TextEncoding, String)?
  public private(set) var transferCategories: Set<String> = []

  init(
    path: String, format: StatementFormat, options: ImportOptions, defaultCurrency: Currency, displayName: String,
    sample: [UInt8], truncated: Bool, standardInput: FileSource?
  ) {
    self.path = path
    self.format = format
    self.options = options
    self.defaultCurrency = defaultCurrency
    self.displayName = displayName
    self.sample = sample
    self.truncated = truncated
    self.standardInput = standardInput
  }

  /// The category a transfer between the user's own accounts is stored in (kind transfer).
  public static func transferCategory(_ account: String?) -> String {
    guard let account, !account.isEmpty else { return "Transfer" }
    return "Transfer: " + account
  }

  public func detect() throws(ImportError) -> DetectedDialect {
    let (encoding, reason) = try textEncoding()
    return DetectedDialect(
      encoding: encoding, encodingReason: reason, delimiter: "", headerLine: nil, dataStartLine: 1, columns: [],
      dateFormat: "", decimalMark: "", signConvention: .signedNegativeIsSpending, currency: defaultCurrency,
      warnings: [], format: format, settings: found)
  }

  /// The encoding the reader gets its text in, and why. XML (CAMT.053) is handed over as it is:
  /// the XML parser honours the file's own declaration.
  func textEncoding() throws(ImportError) -> (TextEncoding, String) {
    if let encoding { return encoding }
    let answer: (TextEncoding, String)
    if let given = options.encoding {
      answer = (given, "--encoding")
    } else if format == .camt053 {
      answer = (.utf8, "the XML declaration, read by the XML parser")
    } else if let declared = try StatementEncoding.declared(in: sample, format: format, file: displayName) {
      answer = StatementEncoding.check(declared, sample: sample, truncated: truncated)
    } else {
      answer = try EncodingGuess.detect(sample, truncated: truncated, file: displayName)
    }
    encoding = answer
    return answer
  }

  public func run(
    skipInvalid: Bool, progress: ((ImportProgress) -> Void)?, _ body: ImportEventHandler
  )
    throws
  {
    let (encoding, _) = try textEncoding()
    let fileSource: any ByteSource & ProgressSource
    if let standardInput {
      fileSource = ReplaySource(prefix: sample, rest: standardInput)
    } else {
      fileSource = try FileSource(path: path)
    }
    let checked = format == .camt053 ? nil : try StatementImporter.text(fileSource, encoding, options, displayName)
    let source: any ByteSource = checked ?? fileSource
    guard var reader = StatementReaders.make(format, file: displayName, options: options, currency: defaultCurrency)
    else {
      throw ImportError.undetectable(
        file: displayName, message: "this is \(format.rawValue), which this version does not read yet",
        hint: "export the statement from the bank as CSV")
    }
    var rows = EntryMapper(categoryName: categoryName)
    // A single-byte file was read byte for byte as UTF-8 before: identities are of that text.
    rows.legacySingleByte = checked != nil && (encoding == .windows1252 || encoding == .latin1)
    var count = 0
    defer {
      found = reader.settings
      transferCategories = rows.transfers
    }
    try reader.read(source) { event in
      for warning in checked?.takeWarnings() ?? [] { try body(.warning(warning)) }
      switch event {
      case .entry(let entry):
        try body(.row(rows.row(entry)))
        count += 1
        if count & 0xFFFF == 0, let progress {
          progress(ImportProgress(bytesRead: fileSource.bytesRead, totalBytes: fileSource.totalBytes, rows: count))
        }
      case .excluded(let line, let reason): try body(.excluded(line: line, reason: reason))
      case .warning(let text): try body(.warning(text))
      case .balance(var balance):
        balance.account = balance.account.map(EntryMapper.clean).flatMap { $0.isEmpty ? nil : $0 }
        try body(.balance(balance))
      case .rejected(let issue):
        guard skipInvalid else { throw ImportError.row(issue) }
        try body(.rejected(issue))
      }
    }
    for warning in checked?.takeWarnings() ?? [] { try body(.warning(warning)) }
    if let more = checked?.moreWarning { try body(.warning(more)) }
    progress?(ImportProgress(bytesRead: fileSource.bytesRead, totalBytes: fileSource.totalBytes, rows: count))
  }

  /// The UTF-8 a line-based reader (OFX, QIF, MT940) reads: a single-byte file transcoded
  /// (`SingleByteUTF8Source`), another through its transcoder, and every byte checked
  /// (`UTF8CheckSource`), so no U+FFFD is stored unless `--replace-invalid` asks for it.
  static func text(_ file: any ByteSource, _ encoding: TextEncoding, _ options: ImportOptions, _ name: String)
    throws(ImportError) -> UTF8CheckSource
  {
    let utf8: any ByteSource
    switch encoding {
    case .windows1252, .latin1: utf8 = SingleByteUTF8Source(file)
    default: utf8 = try encoding.transcoder(file)
    }
    return UTF8CheckSource(utf8, file: name, encoding: encoding, replace: options.replaceInvalid == true)
  }
}

/// Turns `StatementEntry`s into `ImportedRow`s: cleans the description, maps the category,
/// computes the fingerprint.
struct EntryMapper {
  var categoryName: ((String) -> String?)?
  var occurrences = OccurrenceCounter()
  /// Category spellings already mapped (each distinct name once, as the CSV importer does).
  var names: [String: String?] = [:]
  /// The stored names of transfer categories met so far.
  var transfers: Set<String> = []
  /// The file is Windows-1252 or ISO-8859-1, which the build before `SingleByteUTF8Source`
  /// handed to the readers as it was (each byte past ASCII a U+FFFD): the fingerprint of an entry
  /// without the bank's id is computed from the text as it read then, so that a file imported
  /// then is all duplicates now, while the row stores the text decoded right.
  var legacySingleByte = false

  mutating func row(_ entry: StatementEntry) -> ImportedRow {
    let description = EntryMapper.clean(entry.description)
    var category = entry.category.map(EntryMapper.clean).flatMap { $0.isEmpty ? nil : $0 }
    if entry.isTransfer { category = StatementImporter.transferCategory(category) }
    if let raw = category, let categoryName {
      if let known = names[raw] {
        category = known
      } else {
        let mapped = categoryName(raw)
        names[raw] = mapped
        category = mapped
      }
    }
    if entry.isTransfer, let category { transfers.insert(category) }
    let account = entry.account.map(EntryMapper.clean).flatMap { $0.isEmpty ? nil : $0 }
    let hash: UInt64
    let identityDate = entry.identityDate ?? entry.date
    let identityAccount = legacySingleByte ? account.map(SingleByteUTF8Source.legacyText) ?? "" : account ?? ""
    if let id = entry.transactionID.map(EntryMapper.clean), !id.isEmpty {
      var h = Fingerprint.Hasher64()
      h.string("id")
      h.byte(0x7C)
      h.string(identityAccount)
      h.byte(0x7C)
      h.string(legacySingleByte ? SingleByteUTF8Source.legacyText(id) : id)
      hash = h.state
    } else {
      // `Fingerprint.hash` in its stages, the row's bytes hashed once: the occurrence counter's
      // key is the hash with occurrence 0, the row's own the hash with its occurrence.
      var h = Fingerprint.prefix(account: identityAccount, date: identityDate, currency: entry.amount.currency)
      Fingerprint.amount(&h, entry.amount.minor)
      var text = identityText(entry, description: description)
      text.withUTF8 { h.lowercasedBytes($0) }
      var base = h
      Fingerprint.finish(&base, occurrence: 0)
      let occurrence = occurrences.next(day: identityDate.daysSinceEpoch, key: base.state).occurrence
      Fingerprint.finish(&h, occurrence: occurrence)
      hash = h.state
    }
    // The identity hashed `account`; what is stored is its name, when the reader gave one.
    let shown = entry.accountName.map(EntryMapper.clean).flatMap { $0.isEmpty ? nil : $0 } ?? account
    var row = ImportedRow(
      line: entry.line, date: entry.date, amount: entry.amount, description: description, category: category,
      account: shown, fingerprintHash: hash)
    row.splitGroup = entry.splitGroup ?? 0
    if identityDate != entry.date {
      row.formerKey = ExpenseKey(date: identityDate, fingerprintHash: hash).rawValue
    }
    return row
  }

  /// The description an entry's fingerprint is computed from: what the build before made of it
  /// (its `identityDescription`, its text read as that build read the file), so a file imported
  /// by it is recognised; see `StatementEntry.identityDescription` and `legacySingleByte`.
  func identityText(_ entry: StatementEntry, description: String) -> String {
    let text = entry.identityDescription.map(EntryMapper.clean) ?? description
    return legacySingleByte ? EntryMapper.clean(SingleByteUTF8Source.legacyText(text)) : text
  }

  /// Whitespace runs (and control characters, which a terminal would obey) collapsed to one
  /// space, trimmed at both ends.
  static func clean(_ text: String) -> String {
    isClean(text) ? text : collapse(text)
  }

  /// `clean`'s rule applied scalar by scalar.
  static func collapse(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    var pendingSpace = false
    for scalar in text.unicodeScalars {
      let v = scalar.value
      if v <= 0x20 || v == 0x7F || (v >= 0x80 && v < 0xA0) || v == 0x2028 || v == 0x2029 {
        pendingSpace = !out.isEmpty
        continue
      }
      if pendingSpace {
        out.append(" ")
        pendingSpace = false
      }
      out.append(scalar)
    }
    return String(out)
  }

  /// True when `clean` would return `text` as it is: its only blank is U+0020, never first,
  /// last or doubled, and it has no control character, C1 control or line separator. One pass
  /// over the UTF-8 bytes, for the common case of a description that needs no cleaning.
  static func isClean(_ text: String) -> Bool {
    let utf8 = text.utf8
    let answer = utf8.withContiguousStorageIfAvailable { bytes -> Bool in
      var previousBlank = true  // a blank first is not clean
      var i = 0
      let n = bytes.count
      while i < n {
        let b = bytes[i]
        if b <= 0x20 || b == 0x7F {
          guard b == 0x20, !previousBlank else { return false }
          previousBlank = true
        } else {
          previousBlank = false
          if b == 0xC2, i &+ 1 < n, bytes[i &+ 1] < 0xA0 { return false }  // U+0080–U+009F
          if b == 0xE2, i &+ 2 < n, bytes[i &+ 1] == 0x80, bytes[i &+ 2] == 0xA8 || bytes[i &+ 2] == 0xA9 {
            return false  // U+2028, U+2029
          }
        }
        i &+= 1
      }
      return !previousBlank || n == 0
    }
    return answer ?? false
  }
}
