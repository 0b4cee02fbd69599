import ExpenseCore
import Foundation
import Testing

@testable import ExpenseImport

/// A statement's text end to end (file → encoding → reader → row): accented text in a declared
/// or detected single-byte encoding is decoded, a byte that is not text is refused naming its
/// line and byte, and only `--replace-invalid` stores U+FFFD, warning by line.
@Suite struct StatementTextTests {
  struct Imported {
    var rows: [ImportedRow] = []
    var warnings: [String] = []
    var encoding = ""
  }

  /// Imports `bytes` (or the fixture `path`) through `FileImporters`, as the service does.
  static func importing(
    _ bytes: [UInt8]? = nil, fixture path: String? = nil, options: ImportOptions = ImportOptions()
  ) throws -> Imported {
    let file: String
    if let path {
      file = StatementTesting.fixtures.appendingPathComponent(path).path
    } else {
      file = FileManager.default.temporaryDirectory.appendingPathComponent("statement-\(UUID().uuidString)").path
      try Data(bytes ?? []).write(to: URL(fileURLWithPath: file))
    }
    defer { if path == nil { try? FileManager.default.removeItem(atPath: file) } }
    let importer = try FileImporters.open(path: file, options: options, defaultCurrency: .eur, displayName: "s")
    var out = Imported()
    out.encoding = try importer.detect().encoding.rawValue
    try importer.run(skipInvalid: false, progress: nil) { event in
      switch event {
      case .row(let row): out.rows.append(row)
      case .warning(let text): out.warnings.append(text)
      default: break
      }
    }
    return out
  }

  static func descriptions(_ imported: Imported) -> [String] { imported.rows.map(\.description) }

  static func dayMonth() -> ImportOptions {
    var options = ImportOptions()
    options.dateFormat = "DD.MM.YYYY"
    return options
  }

  static func cp1252(_ text: String) -> [UInt8] {
    Array(
      text.unicodeScalars.map { scalar -> UInt8 in
        if scalar == "€" { return 0x80 }
        return UInt8(truncatingIfNeeded: scalar.value)
      })
  }

  // MARK: Declared and detected single-byte encodings

  @Test func ofx1Charset1252() throws {
    let got = try Self.importing(fixture: "ofx/fr_charset1252_accents.ofx")
    #expect(Self.descriptions(got) == ["Café des Lilas / Carte 03/10 déjeuner", "Bäckerei Müller / Gebühr 5 € inkl."])
    #expect(got.encoding == "windows-1252")
  }

  @Test func ofx1Charset8859ReadsTheEuroAsWindowsWritesIt() throws {
    let got = try Self.importing(fixture: "ofx/de_charset8859_1_umlauts.ofx")
    #expect(Self.descriptions(got) == ["Café des Lilas / Carte 03/10 déjeuner", "Bäckerei Müller / Gebühr 5 € inkl."])
  }

  @Test func ofx2XMLDeclarationWindows1252() throws {
    let got = try Self.importing(fixture: "ofx/de_xml_windows1252_211.ofx")
    #expect(Self.descriptions(got) == ["Grünkram Naturkost / Müsli & Käse", "Kontoführung / Gebühr 5 €"])
  }

