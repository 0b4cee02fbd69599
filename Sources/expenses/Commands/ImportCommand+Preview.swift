import ExpenseCore
import ExpenseImport
import ExpenseRender
import ExpenseService
import ExpenseStore
import Foundation

extension ImportCommand {
  /// `import FILE --preview`: the real import run as a dry run (so rules, duplicates and
  /// exclusions are exactly what an import would do), shown as settings, columns and rows.
  func printPreview(_ service: ExpenseService, _ options: ImportOptions) throws {
    var request = ImportRequest(path: file, options: options)
    request.skipInvalid = skipInvalid
    request.keepProbableDuplicates = keepProbableDuplicates
    let summary = try service.previewImport(request, limit: limit)
    let model = ImportCommand.previewModel(summary, options: options, rulePatterns: summary.rulePatterns)
    if format == .json {
      try Console.out(try SafeJSON.text(model) + "\n")
      return
    }
    let terminal = TerminalEnvironment()
    let glyphs: GlyphSet = terminal.localeIsUTF8 ? .unicode : .ascii
    try Console.out(ImportPreviewRenderer(width: terminal.width(option: width), glyphs: glyphs).render(model))
  }

  /// The preview as plain data: each setting with where it came from.
  static func previewModel(_ summary: ImportSummary, options: ImportOptions, rulePatterns: [Int64: String])
    -> ImportPreview
  {
    var settings: [ImportPreview.Setting] = []
    if let d = summary.detected, d.format != .csv {
      // A statement format states its own settings; the reader says what it found and where.
      let found = d.settings.map { ImportPreview.Setting(name: $0.name, value: $0.value, source: $0.source) }
      let format =
        found.first { $0.name == "format" } ?? .init(name: "format", value: d.format.rawValue, source: "content")
      let encoding = ImportPreview.Setting(
        name: "encoding", value: d.encoding.rawValue, source: options.encoding != nil ? "--encoding" : d.encodingReason)
      settings = [format, encoding] + found.filter { $0.name != "format" }
    } else if let d = summary.detected {
      func source(_ given: Bool, _ flag: String) -> String { given ? flag : "detected" }
      settings = [
        .init(
          name: "encoding", value: d.encoding.rawValue,
          source: options.encoding != nil ? "--encoding" : d.encodingReason),
        .init(
          name: "delimiter", value: d.delimiter == "\t" ? "tab" : d.delimiter,
          source: source(options.delimiter != nil, "--delimiter")),
        .init(
          name: "header", value: d.headerLine.map { "line \($0)" } ?? "none",
          source: options.columns != nil ? "--columns" : "detected"),
        .init(name: "data from", value: "line \(d.dataStartLine)", source: "detected"),
        .init(name: "date format", value: d.dateFormat, source: source(options.dateFormat != nil, "--date-format")),
        .init(name: "decimal mark", value: d.decimalMark, source: source(options.decimalMark != nil, "--decimal-mark")),
        .init(name: "currency", value: d.currencyFromColumn ? "each row's" : d.currency.code, source: d.currencyReason),
        .init(
          name: "amounts", value: d.signConvention.rawValue,
          source: options.spending != nil ? "--spending" : (d.signReason.isEmpty ? "detected" : d.signReason)),
      ]
    }
    let columns = (summary.detected?.columns ?? []).map {
      ImportPreview.Column(index: $0.index, name: $0.name, role: $0.role?.rawValue, samples: $0.samples)
    }
    let rows = summary.preview.map {
      ImportPreview.Row(
        line: $0.line, date: $0.date, amountMinor: $0.amount.minor, currency: $0.amount.currency.code,
        description: $0.description, category: $0.category, rule: $0.ruleID.flatMap { rulePatterns[$0] },
        duplicate: $0.duplicate, probableDuplicateOf: summary.probableDuplicate(line: $0.line),
        transferWith: summary.transferPartner(line: $0.line))
    }
    var preview = ImportPreview(
      file: summary.file, settings: settings, columns: columns, rows: rows, newRows: summary.new,
      duplicates: summary.duplicates, excluded: summary.excluded, rejected: summary.rejected,
      warnings: summary.warnings)
    preview.probableDuplicates = summary.probableDuplicatesKept ? 0 : summary.probableDuplicates.count
    return preview
  }
}
