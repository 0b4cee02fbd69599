/// Why an XML document is not well formed, numbered as libxml2 numbers its errors (the parser
/// CAMT.053 files were read with before `XMLScanner`), so a damaged file gets the message it got
/// then: "the XML is not well formed at line 8: an end tag does not match its start tag".
enum XMLSyntax {
  static let internalError = 1
  static let documentEmpty = 4
  static let documentEnd = 5
  static let invalidHexCharRef = 6
  static let invalidDecCharRef = 7
  static let invalidChar = 9
  static let entityRefNoName = 22
  static let entityRefSemicolonMissing = 23
  static let undeclaredEntity = 26
  static let unsupportedEncoding = 32
  static let stringNotStarted = 33
  static let stringNotClosed = 34
  static let ltInAttribute = 38
  static let attributeNotStarted = 39
  static let attributeNotFinished = 40
  static let attributeWithoutValue = 41
  static let attributeRedefined = 42
  static let commentNotFinished = 45
  static let piNotStarted = 46
  static let piNotFinished = 47
  static let xmlDeclNotFinished = 57
  static let misplacedCDATAEnd = 62
  static let reservedXMLName = 64
  static let spaceRequired = 65
  static let nameRequired = 68
  static let gtRequired = 73
  static let equalRequired = 75
  static let tagNameMismatch = 76
  static let standaloneValue = 78
  static let hyphenInComment = 80
  static let invalidEncoding = 81
  static let versionMissing = 96
  static let invalidURI = 99
  static let relativeURI = 100
  static let unknownVersion = 108
  static let reservedNamespace = 200
  static let undefinedNamespace = 201
  static let invalidQName = 202
  static let namespacedAttributeRedefined = 203
  static let colonInName = 205

  /// What an error number means, for the message of a file that is not well formed.
  static func describe(_ code: Int) -> String {
    switch code {
    case 4: return "the document is empty"
    case 5: return "the document ends too early, or has content after its end"
    case 9: return "a character XML does not allow"
    case 23: return "an entity reference without its ';'"
    case 26: return "an entity that is not defined (only &amp; &lt; &gt; &quot; &apos; are)"
    case 38: return "a '<' inside an attribute value"
    case 39, 40, 41: return "an attribute that is not complete"
    case 68: return "a name was expected"
    case 73: return "a '>' was expected"
    case 76: return "an end tag does not match its start tag"
    case 77: return "an element is not closed (the file may be cut short)"
    default: return "XML error \(code)"
    }
  }

  /// The error for a file that is not well formed at `line`.
  static func error(_ code: Int, line: Int, file: String) -> ImportError {
    .undetectable(
      file: file, message: "the XML is not well formed at line \(line): \(describe(code))",
      hint: "the file is damaged or cut short; export the statement again from the bank")
  }
}