  @Test func mt940DetectedWindows1252() throws {
    let got = try Self.importing(fixture: "mt940/sparkasse-cp1252-umlauts.sta")
    #expect(
      Self.descriptions(got) == [
        "Bäckerei Schönfeld GmbH / Bäckerei SchönfeldGrünstraße 4", "Gutschrift Jürgen Müller Miete Oktober",
      ])
  }

  @Test func qifDetectedWindows1252() throws {
    let got = try Self.importing(fixture: "qif/de_cp1252_umlauts.qif", options: Self.dayMonth())
    #expect(Self.descriptions(got) == ["Bäckerei Krümel / Brötchen für's Büro", "Café König / Gebühr 2 €"])
  }

  @Test func noStatementFixtureStoresAReplacementCharacter() throws {
    let formats = ["ofx", "qif", "mt940", "camt053"]
    for folder in formats {
      let names = try FileManager.default.contentsOfDirectory(
        atPath: StatementTesting.fixtures.appendingPathComponent(folder).path)
      for name in names.sorted() {
        let options = name.hasPrefix("de_") ? Self.dayMonth() : ImportOptions()
        let got = try Self.importing(fixture: "\(folder)/\(name)", options: options)
        for row in got.rows {
          #expect(!row.description.contains("\u{FFFD}"), "\(folder)/\(name):\(row.line)")
        }
      }
    }
  }

  // MARK: Bytes that are not text

  static let strayByteOFX: [UInt8] =
    Array(
      """
      OFXHEADER:100
      DATA:OFXSGML
      VERSION:102
      ENCODING:UTF-8
      CHARSET:NONE

      <OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR
      <BANKACCTFROM><ACCTID>1<ACCTTYPE>CHECKING</BANKACCTFROM>
      <BANKTRANLIST>
      <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261003<TRNAMT>-1.00<FITID>A1<NAME>Crème brûlée
      </STMTTRN>
      <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261004<TRNAMT>-2.00<FITID>A2<NAME>Caf
      """.utf8) + [0xE9]
    + Array(
      """
       du Parc
      </STMTTRN>
      </BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>

      """.utf8)

  @Test func aStrayByteInUTF8IsRefusedNamingLineAndByte() throws {
    #expect(
      throws: ImportError.row(
        ImportIssue(
          kind: .invalidText, file: "s", line: 12, column: 73, columnName: nil,
          rawValue: "DTPOSTED>20261004<TRNAMT>-2.00<FITID>A2<NAME>Caf\\xE9 du Parc",
          message: "invalid UTF-8 at byte 73 of the line (\\xE9)",
          hint: UTF8CheckSource.hint(.utf8)))
    ) {
      try Self.importing(Self.strayByteOFX)
    }
  }

  @Test func replaceInvalidKeepsTheRowAndWarnsByLine() throws {
    var options = ImportOptions()
    options.replaceInvalid = true
    let got = try Self.importing(Self.strayByteOFX, options: options)
    #expect(Self.descriptions(got) == ["Crème brûlée", "Caf\u{FFFD} du Parc"])
    #expect(got.warnings == ["line 12: invalid UTF-8 at byte 73 of the line (\\xE9) replaced with U+FFFD"])
  }

  @Test func aByteWindows1252DoesNotDefineIsRefused() throws {
    var options = Self.dayMonth()
    options.encoding = .windows1252
    let qif = Self.cp1252("!Type:Bank\nD13.10.2026\nT-1,00\nPB\u{E4}cker ") + [0x81] + Array(" x\n^\n".utf8)
    #expect(
      throws: ImportError.row(
        ImportIssue(
          kind: .invalidText, file: "s", line: 4, column: 9, columnName: nil, rawValue: "PBäcker \\x81 x",
          message: "byte 9 of the line (\\x81) is not a character in windows-1252",
          hint: UTF8CheckSource.hint(.windows1252)))
    ) {
      try Self.importing(qif, options: options)
    }
  }

  @Test func aSequenceCutByTheEndOfTheFileIsRefused() throws {
    let mt940 =
      Array(
        ":20:T\n:25:DE02120300000000202051\n:60F:C261001EUR100,00\n:61:261001D10,00NMSCNONREF\n:86:Caf\u{E9}\n:62F:C261001EUR90,00\n"
          .utf8) + [0xC3]
    #expect(throws: ImportError.self) { try Self.importing(mt940) }
  }

  @Test func checkingSourceFindsSequencesSplitAcrossChunks() throws {
    // "é" split between two reads is valid; an "é" whose second byte is missing is not.
    let good = UTF8CheckSource(
      ChunkSource(Array("Café\nRésumé\n".utf8), chunk: 1), file: "s", encoding: .utf8, replace: false)
    let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    defer { pointer.deallocate() }
    var total = 0
    while try good.read(into: pointer, capacity: 1) == 1 { total += 1 }
    #expect(total == "Café\nRésumé\n".utf8.count)
    let cut = UTF8CheckSource(
      ChunkSource(Array("Caf".utf8) + [0xC3, 0x20], chunk: 1), file: "s", encoding: .utf8, replace: false)
    #expect(throws: ImportError.self) {
      while try cut.read(into: pointer, capacity: 1) == 1 {}
    }
  }

  // MARK: Identity across versions

  @Test func singleByteIdentityIsTheTextAsTheBuildBeforeReadIt() {
    // The build before read Windows-1252 bytes as UTF-8: "Müller" (4D FC 6C …) was "M\u{FFFD}ller".
    #expect(SingleByteUTF8Source.legacyText("Bäckerei Müller") == "B\u{FFFD}ckerei M\u{FFFD}ller")
    #expect(SingleByteUTF8Source.legacyText("Gebühr 5 €") == "Geb\u{FFFD}hr 5 \u{FFFD}")
    #expect(SingleByteUTF8Source.legacyText("plain") == "plain")
    // Two bytes that happen to be UTF-8 ("Ã©" is C3 A9) read as "é" then, and still do.
    #expect(SingleByteUTF8Source.legacyText("Ã©") == "é")
  }

  @Test func aWindows1252StatementKeepsTheFingerprintsOfTheBuildBefore() throws {
    // The QIF has no ids: its fingerprints are of the description as the build before stored it.
    let got = try Self.importing(fixture: "qif/de_cp1252_umlauts.qif", options: Self.dayMonth())
    let before = [
      ("2026-10-13", Int64(-1250), "B\u{FFFD}ckerei Kr\u{FFFD}mel / Br\u{FFFD}tchen f\u{FFFD}r's B\u{FFFD}ro"),
      ("2026-10-28", Int64(-4000), "Caf\u{FFFD} K\u{FFFD}nig / Geb\u{FFFD}hr 2 \u{FFFD}"),
    ]
    #expect(got.rows.count == before.count)
    var mapper = EntryMapper()
    for (row, old) in zip(got.rows, before) {
      let entry = StatementEntry(
        line: row.line, date: try day(old.0), amount: Money(minor: old.1, currency: .eur), description: old.2)
      #expect(row.fingerprintHash == mapper.row(entry).fingerprintHash, "\(row.description)")
    }
  }
}
