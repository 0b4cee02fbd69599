import ExpenseCore
import Foundation
import Testing

@testable import ExpenseImport

/// Damage to a statement's structure never loses an entry quietly: every fixture of every format
/// with any one of its closing tags, record terminators or field lines removed or duplicated is
/// refused, or read with the same entries (where the reader can tell what was meant). A line
/// that carries only a value (a QIF payee, an MT940 `:86:` continuation) may change that
/// entry's text when removed, never the number of entries.
@Suite struct StructureDamageTests {
  typealias T = StatementTesting

  /// One place to damage: a byte range of the fixture, and whether what it holds is structure
  /// (then the entries must stay the same) or only a value (then only their number must).
  struct Unit {
    var range: Range<Int>
    var structural: Bool
  }

  /// An entry without its line, which moves when a line is removed or duplicated.
  static func key(_ entry: StatementEntry) -> String {
    var entry = entry
    entry.line = 0
    return String(describing: entry)
  }

  /// The lines of `bytes` (each with its line end) as byte ranges.
  static func lines(_ bytes: [UInt8]) -> [Range<Int>] {
    var out: [Range<Int>] = []
    var start = 0
    for (i, b) in bytes.enumerated() where b == 0x0A {
      out.append(start..<(i + 1))
      start = i + 1
    }
    if start < bytes.count { out.append(start..<bytes.count) }
    return out
  }

  /// Every close tag (`</NAME>`) of a markup file.
  static func closeTags(_ bytes: [UInt8]) -> [Unit] {
    var out: [Unit] = []
    var i = 0
    while i + 1 < bytes.count {
      if bytes[i] == 0x3C && bytes[i + 1] == 0x2F, let end = bytes[i...].firstIndex(of: 0x3E) {
        out.append(Unit(range: i..<(end + 1), structural: true))
        i = end + 1
      } else {
        i += 1
      }
    }
    return out
  }

  /// Runs `check` on the fixture with each unit removed, then duplicated: refused, or the same
  /// entries (a value unit: as many entries). Returns how many of the damaged files were read.
  @discardableResult
  static func damage<R: StatementReader>(
    _ type: R.Type, _ name: String, units: ([UInt8]) -> [Unit], options: ImportOptions = ImportOptions()
  ) throws -> Int {
    let bytes = try T.fixture(name)
    let original = T.run(type, bytes, options: options)
    #expect(original.error == nil, "\(name) reads")
    let expected = T.entries(original.events).map(key).sorted()
    var read = 0
    for unit in units(bytes) {
      let text = String(decoding: bytes[unit.range], as: UTF8.self)
      let removed = Array(bytes[..<unit.range.lowerBound] + bytes[unit.range.upperBound...])
      let duplicated = Array(bytes[..<unit.range.upperBound] + bytes[unit.range] + bytes[unit.range.upperBound...])
      for (how, damaged) in [("without", removed), ("with a second", duplicated)] {
        let result = T.run(type, damaged, options: options)
        if let error = result.error {
          if case .io = error { Issue.record("\(name) \(how) \(text): not an ImportError: \(error)") }
          continue
        }
        read += 1
        let entries = T.entries(result.events).map(key).sorted()
        if unit.structural {
          #expect(entries == expected, "\(name) \(how) \(text.debugDescription) is read with other entries")
        } else {
          #expect(entries.count == expected.count, "\(name) \(how) \(text.debugDescription): \(entries.count) entries")
        }
      }
    }
    return read
  }

  @Test(arguments: [
    "ofx/us_checking_sgml_102.ofx", "ofx/card_quicken.qfx", "ofx/ca_savings_xml_220.ofx", "ofx/fr_compte_comma.ofx",
    "ofx/uk_current_oneline.ofx",
  ])
  func ofxCloseTags(_ name: String) throws {
    try Self.damage(OFXReader.self, name, units: Self.closeTags)
  }

  @Test(arguments: [
    "camt053/sparkasse-001-02-batch.xml", "camt053/ing-nl-001-08-two-statements.xml",
    "camt053/pending-reversal-001-04.xml", "camt053/latin1-001-02-umlauts.xml",
  ])
  func camtCloseTags(_ name: String) throws {
    let read = try Self.damage(CAMT053Reader.self, name, units: Self.closeTags)
    #expect(read == 0, "a CAMT.053 file with a close tag missing or doubled is not well formed")
  }

