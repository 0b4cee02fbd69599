import ExpenseCore

/// How a file will be read, as `expenses import FILE --preview` shows it: plain data, so the
/// same value prints as text at any width or as JSON.
public struct ImportPreview: Codable, Sendable, Equatable {
  /// One detected setting and where it came from.
  public struct Setting: Codable, Sendable, Equatable {
    public var name: String
    public var value: String
    /// `detected`, `--date-format`, `the header "Bedrag (EUR)"`, ...
    public var source: String
    public init(name: String, value: String, source: String) {
      self.name = name
      self.value = value
      self.source = source
    }
  }

  /// One column of the file.
  public struct Column: Codable, Sendable, Equatable {
    public var index: Int
    public var name: String?
    /// nil: ignored.
    public var role: String?
    public var samples: [String]
    public init(index: Int, name: String?, role: String?, samples: [String]) {
      self.index = index
      self.name = name
      self.role = role
      self.samples = samples
    }

    public func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(index, forKey: .index)
      try c.encode(name, forKey: .name)  // null, not absent (the JSON convention)
      try c.encode(role, forKey: .role)
      try c.encode(samples, forKey: .samples)
    }
  }

  /// One row as it would be stored.
  public struct Row: Codable, Sendable, Equatable {
    public var line: Int
    public var date: CivilDate
    public var amountMinor: Int64
    public var currency: String
    public var description: String
    public var category: String?
    /// The rule that categorized the row (its pattern), if one did.
    public var rule: String?
    public var duplicate: Bool
    /// The stored row (`file:line`) this row probably is: the import leaves it out unless
    /// `--keep-probable-duplicates`.
    public var probableDuplicateOf: String?
    /// The row (`file:line`, or `line N` of this file) it would be paired with as a transfer.
    public var transferWith: String?
    public init(
      line: Int, date: CivilDate, amountMinor: Int64, currency: String, description: String, category: String?,
      rule: String?, duplicate: Bool, probableDuplicateOf: String? = nil, transferWith: String? = nil
    ) {
      self.probableDuplicateOf = probableDuplicateOf
      self.transferWith = transferWith
      self.line = line
      self.date = date
      self.amountMinor = amountMinor
      self.currency = currency
      self.description = description
      self.category = category
      self.rule = rule
      self.duplicate = duplicate
    }

    public func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(line, forKey: .line)
      try c.encode(date, forKey: .date)
      try c.encode(amountMinor, forKey: .amountMinor)
      try c.encode(currency, forKey: .currency)
      try c.encode(description, forKey: .description)
      try c.encode(category, forKey: .category)  // null, not absent (the JSON convention)
      try c.encode(rule, forKey: .rule)
      try c.encode(duplicate, forKey: .duplicate)
      try c.encode(probableDuplicateOf, forKey: .probableDuplicateOf)
      try c.encode(transferWith, forKey: .transferWith)
    }
  }

  public var file: String
  public var settings: [Setting]
  public var columns: [Column]
  /// The first rows (`--limit`).
  public var rows: [Row]
  /// Rows the import would add, in all.
  public var newRows: Int
  public var duplicates: Int
  /// Rows the import would leave out as probable duplicates of stored rows.
  public var probableDuplicates = 0
  public var excluded: Int
  public var rejected: Int
  public var warnings: [String]

  public init(
    file: String, settings: [Setting], columns: [Column], rows: [Row], newRows: Int, duplicates: Int,
    excluded: Int, rejected: Int, warnings: [String]
  ) {
    self.file = file
    self.settings = settings
    self.columns = columns
    self.rows = rows
    self.newRows = newRows
    self.duplicates = duplicates
    self.excluded = excluded
    self.rejected = rejected
    self.warnings = warnings
  }
}

/// Prints an `ImportPreview` fitted to a width (40 columns up; never a line wider): settings,
/// the columns with their roles and two sample values, then the first rows as they would be
/// stored. Every text from the file is sanitized.
public struct ImportPreviewRenderer {
  public let width: Int
  public let glyphs: GlyphSet

  public init(width: Int, glyphs: GlyphSet) {
    self.width = max(20, width)
    self.glyphs = glyphs
  }

