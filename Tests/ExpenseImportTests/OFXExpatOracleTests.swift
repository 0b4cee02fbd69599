import ExpenseCore
import Foundation
import TestSupport
import Testing

@testable import ExpenseImport

/// The OFX reader on OFX 2.x (XML) against Python's expat, an independent parser
/// (`Tests/Tools/ofx-expat.py`): random statements (`RandomOFXDocument`) and the same with random
/// bytes changed, inserted or removed. Wherever expat reads a file, the reader reads it too, and
/// each entry's line, day, amount in minor units, description (NAME, else PAYEE/NAME, then MEMO),
/// FITID and account are the values expat finds in its elements; where the oracle finds an
/// entry's value invalid (no such day, not a number, more decimals than the currency has, an
/// unknown currency, a date outside 1900–2999), the reader refuses it and has given the entries
/// before it.
///
/// Where expat refuses a file the reader is not asked to: it reads OFX 1.x too, whose SGML leaves
/// tags unclosed, so it is lenient about XML by design. Where the reader is stricter on purpose
/// (its refusal is then one of `policies`): a DTD (expat's verdict is `doctype`, not compared), a
/// transaction or statement opened inside another, an aggregate the file must close opened
/// inside one of its own name, an element the reader knows inside an aggregate that cannot hold
/// it, a CURDEF that is not an ISO 4217 code (the whole statement is refused, even where each
/// transaction names its own currency), and a DTPOSTED whose day is right but whose time or zone
/// is not OFX's syntax (the reader does not apply the time, so it may read the day).
@Suite struct OFXExpatOracleTests {
  static let alphabet = Array("<>/=\"'&;!?-#x0123456789.,+[]:ABCDEFMNOSTRX \n\t".utf8) + [0xC3, 0xA9, 0x00, 0xFF]

  /// Messages of the reader's refusals that are policies where expat checks less (see above).
  static let policies = [
    "opened while", "which cannot hold it", "not an ISO 4217 currency code", "tags nested more than",
  ]

  /// One file's verdict, as `ofx-expat.py` prints it.
  struct Verdict: Decodable {
    var verdict: String
    var line: Int?
    var statements: Int?
    var curdefs: [String?]?
    var entries: [Entry]?
  }

  struct Entry: Decodable {
    var line: Int
    var dtposted: String?
    var date: String?
    var strict: Bool
    var trnamt: String?
    var amount: String?
    var currency: String?
    var account: String?
    var name: String?
    var payee: String?
    var memo: String?
    var fitid: String?
  }

  /// The values compared: what an entry says, without what the reader adds of its own (the
  /// account's masked name).
  struct Values: Equatable, CustomStringConvertible {
    var line: Int
    var date: CivilDate
    var amount: Money
    var text: String
    var account: String?
    var fitID: String?

    init(_ entry: StatementEntry) {
      line = entry.line
      date = entry.date
      amount = entry.amount
      text = entry.description
      account = entry.account
      fitID = entry.transactionID
    }

    init(line: Int, date: CivilDate, amount: Money, description: String, account: String?, fitID: String?) {
      self.line = line
      self.date = date
      self.amount = amount
      text = description
      self.account = account
      self.fitID = fitID
    }

    var description: String { "line \(line) \(date) \(amount) '\(text)' \(account ?? "-") \(fitID ?? "-")" }
  }

  /// What the oracle's entry requires of the reader.
  enum Expected {
    /// This entry, exactly.
    case entry(Values)
    /// A refusal (of this entry, or of the file at it), for the reason given.
    case refusal(String)
    /// This entry, or a refusal: the day is right but the rest of DTPOSTED is not OFX's syntax.
    case entryOrRefusal(Values)
  }

  /// The decimal `text` ("-12.5", "0") in minor units of `currency`, or why the reader refuses it.
  static func minorUnits(_ text: String, _ currency: Currency) -> Result<Int64, Refusal> {
    let negative = text.hasPrefix("-")
    let body = negative ? text.dropFirst() : Substring(text)
    let parts = body.split(separator: ".", omittingEmptySubsequences: false)
    let fraction = parts.count > 1 ? String(parts[1]) : ""
    guard fraction.count <= currency.minorUnits else { return .failure(Refusal("more decimals than the currency")) }
    let digits = String(parts[0]) + fraction + String(repeating: "0", count: currency.minorUnits - fraction.count)
    guard let magnitude = Int64(digits) else { return .failure(Refusal("too large")) }
    return .success(negative ? -magnitude : magnitude)
  }

