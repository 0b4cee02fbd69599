import ExpenseCore
import Foundation
import Testing

@testable import ExpenseImport

/// The Safety rules of docs/importing.md, format by format: a DTD or entity declaration is
/// refused, an entity other than the five predefined ones is refused (never expanded or kept),
/// and an encoding that could hide markup (UTF-7) is refused naming it. QIF and MT940 have no
/// markup: such text in them is a plain value, stored as written and never expanded.
@Suite struct StatementSafetyTests {
  typealias T = StatementTesting

  static let declarationHint =
    "a bank's OFX export has no <!DOCTYPE> or <!ENTITY>: export the statement again, or remove that declaration if you know the file"
  static let entityHint =
    "OFX defines no other entity and none is looked up: the file is damaged or not a bank's export"
  static let encodingHint =
    "export the statement again in UTF-8 or windows-1252, or give the encoding its bytes really are in with --encoding"

  /// An OFX 2.x document: the XML header, then `body` before `<OFX>`, then one transaction whose
  /// NAME is `name`.
  static func ofx2(before body: String = "", name: String = "x", encoding: String = "UTF-8") -> [UInt8] {
    Array(
      """
      <?xml version="1.0" encoding="\(encoding)"?>
      <?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>
      \(body)<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD</CURDEF>
      <BANKTRANLIST><STMTTRN><DTPOSTED>20261003</DTPOSTED><TRNAMT>-1</TRNAMT><NAME>\(name)</NAME></STMTTRN>
      </BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>

      """.utf8)
  }

  /// An OFX 1.x document with `body` before `<OFX>` and a transaction whose NAME is `name`.
  static func ofx1(before body: String = "", name: String = "x", charset: String = "1252") -> [UInt8] {
    let head = "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nCHARSET:\(charset)\n\n\(body)"
    return Array(
      OFXReaderTests.sgml("<STMTTRN>\n<DTPOSTED>20261003\n<TRNAMT>-1\n<NAME>\(name)\n</STMTTRN>\n")
        .replacingOccurrences(of: "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n", with: head).utf8)
  }

  func ofxError(_ bytes: [UInt8]) -> ImportError? { T.run(OFXReader.self, bytes, file: "t.ofx").error }

  // MARK: OFX 1.x (SGML)

