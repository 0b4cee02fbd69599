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
  static let elementNotClosed = 77
  static let standaloneValue = 78
  static let encodingNameStart = 79
  static let hyphenInComment = 80
  static let invalidEncoding = 81
  static let versionMissing = 96
  static let unsupportedVersion = 97
  static let invalidURI = 99
  static let relativeURI = 100
  static let unknownVersion = 108
  static let reservedNamespace = 200
  static let undefinedNamespace = 201
  static let invalidQName = 202
  static let namespacedAttributeRedefined = 203
  static let colonInName = 205

  /// The scanner's own limits (numbers libxml2 does not use): a name longer than
  /// `XMLScanner.maxNameBytes`, elements nested deeper than `XMLScanner.maxDepth`.
  static let nameTooLong = 1001
  static let nestedTooDeep = 1002
  /// An end tag with no element open, and `<!` that starts neither a comment nor CDATA.
  static let endTagWithoutStart = 1003
  static let unknownMarkup = 1004

  /// What an error number means, in words, for the message of a file that is not well formed.
  /// Every number the scanner throws has its words here (`XMLScannerTests` checks each).
  static func describe(_ code: Int) -> String {
    switch code {
    case internalError: return "the reader met a state it does not expect"
    case documentEmpty: return "the document is empty"
    case documentEnd: return "the document ends too early, or has content after its end"
    case invalidHexCharRef, invalidDecCharRef: return "a character reference (&#…;) to no character XML allows"
    case invalidChar: return "a character XML does not allow"
    case entityRefNoName: return "a '&' not followed by an entity's name"
    case entityRefSemicolonMissing: return "an entity reference without its ';'"
    case undeclaredEntity: return "an entity that is not defined (only &amp; &lt; &gt; &quot; &apos; are)"
    case unsupportedEncoding: return "an encoding that is not read"
    case stringNotStarted: return "a quoted value was expected (\" or ')"
    case stringNotClosed: return "a quoted value is not closed"
    case ltInAttribute: return "a '<' inside an attribute value"
    case attributeNotStarted, attributeNotFinished, attributeWithoutValue: return "an attribute that is not complete"
    case attributeRedefined: return "an attribute given twice in one tag"
    case commentNotFinished: return "a comment that is not closed with -->"
    case piNotStarted: return "a processing instruction (<?…?>) without a name"
    case piNotFinished: return "a processing instruction that is not closed with ?>"
    case xmlDeclNotFinished: return "the XML declaration is not closed with ?>"
    case misplacedCDATAEnd: return "']]>' in text, outside a CDATA section"
    case reservedXMLName: return "a processing instruction named 'xml' after the start of the document"
    case spaceRequired: return "a blank was expected"
    case nameRequired: return "a name was expected"
    case gtRequired: return "a '>' was expected"
    case equalRequired: return "a '=' was expected"
    case tagNameMismatch: return "an end tag does not match its start tag"
    case elementNotClosed: return "an element is not closed (the file may be cut short)"
    case standaloneValue: return "the XML declaration's standalone is neither 'yes' nor 'no'"
    case encodingNameStart: return "the XML declaration's encoding name does not start with a letter"
    case hyphenInComment: return "'--' inside a comment"
    case invalidEncoding: return "the XML declaration names an encoding the file's bytes are not in"
    case versionMissing: return "the XML declaration has no version"
    case unsupportedVersion: return "the XML declaration names a version of XML 1 that is not read"
    case invalidURI: return "a namespace name that is not a URI"
    case relativeURI: return "a namespace name that is a relative URI"
    case unknownVersion: return "the XML declaration names a version other than 1.0"
    case reservedNamespace: return "the reserved xml or xmlns prefix or namespace bound otherwise"
    case undefinedNamespace: return "a namespace prefix that is not declared"
    case invalidQName: return "a name with a misplaced ':' (a colon first, last or twice)"
    case namespacedAttributeRedefined:
      return "an attribute given twice in one tag (under two prefixes of one namespace)"
    case colonInName: return "a processing instruction's name holds a ':'"
    case nameTooLong: return "a name longer than \(XMLScanner.maxNameBytes) bytes, the most this reader keeps"
    case nestedTooDeep: return "elements nested more than \(XMLScanner.maxDepth) deep, the most this reader follows"
    case endTagWithoutStart: return "an end tag with no element open"
    case unknownMarkup: return "a '<!' that starts neither a comment nor a CDATA section"
    default: return "an error the reader has no words for (number \(code))"
    }
  }

  /// The error for a file that is not well formed at `line`.
  static func error(_ code: Int, line: Int, file: String) -> ImportError {
    .undetectable(
      file: file, message: "the XML is not well formed at line \(line): \(describe(code))",
      hint: "the file is damaged or cut short; export the statement again from the bank")
  }
}