  /// QIF: every `^` and every field line (a header is neither: removed, a `!Type` line puts the
  /// records under the type before it, which the summary's warning names).
  @Test(arguments: [
    "qif/accounts_autoswitch.qif", "qif/de_giro_comma.qif", "qif/quicken_us_checking.qif",
    "qif/splits_and_transfers.qif", "qif/uk_ccard_dmy.qif",
  ])
  func qifTerminatorsAndFields(_ name: String) throws {
    try Self.damage(QIFReader.self, name) { bytes in
      Self.lines(bytes).compactMap { range in
        let text = String(decoding: bytes[range], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let code = text.first, code != "!" else { return nil }
        return Unit(range: range, structural: code == "^")
      }
    }
  }

  /// MT940: every line; a field's first line (`:TAG:`) and a message's end are structure, a
  /// continuation line only a value.
  @Test(arguments: [
    "mt940/deutsche-bank-structured.sta", "mt940/ing-unstructured.sta", "mt940/reversals-year-end.sta",
    "mt940/swift-blocks-two-statements.sta",
  ])
  func mt940Fields(_ name: String) throws {
    try Self.damage(MT940Reader.self, name) { bytes in
      Self.lines(bytes).compactMap { range in
        let text = String(decoding: bytes[range], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return nil }
        let field = MT940Reader.tag(of: text) != nil
        let structural =
          (field && !text.hasPrefix(":86:")) || text == "-" || text.hasPrefix("-}") || text.hasPrefix("{")
        return Unit(range: range, structural: structural)
      }
    }
  }

  // MARK: Each damage, its message

  static let damaged = "the file is damaged or edited: export the statement again from the bank"

  /// The repository's own OFX 1.02 file without its first `</STMTTRN>`: the next transaction
  /// would have overwritten the first (three rows instead of four, exit 0); it is refused.
  @Test func ofxTransactionOpenedInsideAnother() throws {
    let lines = try T.fixture("ofx/us_checking_sgml_102.ofx").split(separator: 0x0A, omittingEmptySubsequences: false)
    let bytes = Array(lines.enumerated().filter { $0.offset != 49 }.map(\.element).joined(separator: [0x0A]))
    let result = T.run(OFXReader.self, bytes, file: "us.ofx")
    #expect(
      result.error
        == .malformed(
          file: "us.ofx", line: 50,
          message: "<STMTTRN> opened while the <STMTTRN> from line 43 is still open: its </STMTTRN> is missing",
          hint: "the file is damaged (a transaction would be lost): export the statement again from the bank"))
  }

