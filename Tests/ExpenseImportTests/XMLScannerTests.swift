import ExpenseCore
import Foundation
import Testing

@testable import ExpenseImport

/// The XML scanner under the CAMT.053 reader: what it refuses (with libxml2's error numbers and
/// lines, which the importer reported when it read CAMT.053 with FoundationXML), that it never
/// expands an entity, and that the buffer's edges change nothing.
@Suite struct XMLScannerTests {
  typealias T = StatementTesting

  static let fixtures = [
    "sparkasse-001-02-batch.xml", "ing-nl-001-08-two-statements.xml", "pending-reversal-001-04.xml",
    "latin1-001-02-umlauts.xml",
  ]

  /// A one-statement document with `entry` as its only `Ntry`'s content.
  static func document(_ entry: String, root: String = "") -> [UInt8] {
    Array(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">
      <BkToCstmrStmt><Stmt>
      <Ntry><Amt Ccy="EUR">1.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-10-01</Dt></BookgDt>\(entry)</Ntry>
      </Stmt></BkToCstmrStmt>
      </Document>\(root)

      """.utf8)
  }

  func message(_ bytes: [UInt8]) -> String? {
    switch T.run(CAMT053Reader.self, bytes).error {
    case .undetectable(_, let message, _): return message
    case .malformed(_, let line, let message, _): return "line \(line): " + message
    default: return nil
    }
  }

  /// Every fixture read a few bytes at a time gives the same events and settings.
  @Test(arguments: fixtures)
  func fixturesReadInSmallChunks(_ name: String) throws {
    let bytes = try T.fixture("camt053/" + name)
    let whole = T.run(CAMT053Reader.self, bytes)
    #expect(whole.error == nil && !whole.events.isEmpty)
    for chunk in [1, 2, 3, 7, 1000] {
      let pieces = T.run(CAMT053Reader.self, bytes, chunk: chunk)
      #expect(pieces.events == whole.events && pieces.error == nil, "chunk \(chunk)")
      #expect(pieces.settings == whole.settings)
    }
  }

  /// Random bytes changed, inserted or removed in every fixture: the reader ends with events or
  /// an `ImportError`, never a crash or another error.
  @Test func mutatedFixturesReadOrFailCleanly() throws {
    let fixtures = try Self.fixtures.map { try T.fixture("camt053/" + $0) }
    let alphabet = Array("<>/&;#x\r\n .:=\"'!?-[]ABCDNtryAmtCcy0123456789".utf8) + [0x00, 0xFF, 0xC3, 0xEF, 0xBB, 0xBF]
    T.readsMutatedFixturesCleanly(CAMT053Reader.self, fixtures, alphabet: alphabet)
  }

  /// An entity the document does not get from XML itself is an error, never looked up: there is
  /// no DTD to define it, and nothing outside the file is read.
  @Test func anEntityOtherThanThePredefinedIsNeverExpanded() {
    #expect(
      message(Self.document("<AddtlNtryInf>&xxe;</AddtlNtryInf>"))
        == "the XML is not well formed at line 4: an entity that is not defined (only &amp; &lt; &gt; &quot; &apos; are)"
    )
    let run = T.run(
      CAMT053Reader.self, Self.document("<AddtlNtryInf>&lt;&#65;&#x42;&amp;&quot;&apos;&gt;</AddtlNtryInf>"))
    #expect(T.entries(run.events).map(\.description) == ["<AB&\"'>"])
  }

  /// A declaration anywhere is refused, even far past the first kilobyte (and the first reads)
  /// or inside a comment, naming its line.
  @Test func aDeclarationIsRefusedWhereverItIs() {
    let padding = "<AddtlNtryInf>" + String(repeating: "x\n", count: 150_000) + "</AddtlNtryInf>"
    for extra in ["<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>", "<!-- <!ENTITY e \"e\"> -->"] {
      #expect(
        message(Self.document(padding + extra))
          == "line 150004: the file declares a DTD or entities, which are not read (for safety)")
    }
  }

  /// Not well formed: libxml2's verdicts, with its error numbers and lines.
  @Test(arguments: [
    ("", "<Document/>", "line 6: the document ends too early, or has content after its end"),
    ("", "junk", "line 6: the document ends too early, or has content after its end"),
    ("<Nm>a</Nmx>", "", "line 4: an end tag does not match its start tag"),
    ("<Nm>a</Nm", "", "line 4: a '>' was expected"),
    ("<Nm a=\"1\" a=\"2\">a</Nm>", "", "line 4: an attribute given twice in one tag"),
    ("<Nm a=\"<\">a</Nm>", "", "line 4: a '<' inside an attribute value"),
    ("<Nm a>a</Nm>", "", "line 4: an attribute that is not complete"),
    ("<p:Nm>a</p:Nm>", "", "line 4: a namespace prefix that is not declared"),
    ("<a:b:Nm>a</a:b:Nm>", "", "line 4: a name with a misplaced ':' (a colon first, last or twice)"),
    ("<Nm>a]]>b</Nm>", "", "line 4: ']]>' in text, outside a CDATA section"),
    ("<Nm>a &b</Nm>", "", "line 4: an entity reference without its ';'"),
    ("<Nm>a & b</Nm>", "", "line 4: a name was expected"),
    ("<Nm>&#0;</Nm>", "", "line 4: a character XML does not allow"),
    ("<Nm>\u{1}</Nm>", "", "line 4: a character XML does not allow"),
    ("<Nm>a<!-- x -- y --></Nm>", "", "line 4: '--' inside a comment"),
    ("<Nm>a<?xml x?></Nm>", "", "line 4: a processing instruction named 'xml' after the start of the document"),
    ("<1Nm>a</1Nm>", "", "line 4: a name was expected"),
  ])
  func notWellFormed(entry: String, root: String, expected: String) {
    #expect(message(Self.document(entry, root: root)) == "the XML is not well formed at " + expected)
  }

  /// A file cut anywhere is refused as not well formed (or as having no statement), never read
  /// as a shorter statement.
  @Test func aFileCutAnywhereIsRefused() throws {
    let bytes = try T.fixture("camt053/pending-reversal-001-04.xml")
    for end in stride(from: 1, to: bytes.count - 2, by: 17) {
      let result = T.run(CAMT053Reader.self, Array(bytes.prefix(end)))
      guard case .undetectable = result.error else {
        Issue.record("cut at \(end): \(String(describing: result.error))")
        continue
      }
    }
  }

  /// The ASCII name bytes are the name character class's.
  @Test func asciiNameBytesAreNameCharacters() {
    for b in UInt8.min...UInt8.max {
      #expect(XMLChars.isASCIINameByte(b) == (b < 0x80 && XMLChars.isNameChar(UInt32(b))), "\(b)")
    }
  }

  /// Text, even far longer than a value may be, is counted, not kept, outside the values read.
  @Test func longTextOutsideTheValuesIsSkipped() {
    let long = String(repeating: "y", count: 1 << 20)
    let run = T.run(CAMT053Reader.self, Self.document("<Other>\(long)</Other><AddtlNtryInf>kept</AddtlNtryInf>"))
    #expect(run.error == nil)
    #expect(T.entries(run.events).map(\.description) == ["kept"])
  }

  /// Every error number the scanner throws says in words what is wrong: none is a bare number.
  @Test func everyErrorHasWords() {
    let codes = [
      XMLSyntax.internalError, XMLSyntax.documentEmpty, XMLSyntax.documentEnd, XMLSyntax.invalidHexCharRef,
      XMLSyntax.invalidDecCharRef, XMLSyntax.invalidChar, XMLSyntax.entityRefNoName,
      XMLSyntax.entityRefSemicolonMissing, XMLSyntax.undeclaredEntity, XMLSyntax.unsupportedEncoding,
      XMLSyntax.stringNotStarted, XMLSyntax.stringNotClosed, XMLSyntax.ltInAttribute, XMLSyntax.attributeNotStarted,
      XMLSyntax.attributeNotFinished, XMLSyntax.attributeWithoutValue, XMLSyntax.attributeRedefined,
      XMLSyntax.commentNotFinished, XMLSyntax.piNotStarted, XMLSyntax.piNotFinished, XMLSyntax.xmlDeclNotFinished,
      XMLSyntax.misplacedCDATAEnd, XMLSyntax.reservedXMLName, XMLSyntax.spaceRequired, XMLSyntax.nameRequired,
      XMLSyntax.gtRequired, XMLSyntax.equalRequired, XMLSyntax.tagNameMismatch, XMLSyntax.elementNotClosed,
      XMLSyntax.standaloneValue, XMLSyntax.encodingNameStart, XMLSyntax.hyphenInComment, XMLSyntax.invalidEncoding,
      XMLSyntax.versionMissing, XMLSyntax.unsupportedVersion, XMLSyntax.invalidURI, XMLSyntax.relativeURI,
      XMLSyntax.unknownVersion, XMLSyntax.reservedNamespace, XMLSyntax.undefinedNamespace, XMLSyntax.invalidQName,
      XMLSyntax.namespacedAttributeRedefined, XMLSyntax.colonInName, XMLSyntax.nameTooLong,
      XMLSyntax.nestedTooDeep, XMLSyntax.endTagWithoutStart, XMLSyntax.unknownMarkup,
    ]
    for code in codes {
      let words = XMLSyntax.describe(code)
      #expect(!words.contains("XML error") && !words.contains("number"), "\(code): \(words)")
    }
  }

  /// A 5,000-character element name names the limit it passes, as does nesting past it.
  @Test func limitsAreNamed() {
    let long = String(repeating: "N", count: 5000)
    #expect(
      message(Self.document("<\(long)>a</\(long)>"))
        == "the XML is not well formed at line 4: a name longer than 1024 bytes, the most this reader keeps")
    let deep = String(repeating: "<D>", count: 61) + String(repeating: "</D>", count: 61)
    #expect(
      message(Self.document(deep))
        == "the XML is not well formed at line 4: elements nested more than 64 deep, the most this reader follows")
    #expect(CAMTHandler.maxDepth == XMLScanner.maxDepth, "one nesting limit")
  }

  /// A CAMT.053 file in UTF-16 without a byte order mark (and without an XML declaration) is
  /// told from its content and read, not taken for CSV.
  @Test func utf16WithoutByteOrderMark() {
    let text = String(decoding: Self.document("<AddtlNtryInf>Kaffee</AddtlNtryInf>"), as: UTF8.self)
      .replacingOccurrences(of: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", with: "")
    let little = text.utf16.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
    let big = text.utf16.flatMap { [UInt8(truncatingIfNeeded: $0 >> 8), UInt8(truncatingIfNeeded: $0)] }
    for bytes in [little, big] {
      #expect(StatementFormat.sniff(bytes) == .camt053)
      let run = T.run(CAMT053Reader.self, bytes)
      #expect(run.error == nil)
      #expect(T.entries(run.events).map(\.description) == ["Kaffee"])
    }
  }
}