  @Test func ofx1DocumentTypeDeclaration() {
    #expect(
      ofxError(Self.ofx1(before: "<!DOCTYPE OFX SYSTEM \"http://example.com/ofx.dtd\">\n"))
        == .malformed(
          file: "t.ofx", line: 6,
          message: "a markup declaration (<!DOCTYPE …): a DTD or entities are not read (for safety)",
          hint: Self.declarationHint))
  }

  @Test func ofx1EntityDeclaration() {
    #expect(
      ofxError(Self.ofx1(before: "<!ENTITY xxe SYSTEM \"file:///etc/passwd\">\n"))
        == .malformed(
          file: "t.ofx", line: 6,
          message: "a markup declaration (<!ENTITY …): a DTD or entities are not read (for safety)",
          hint: Self.declarationHint))
  }

  /// `&xxe;` was stored as written; `AT&T` (no `;`) and the five predefined ones still read.
  @Test func ofx1UndefinedEntityReference() {
    #expect(
      ofxError(Self.ofx1(name: "A &xxe; B"))
        == .malformed(
          file: "t.ofx", line: 18,
          message: "a reference to the entity &xxe; that is not defined (only &amp; &lt; &gt; &quot; &apos; are)",
          hint: Self.entityHint))
    let plain = T.run(OFXReader.self, Self.ofx1(name: "AT&T &amp; &lt;x&gt; &#65;"), file: "t.ofx")
    #expect(T.entries(plain.events).map(\.description) == ["AT&T & <x> A"])
  }

  @Test func ofx1UnsupportedCharset() throws {
    #expect(
      throws: ImportError.malformed(
        file: "t.ofx", line: 4,
        message:
          "the OFX header says CHARSET:UTF-7, an encoding that is not read (it could hide markup the checks must see)",
        hint: Self.encodingHint)
    ) {
      try StatementEncoding.declared(in: Self.ofx1(charset: "UTF-7"), format: .ofx, file: "t.ofx")
    }
    let none = try StatementEncoding.declared(in: Self.ofx1(charset: "NONE"), format: .ofx, file: "t.ofx")
    #expect(none == nil, "CHARSET:NONE is plain ASCII: the bytes decide")
    let crlf = Array(
      String(decoding: Self.ofx1(charset: "UTF-7"), as: UTF8.self)
        .replacingOccurrences(of: "\n", with: "\r\n").utf8)
    #expect(throws: ImportError.self, "a header with CRLF line ends is read too") {
      try StatementEncoding.declared(in: crlf, format: .ofx, file: "t.ofx")
    }
  }

  // MARK: OFX 2.x (XML)

  @Test func ofx2DocumentTypeDeclaration() {
    #expect(
      ofxError(Self.ofx2(before: "<!DOCTYPE OFX [<!ENTITY x \"y\">]>\n"))
        == .malformed(
          file: "t.ofx", line: 3,
          message: "a markup declaration (<!DOCTYPE …): a DTD or entities are not read (for safety)",
          hint: Self.declarationHint))
  }

  @Test func ofx2EntityDeclaration() {
    #expect(
      ofxError(Self.ofx2(before: "<!ENTITY x \"y\">\n"))
        == .malformed(
          file: "t.ofx", line: 3,
          message: "a markup declaration (<!ENTITY …): a DTD or entities are not read (for safety)",
          hint: Self.declarationHint))
  }

  @Test func ofx2UndefinedEntityReference() {
    #expect(
      ofxError(Self.ofx2(name: "&x;"))
        == .malformed(
          file: "t.ofx", line: 4,
          message: "a reference to the entity &x; that is not defined (only &amp; &lt; &gt; &quot; &apos; are)",
          hint: Self.entityHint))
  }

  @Test func ofx2UnsupportedEncoding() {
    #expect(
      throws: ImportError.malformed(
        file: "t.ofx", line: 1,
        message:
          "the XML declaration says encoding=\"UTF-7\", an encoding that is not read (it could hide markup the checks must see)",
        hint: Self.encodingHint)
    ) {
      try StatementEncoding.declared(in: Self.ofx2(encoding: "UTF-7"), format: .ofx, file: "t.ofx")
    }
  }

  // MARK: CAMT.053

  static func camt(_ before: String = "", text: String = "x", encoding: String = "UTF-8") -> [UInt8] {
    Array(
      """
      <?xml version="1.0" encoding="\(encoding)"?>
      \(before)<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt>
      <Ntry><Amt Ccy="EUR">1.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-10-01</Dt></BookgDt><AddtlNtryInf>\(text)</AddtlNtryInf></Ntry>
      </Stmt></BkToCstmrStmt></Document>

      """.utf8)
  }

  func camtMessage(_ bytes: [UInt8]) -> String? { T.run(CAMT053Reader.self, bytes, file: "t.xml").error?.description }

  @Test func camtDocumentTypeAndEntityDeclarations() {
    for declaration in ["<!DOCTYPE Document SYSTEM \"x.dtd\">\n", "<!ENTITY x \"y\">\n"] {
      #expect(camtMessage(Self.camt(declaration))?.hasPrefix("t.xml:2: the file declares a DTD or entities") == true)
    }
  }

  @Test func camtUndefinedEntityReference() {
    #expect(
      camtMessage(Self.camt(text: "&x;"))?.hasPrefix(
        "t.xml: the XML is not well formed at line 3: an entity that is not defined") == true)
  }

  @Test func camtUnsupportedEncoding() {
    #expect(
      camtMessage(Self.camt(encoding: "UTF-7"))?.hasPrefix(
        "t.xml: the file declares the encoding \"utf-7\", which is not read") == true)
  }

  // MARK: QIF and MT940: no markup

  /// Markup in a QIF memo is a value like any other: stored as written, nothing expanded; QIF
  /// declares no encoding (the bytes are detected as CSV's are).
  @Test func qifHasNoMarkup() throws {
    let text = "!Type:Bank\nD10/13/2026\nT-1.00\nP<!DOCTYPE x [<!ENTITY e \"y\">]> &e;\n^\n"
    let result = T.run(QIFReader.self, Array(text.utf8))
    #expect(T.entries(result.events).map(\.description) == ["<!DOCTYPE x [<!ENTITY e \"y\">]> &e;"])
    #expect(try StatementEncoding.declared(in: Array(text.utf8), format: .qif, file: "t.qif") == nil)
  }

  @Test func mt940HasNoMarkup() throws {
    let text =
      ":20:S\n:25:B/1\n:28C:1/1\n:60F:C261030EUR1,00\n:61:2610301030DR1,00NTRFNONREF\n:86:<!ENTITY e \"y\"> &e;\n:62F:C261031EUR0,00\n-\n"
    let result = T.run(MT940Reader.self, Array(text.utf8))
    #expect(T.entries(result.events).map(\.description) == ["<!ENTITY e \"y\"> &e;"])
    #expect(try StatementEncoding.declared(in: Array(text.utf8), format: .mt940, file: "t.sta") == nil)
  }
}