  /// A statement inside a statement, and a transaction inside a pending one, are refused too.
  @Test func ofxAggregatesOfOneKindNeverNest() {
    let statement = OFXReaderTests.sgml("<STMTRS>\n")
    #expect(
      T.run(OFXReader.self, Array(statement.utf8), file: "t.ofx").error?.description.hasPrefix(
        "t.ofx:14: <STMTRS> opened while the <STMTRS> from line 8 is still open") == true)
    let pending = OFXReaderTests.sgml("<PENDINGTRN>\n<STMTTRN>\n<DTPOSTED>20261003\n<TRNAMT>-1\n</STMTTRN>\n")
    #expect(
      T.run(OFXReader.self, Array(pending.utf8), file: "t.ofx").error?.description.hasPrefix(
        "t.ofx:15: <STMTTRN> opened while the <PENDINGTRN> from line 14 is still open") == true)
  }

  /// The last `</STMTTRN>` missing before `</BANKTRANLIST>`: what was meant is plain, so every
  /// transaction is read, with a warning naming the line.
  @Test func ofxAggregateEndedByTheOneAroundIt() {
    let text = OFXReaderTests.sgml("<STMTTRN>\n<DTPOSTED>20261003\n<TRNAMT>-1\n<NAME>x\n")
    let result = T.run(OFXReader.self, Array(text.utf8), file: "t.ofx")
    #expect(result.error == nil)
    #expect(T.entries(result.events).count == 1)
    #expect(
      result.events.contains(
        .warning(
          "t.ofx:18: </BANKTRANLIST> ends the <STMTTRN> from line 14, whose </STMTTRN> is missing: read as if it were there"
        )))
  }

  /// A transaction's `<PAYEE>` left open: its `<MEMO>` would have been dropped.
  @Test func ofxElementInsideAnAggregateThatCannotHoldIt() {
    let text = OFXReaderTests.sgml(
      "<STMTTRN>\n<DTPOSTED>20261003\n<TRNAMT>-1\n<PAYEE>\n<NAME>x\n<MEMO>m\n</STMTTRN>\n")
    #expect(
      T.run(OFXReader.self, Array(text.utf8), file: "t.ofx").error
        == .malformed(
          file: "t.ofx", line: 19,
          message: "<MEMO> is inside <PAYEE> (line 17), which cannot hold it: its </PAYEE> is missing",
          hint: "the file is damaged (a value would be lost): export the statement again from the bank"))
  }

  /// Two QIF records run together (the `^` between them missing): the second's date would
  /// have replaced the first's, one row instead of two.
  @Test func qifRecordWithoutItsTerminator() {
    let text = "!Type:Bank\nD10/03/2026\nT-1.00\nPOne\nD10/04/2026\nT-2.00\nPTwo\n^\n"
    #expect(
      T.run(QIFReader.self, Array(text.utf8), file: "t.qif").error
        == .malformed(
          file: "t.qif", line: 5,
          message: "a second D line in the record that starts on line 2: the ^ that ends a record is missing before it",
          hint:
            "the file is damaged (two transactions would be read as one): add the missing ^ line, or export the file again"
        ))
  }

  @Test func qifAccountBlockWithoutItsTerminator() {
    let text = "!Account\nNChecking\nTBank\n!Type:Bank\nD10/03/2026\nT-1.00\n^\n"
    #expect(
      T.run(QIFReader.self, Array(text.utf8), file: "t.qif").error
        == .malformed(
          file: "t.qif", line: 4, message: "a header comes before the !Account block from line 2 ends with ^",
          hint: "the file is damaged (the account would be lost): add the missing ^ line, or export the file again"))
  }

  static let mt940Head = ":20:S1\n:25:BANK/1\n:28C:1/1\n:60F:C261030EUR100,00\n"

  /// An `:86:` after an `:86:` (the `:61:` between them missing).
  @Test func mt940DescriptionWithoutItsEntry() {
    let text = Self.mt940Head + ":61:2610301030DR1,00NTRFNONREF\n:86:one\n:86:two\n:62F:C261031EUR99,00\n-\n"
    #expect(
      T.run(MT940Reader.self, Array(text.utf8), file: "t.sta").error
        == .malformed(
          file: "t.sta", line: 7,
          message:
            "an :86: after :86: (line 6): an :86: describes the :61: right before it, so a :61: is missing or a field is out of order",
          hint: Self.damaged))
  }

  @Test func mt940SecondOpeningBalance() {
    let text = Self.mt940Head + ":60F:C261030EUR100,00\n:62F:C261031EUR100,00\n-\n"
    #expect(
      T.run(MT940Reader.self, Array(text.utf8), file: "t.sta").error
        == .malformed(
          file: "t.sta", line: 5,
          message: "a second opening balance (:60F:) in the statement from line 1 before its closing balance",
          hint: Self.damaged))
  }

  /// The second statement's `:25:` missing: its entries would have been booked to the first
  /// statement's account.
  @Test func mt940StatementWithoutItsAccount() {
    let text =
      Self.mt940Head + ":62F:C261031EUR100,00\n-\n:20:S2\n:28C:2/1\n:60F:C261031EUR100,00\n:62F:C261101EUR100,00\n-\n"
    #expect(
      T.run(MT940Reader.self, Array(text.utf8), file: "t.sta").error
        == .malformed(
          file: "t.sta", line: 9, message: "the statement from line 7 has no account (:25:) before its opening balance",
          hint: Self.damaged))
  }
}
