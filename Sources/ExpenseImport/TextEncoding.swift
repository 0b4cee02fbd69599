/// A text encoding the importer can read.
public enum TextEncoding: String, Sendable, Codable, CaseIterable {
  case utf8 = "utf-8"
  case utf16le = "utf-16le"
  case utf16be = "utf-16be"
  case windows1252 = "windows-1252"
  case latin1
  case shiftJIS = "shift_jis"
  case eucJP = "euc-jp"
  case eucKR = "euc-kr"
  case gb18030
  case big5
  case windows1250 = "windows-1250"
  case windows1251 = "windows-1251"
  case iso88592 = "iso-8859-2"
  case iso885915 = "iso-8859-15"
  case koi8r = "koi8-r"

  /// The iconv converter's name for encodings transcoded through `IconvSource` (nil: read
  /// by the importer itself).
  public var iconvName: String? {
    switch self {
    case .utf8, .utf16le, .utf16be, .windows1252, .latin1: return nil
    case .shiftJIS: return "CP932"  // Shift_JIS with the NEC and IBM rows Japanese banks use
    case .eucJP: return "EUC-JP-MS"
    case .eucKR: return "CP949"  // EUC-KR and its Unified Hangul superset
    case .gb18030: return "GB18030"  // a superset of GBK and GB2312
    case .big5: return "BIG5-HKSCS"
    case .windows1250: return "CP1250"
    case .windows1251: return "CP1251"
    case .iso88592: return "ISO-8859-2"
    case .iso885915: return "ISO-8859-15"
    case .koi8r: return "KOI8-R"
    }
  }

  /// Reads an `--encoding` value with the usual aliases (`cp1252`, `iso-8859-1`, `sjis`, `gbk`).
  public init?(name: String) {
    let key = name.lowercased().filter { $0.isLetter || $0.isNumber }
    let aliases: [String: TextEncoding] = [
      "utf8": .utf8, "utf16le": .utf16le, "utf16be": .utf16be,
      "windows1252": .windows1252, "cp1252": .windows1252, "win1252": .windows1252,
      "latin1": .latin1, "iso88591": .latin1, "l1": .latin1,
      "shiftjis": .shiftJIS, "sjis": .shiftJIS, "cp932": .shiftJIS, "windows31j": .shiftJIS, "mskanji": .shiftJIS,
      "eucjp": .eucJP, "ujis": .eucJP, "euckr": .eucKR, "cp949": .eucKR, "uhc": .eucKR,
      "gb18030": .gb18030, "gbk": .gb18030, "gb2312": .gb18030, "cp936": .gb18030, "euccn": .gb18030,
      "big5": .big5, "big5hkscs": .big5, "cp950": .big5,
      "windows1250": .windows1250, "cp1250": .windows1250, "windows1251": .windows1251, "cp1251": .windows1251,
      "iso88592": .iso88592, "latin2": .iso88592, "iso885915": .iso885915, "latin9": .iso885915,
      "koi8r": .koi8r, "koi8": .koi8r,
    ]
    guard let encoding = aliases[key] else { return nil }
    self = encoding
  }

  /// A Latin-script single-byte encoding (Western or Central European).
  var isLatinSingleByte: Bool {
    self == .windows1252 || self == .latin1 || self == .iso885915 || self == .windows1250 || self == .iso88592
  }
}
