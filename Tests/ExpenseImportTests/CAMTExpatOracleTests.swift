import Foundation
import TestSupport
import Testing

@testable import ExpenseImport

/// The CAMT reader's XML scanner against Python's expat, an independent parser: on the bank
/// style fixtures with random bytes changed, inserted or removed, every document expat finds
/// not well-formed is refused by the reader, and no document expat reads is refused by the
/// reader as not well-formed. Left out, as policies where expat checks less: a document with a
/// DTD (the reader refuses every DTD, whose entities could expand), an XML declaration whose
/// version is not `1.` and digits, or a later processing instruction named `xml` in any case
/// (libxml2 refuses both too; expat does not look), and a namespace name that is not a URI
/// (expat's namespace processing does not check URIs).
@Suite struct CAMTExpatOracleTests {
  static let alphabet = Array("<>/=\"'&;!?-:abcAmtNtryStmt 0123456789.\n\t".utf8) + [0xC3, 0xA9, 0x00, 0xFF]

  /// Whether the reader's refusal is one of the policies above rather than a disagreement.
  static func policyDiffers(_ document: [UInt8], error: ImportError?) -> Bool {
    guard let error else { return false }
    let text = "\(error)"
    if text.contains("a namespace name that is not a URI") { return true }
    // `<?XmL …?>` later in the document: a reserved name libxml2 refuses and expat lets pass.
    if text.contains("a processing instruction named 'xml'") { return true }
    let head = String(decoding: document.prefix(200), as: UTF8.self)
    guard head.hasPrefix("<?xml"), let range = head.range(of: "version=") else { return false }
    let value = head[range.upperBound...].dropFirst().prefix { $0 != "\"" && $0 != "'" }
    let parts = value.split(separator: ".", omittingEmptySubsequences: false)
    let isVersion =
      parts.count == 2 && parts[0] == "1" && !parts[1].isEmpty && parts[1].allSatisfy(\.isASCII)
      && parts[1].allSatisfy(\.isNumber)
    return !isVersion
  }

  @Test func theScannerAgreesWithExpatOnMutatedStatements() throws {
    // Python's expat is this test's oracle: without it the test fails, never passes.
    let python = try #require(DifferentialTests.python(), "python3 is not on PATH: install it to run the XML oracle")
    let names = try FileManager.default.contentsOfDirectory(
      atPath: StatementTesting.fixtures.appendingPathComponent("camt053").path
    ).filter { $0.hasSuffix(".xml") }.sorted()
    let fixtures = try names.map { try StatementTesting.fixture("camt053/" + $0) }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("camt-expat-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var random = SeededRandom(state: fuzzSeed ^ 0x584D4C)
    var documents: [[UInt8]] = fixtures  // the fixtures themselves first: all well-formed
    for _ in 0..<(fuzzCount * 2) {
      documents.append(
        DocumentOracle.mutated(
          fixtures[random.int(0...(fixtures.count - 1))], alphabet: Self.alphabet, random: &random))
    }
    let output = try DocumentOracle.run(
      "xml-well-formed.py", python: python, documents: documents, in: folder, extension: "xml")
    let verdicts = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    try #require(verdicts.count == documents.count, "one verdict per document")
    var compared = (wellFormed: 0, malformed: 0)
    for (index, verdict) in verdicts.enumerated() where verdict != "doctype" {
      let result = StatementTesting.run(CAMT053Reader.self, documents[index], file: "\(index).xml")
      let saysMalformed = result.error.map { "\($0)".contains("not well formed") } ?? false
      if verdict == "ok" {
        if Self.policyDiffers(documents[index], error: result.error) { continue }
        compared.wellFormed += 1
        let head = String(decoding: documents[index].prefix(400), as: UTF8.self)
        #expect(
          !saysMalformed,
          "expat reads \(index).xml, the reader calls it not well formed: \(result.error.map { "\($0)" } ?? "")\n\(head)"
        )
        if index < fixtures.count { #expect(result.error == nil, "\(names[index]) reads") }
      } else {
        compared.malformed += 1
        #expect(result.error != nil, "expat says \(verdict) for \(index).xml, the reader read it")
      }
    }
    #expect(compared.wellFormed >= fixtures.count && compared.malformed > fuzzCount / 2, "\(compared)")
  }
}