  struct Refusal: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
  }

  static func expected(_ e: Entry) -> Expected {
    guard let code = e.currency else { return .refusal("no currency") }
    guard let currency = Currency(code: code) else { return .refusal("unknown currency \(code)") }
    guard e.dtposted != nil else { return .refusal("no DTPOSTED") }
    guard let day = e.date, let date = try? CivilDate.parseStored(day) else {
      return .refusal("no such day: \(e.dtposted ?? "")")
    }
    guard date.isSupported else { return .refusal("outside 1900–2999: \(day)") }
    guard e.trnamt != nil else { return .refusal("no TRNAMT") }
    guard let decimal = e.amount else { return .refusal("not an amount: \(e.trnamt ?? "")") }
    let minor: Int64
    switch minorUnits(decimal, currency) {
    case .success(let value): minor = value
    case .failure(let refusal): return .refusal(refusal.reason)
    }
    let name = [e.name, e.payee].compactMap { $0 }.first { !$0.isEmpty } ?? ""
    var description = name
    if let memo = e.memo, !memo.isEmpty, memo != name { description = name.isEmpty ? memo : name + " / " + memo }
    let fitID = e.fitid.flatMap { $0.isEmpty ? nil : $0 }
    let values = Values(
      line: e.line, date: date, amount: Money(minor: minor, currency: currency), description: description,
      account: e.account, fitID: fitID)
    return e.strict ? .entry(values) : .entryOrRefusal(values)
  }

  /// The tally of what was compared.
  struct Tally {
    var read = 0
    var refusedAlike = 0
    var policy = 0
    var entries = 0
    var notWellFormed = 0
  }

  /// Compares the reader's run on one file with expat's verdict, recording a disagreement.
  static func compare(
    _ verdict: Verdict, _ result: (events: [StatementEvent], settings: [StatementSetting], error: ImportError?),
    name: String, text: String, tally: inout Tally
  ) {
    let error = result.error.map { "\($0)" }
    if let error, policies.contains(where: error.contains) {
      tally.policy += 1
      return
    }
    let read = StatementTesting.entries(result.events).map(Values.init)
    guard verdict.statements ?? 0 > 0 else {
      #expect(error != nil && read.isEmpty, "expat finds no statement in \(name), the reader read one\n\(text)")
      tally.refusedAlike += 1
      return
    }
    var next = 0
    for entry in verdict.entries ?? [] {
      let expected = expected(entry)
      if case .refusal(let why) = expected {
        #expect(
          next == read.count && error != nil,
          "\(name): the oracle refuses the entry on line \(entry.line) (\(why)); the reader: \(error ?? "no error"), \(read.count - next) more entries\n\(text)"
        )
        tally.refusedAlike += 1
        return
      }
      guard next < read.count else {
        if case .entryOrRefusal = expected, error != nil {
          tally.refusedAlike += 1
          return
        }
        Issue.record(
          "\(name): the reader stops before the entry on line \(entry.line): \(error ?? "no error")\n\(text)")
        return
      }
      switch expected {
      case .entry(let values), .entryOrRefusal(let values):
        #expect(read[next] == values, "\(name): the reader\n  \(read[next])\nexpat\n  \(values)\n\(text)")
      case .refusal: break
      }
      next += 1
      tally.entries += 1
    }
    #expect(next == read.count, "\(name): the reader reads \(read.count - next) entries expat does not find\n\(text)")
    #expect(error == nil, "\(name): expat reads every entry, the reader refuses: \(error ?? "")\n\(text)")
    tally.read += 1
  }

  @Test func theReaderAgreesWithExpatOnRandomAndMutatedStatements() throws {
    // Python's expat is this test's oracle: without it the test fails, never passes.
    let python = try #require(DifferentialTests.python(), "python3 is not on PATH: install it to run the XML oracle")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ofx-expat-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var random = SeededRandom(state: fuzzSeed ^ 0x4F4658)
    var documents: [[UInt8]] = [try StatementTesting.fixture("ofx/ca_savings_xml_220.ofx")]
    let generated = fuzzCount * 2
    for _ in 0..<generated { documents.append(RandomOFXDocument.make(seed: random.next())) }
    for _ in 0..<(fuzzCount * 2) {
      documents.append(
        DocumentOracle.mutated(documents[random.int(1...generated)], alphabet: Self.alphabet, random: &random))
    }
    let output = try DocumentOracle.run(
      "ofx-expat.py", python: python, documents: documents, in: folder, extension: "ofx")
    let lines = output.split(separator: UInt8(ascii: "\n"))
    try #require(lines.count == documents.count, "one verdict per document")
    var tally = Tally()
    for (index, line) in lines.enumerated() {
      let verdict = try JSONDecoder().decode(Verdict.self, from: Data(line))
      let text = String(decoding: documents[index].prefix(3000), as: UTF8.self)
      if index <= generated {
        #expect(verdict.verdict == "ok", "expat refuses generated file \(index): line \(verdict.line ?? 0)\n\(text)")
      }
      let result = StatementTesting.run(
        OFXReader.self, documents[index], file: "\(index).ofx", chunk: random.int(1...4096))
      guard verdict.verdict == "ok" else {
        // Not compared (see above), but read or refused cleanly: an ImportError, and only
        // entries with a supported date and a line.
        if verdict.verdict == "error" { tally.notWellFormed += 1 }
        if let error = result.error, case .io = error { Issue.record("\(index).ofx: not an ImportError: \(error)") }
        for entry in StatementTesting.entries(result.events) { #expect(entry.date.isSupported && entry.line >= 1) }
        continue
      }
      Self.compare(verdict, result, name: "\(index).ofx", text: text, tally: &tally)
    }
    // Both kinds are met in numbers, or the test compared too little to say anything.
    #expect(tally.read >= generated / 2 && tally.entries > generated && tally.notWellFormed > fuzzCount / 2, "\(tally)")
    print("OFX against expat: \(documents.count) files (seed \(fuzzSeed)), \(tally)")
  }
}