  public func render(_ preview: ImportPreview) -> String {
    let g = Glyphs(glyphs)
    let clean = TerminalText.sanitize
    let compact = WindowSize(width: width) == .compact
    var lines: [String] = []
    func add(_ text: String) { lines.append(DisplayWidth.truncate(text, to: width, ellipsis: g.ellipsis)) }
    /// Wrapped with a hanging indent: the first line starts at the margin.
    func wrapped(_ text: String, indent: String = "  ") {
      var wrapped = TextLayout.wrap(text, width: width, indent: indent)
      if !wrapped.isEmpty { wrapped[0] = String(wrapped[0].dropFirst(indent.count)) }
      lines += wrapped
    }
    let arrow = g.ascii ? "->" : "→"

    wrapped("Preview of \(clean(preview.file)): nothing is written", indent: "  ")
    lines.append("")
    let nameWidth = preview.settings.map { DisplayWidth.of($0.name) }.max() ?? 0
    for setting in preview.settings {
      // Name, then the value and its source wrapped under a hanging indent.
      let prefix = TextLayout.padRight(setting.name, nameWidth) + "  "
      let indent = TextLayout.spaces(nameWidth + 2)
      let body = TextLayout.wrap(
        "\(clean(setting.value)) (\(clean(setting.source)))", width: width, indent: indent)
      for (k, line) in body.enumerated() { lines.append(k == 0 ? prefix + line.dropFirst(indent.count) : line) }
    }

    // A statement format (OFX, QIF, CAMT.053, MT940) has no columns: its settings say it all.
    if !preview.columns.isEmpty {
      lines.append("")
      add("Columns")
      let roles = preview.columns.map { $0.role ?? "ignored" }
      let names = preview.columns.map { clean($0.name ?? "(no name)") }
      let samples = preview.columns.map { $0.samples.map(clean).joined(separator: ", ") }
      let table = Table(
        columns: [
          .init(header: "#", cells: preview.columns.map { String($0.index) }, align: .right, gap: 0),
          .init(header: "Name", cells: names, align: .left, flexible: true, minWidth: 8),
          .init(header: "Role", cells: roles, align: .left),
          .init(header: "Samples", cells: samples, align: .left, flexible: true, minWidth: 10),
        ], ellipsis: g.ellipsis)
      if !compact, let fitted = table.lines(width: width) {
        lines += fitted
      } else {
        for (k, column) in preview.columns.enumerated() {
          add("\(column.index). \(names[k]) \(arrow) \(roles[k])")
          if !samples[k].isEmpty { add("   " + samples[k]) }
        }
      }
    }

    lines.append("")
    let shown = preview.rows.count
    add(
      shown < preview.newRows + preview.duplicates
        ? "First \(shown) of \(preview.newRows + preview.duplicates) rows as they would be stored"
        : "Rows as they would be stored")
    let expenses = preview.rows.map { row -> Expense in
      var category = row.category
      if let rule = row.rule { category = (category ?? uncategorizedName) + " (rule \"\(rule)\")" }
      if row.duplicate { category = (category ?? uncategorizedName) + " [duplicate]" }
      if let twin = row.probableDuplicateOf {
        category = (category ?? uncategorizedName) + " [probable duplicate of \(twin)]"
      }
      if let other = row.transferWith { category = (category ?? uncategorizedName) + " [transfer with \(other)]" }
      return Expense(
        date: row.date,
        amount: Money(minor: row.amountMinor, currency: Currency(code: row.currency) ?? .usd),
        description: row.description, category: category, source: Expense.Source(file: preview.file, line: row.line))
    }
    let list = ExpenseListRenderer(width: width, glyphs: glyphs).render(expenses)
    lines += list.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    lines.append("")
    wrapped(
      "Would add \(preview.newRows) rows; \(preview.duplicates) duplicates, "
        + (preview.probableDuplicates > 0 ? "\(preview.probableDuplicates) probable duplicates, " : "")
        + "\(preview.excluded) excluded, \(preview.rejected) rejected")
    for warning in preview.warnings { wrapped("warning: " + clean(warning)) }
    return lines.joined(separator: "\n") + "\n"
  }
}
