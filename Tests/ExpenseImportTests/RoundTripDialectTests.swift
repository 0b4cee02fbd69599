import ExpenseCore
import Foundation
import TestSupport
import Testing

@testable import ExpenseImport

/// Random valid rows written out as a bank would, in a random dialect (delimiter, quoting,
/// decimal mark and grouping, date format, encoding, sign or direction style, currency
/// placement), must import back to the same rows with no flag but what a user would give.
@Suite struct RoundTripDialectTests {
  /// `SeededRandom` (SplitMix64, shared with the differential tests) with the helpers these
  /// tests need: a failing seed reproduces.
  struct Random {
    var generator: SeededRandom
    init(state: UInt64) { generator = SeededRandom(state: state) }
    mutating func next() -> UInt64 { generator.next() }
    mutating func int(_ range: ClosedRange<Int>) -> Int {
      range.lowerBound + Int(next() % UInt64(range.count))
    }
    mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }
    mutating func bool() -> Bool { next() & 1 == 0 }
  }

  struct Row: Equatable {
    var date: CivilDate
    var minor: Int64
    var description: String
  }

  enum SignStyle: CaseIterable { case signed, debitCredit, direction }
  enum CurrencyPlace: CaseIterable { case column, header, none }

  static let words = [
    "Coffee", "Rent", "Café", "Bäckerei", "Ñandú", "Łódź", "山田商店", "한국 식료품", "Shop, Inc.", "\"Quoted\" name",
    "Line\nbreak", "50% off", "A;B", "Tab\there", "Pipe|Co", "Ørsted", "€uro Store",
  ]

  func makeRows(_ random: inout Random) -> [Row] {
    var rows: [Row] = []
    let count = random.int(3...40)
    for k in 0..<count {
      // Day 13..28 once at least, so day-first and month-first orders are told apart.
      let day = k == 0 ? random.int(13...28) : random.int(1...28)
      let date = CivilDate(year: 2026, month: random.int(1...12), day: day)!
      var minor = Int64(random.int(1...9_999_999))
      if random.int(0...3) != 0 { minor = -minor }
      var text = random.pick(Self.words)
      if random.bool() { text += " " + random.pick(Self.words) + " \(k)" }
      rows.append(Row(date: date, minor: minor, description: text))
    }
    return rows
  }

  /// `minor` as the bank prints it: decimal mark, optional grouping, optional sign.
  func amount(_ minor: Int64, mark: Character, grouping: Bool, signed: Bool) -> String {
    let magnitude = minor.magnitude
    var whole = String(magnitude / 100)
    if grouping {
      let separator: Character = mark == "," ? "." : ","
      var grouped = ""
      for (i, c) in whole.reversed().enumerated() {
        if i > 0 && i % 3 == 0 { grouped.append(separator) }
        grouped.append(c)
      }
      whole = String(grouped.reversed())
    }
    let cents = String(format: "%02d", Int(magnitude % 100))
    return (signed && minor < 0 ? "-" : "") + whole + String(mark) + cents
  }

  /// `date` in a `YYYY MM DD` pattern, as the bank writes it.
  static func format(_ date: CivilDate, _ pattern: String) -> String {
    pattern.replacingOccurrences(of: "YYYY", with: String(date.year))
      .replacingOccurrences(of: "MM", with: String(format: "%02d", date.month))
      .replacingOccurrences(of: "DD", with: String(format: "%02d", date.day))
  }

  func field(_ text: String, delimiter: Character, quoteAll: Bool) -> String {
    let needs = text.contains(delimiter) || text.contains("\"") || text.contains("\n") || text.contains("\r")
    guard needs || quoteAll else { return text }
    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  @Test func randomDialectsImportBackToTheSameRows() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("expenses-roundtrip-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let cases = Int(ProcessInfo.processInfo.environment["ROUNDTRIP_COUNT"] ?? "") ?? 150
    for seed in 1...UInt64(cases) {
      var random = Random(state: seed)
      let rows = makeRows(&random)
      let delimiter: Character = random.pick([",", ";", "\t", "|"])
      let mark: Character = delimiter == "," ? "." : random.pick([".", ","])
      let grouping = random.bool()
      let quoteAll = random.bool()
      let dateFormat = random.pick(["YYYY-MM-DD", "DD.MM.YYYY", "MM/DD/YYYY", "DD/MM/YYYY", "YYYYMMDD"])
      let sign = random.pick(SignStyle.allCases)
      let place = random.pick(CurrencyPlace.allCases)
      let encoding = random.pick(["utf-8", "utf-8-bom", "utf-16le"])
      let currency = "EUR"

      var header = ["Date", "Description"]
      switch sign {
      case .signed: header.append(place == .header ? "Amount (\(currency))" : "Amount")
      case .debitCredit:
        header += place == .header ? ["Debit (\(currency))", "Credit (\(currency))"] : ["Debit", "Credit"]
      case .direction: header += [place == .header ? "Amount (\(currency))" : "Amount", "Type"]
      }
      if place == .column { header.append("Currency") }
      let d = String(delimiter)
      var text = header.map { field($0, delimiter: delimiter, quoteAll: quoteAll) }.joined(separator: d) + "\r\n"
      for row in rows {
        let date = Self.format(row.date, dateFormat)
        var cells = [date, row.description]
        switch sign {
        case .signed: cells.append(amount(row.minor, mark: mark, grouping: grouping, signed: true))
        case .debitCredit:
          let value = amount(row.minor, mark: mark, grouping: grouping, signed: false)
          cells += row.minor < 0 ? [value, ""] : ["", value]
        case .direction:
          cells += [amount(row.minor, mark: mark, grouping: grouping, signed: false), row.minor < 0 ? "DR" : "CR"]
        }
        if place == .column { cells.append(currency) }
        text += cells.map { field($0, delimiter: delimiter, quoteAll: quoteAll) }.joined(separator: d) + "\r\n"
      }
      var bytes: [UInt8]
      switch encoding {
      case "utf-8-bom": bytes = [0xEF, 0xBB, 0xBF] + Array(text.utf8)
      case "utf-16le": bytes = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
      default: bytes = Array(text.utf8)
      }
      let path = directory.appendingPathComponent("seed\(seed).csv").path
      try Data(bytes).write(to: URL(fileURLWithPath: path))

      var options = ImportOptions()
      if place == .none { options.currency = currency }
      // Without a day above 12 in the year-last formats, only the user can say the order.
      if dateFormat == "MM/DD/YYYY" || dateFormat == "DD/MM/YYYY" { options.dateFormat = dateFormat }
      let context =
        "seed \(seed): \(dateFormat) \(sign) \(place) \(encoding) delimiter \(d.debugDescription) mark \(mark)"
      let got: FixtureTests.Collected
      do {
        got = try FixtureTests.collect(path, options, skipInvalid: false)
      } catch {
        Issue.record("\(context): \(error)")
        continue
      }
      #expect(got.rows.count == rows.count, "\(context)")
      for (want, have) in zip(rows, got.rows) {
        let description = want.description.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
          .joined(separator: " ")
        #expect(have.date == want.date, "\(context): line \(have.line) date")
        #expect(have.amount == Money(minor: want.minor, currency: .eur), "\(context): line \(have.line) amount")
        #expect(have.description == description, "\(context): line \(have.line) description")
      }
    }
  }
}
