/// What an answer of uchardet means for the importer: an encoding it reads, a family of
/// single-byte encodings to choose a member of, or an encoding it does not read.
enum UchardetName: Equatable {
  /// An encoding the importer reads, exactly.
  case exact(TextEncoding)
  /// One of two sibling encodings that agree on most bytes: uchardet often names either (its
  /// models are of languages, and a sample seldom holds the few bytes that differ).
  case family(LatinFamily)
  /// Another Latin-script single-byte encoding (Nordic, Baltic, Turkish, DOS and Mac code pages).
  /// uchardet gives these for short Western and Central European samples (a file with "Peña" is
  /// ISO-8859-10 to it), so the sample's letters choose between the two Latin families instead.
  case otherLatin
  /// A script the importer has no encoding for (Greek, Hebrew, Arabic, Thai, DOS Cyrillic, ...).
  case unsupported(String)

  init(_ answer: String?) {
    guard let answer else {
      self = .otherLatin
      return
    }
    switch answer.uppercased() {
    case "WINDOWS-1252", "ISO-8859-1", "ISO-8859-15": self = .family(.western)
    case "WINDOWS-1250", "ISO-8859-2": self = .family(.centralEuropean)
    case "WINDOWS-1251": self = .exact(.windows1251)
    case "KOI8-R": self = .exact(.koi8r)
    case "SHIFT_JIS": self = .exact(.shiftJIS)
    case "EUC-JP": self = .exact(.eucJP)
    case "EUC-KR", "UHC": self = .exact(.eucKR)
    case "GB18030": self = .exact(.gb18030)
    case "BIG5": self = .exact(.big5)
    case "ISO-8859-3", "ISO-8859-4", "ISO-8859-9", "ISO-8859-10", "ISO-8859-13", "ISO-8859-16", "WINDOWS-1254",
      "WINDOWS-1257", "WINDOWS-1258", "IBM852", "MAC-CENTRALEUROPE", "VISCII", "ASCII", "UTF-8":
      self = .otherLatin
    default: self = .unsupported(answer)
    }
  }
}

/// Western (Windows-1252, ISO-8859-15) or Central European (Windows-1250, ISO-8859-2) text.
enum LatinFamily: Equatable {
  case western, centralEuropean

  /// The member of the family that reads `sample`: the Windows code page, unless the sample has
  /// none of the bytes 0x80–0x9F (letters and quotes in Windows code pages, control codes in the
  /// ISO ones) and one that is a letter only in the ISO encoding (0xA4 is € in ISO-8859-15 and
  /// the unused ¤ in Windows-1252; 0xA1 0xA6 0xA9 0xAC 0xAE 0xB1 0xB5 0xB6 are Ą Ś Š Ź Ž ą ľ ś in
  /// ISO-8859-2 and ˇ ¦ © ¬ ® ± µ ¶ in Windows-1250).
  func member(for histogram: ByteHistogram) -> TextEncoding {
    let windowsOnly = (0x80..<0xA0).contains { histogram[$0] > 0 }
    switch self {
    case .western:
      return !windowsOnly && histogram[0xA4] > 0 ? .iso885915 : .windows1252
    case .centralEuropean:
      let isoLetters: [Int] = [0xA1, 0xA6, 0xA9, 0xAC, 0xAE, 0xB1, 0xB5, 0xB6]
      return !windowsOnly && isoLetters.contains { histogram[$0] > 0 } ? .iso88592 : .windows1250
    }
  }

  /// The family whose Windows code page reads more of the sample's non-ASCII bytes as letters
  /// (Western on a tie: it is the more common, and most bytes read the same in both).
  static func byLetters(_ histogram: ByteHistogram) -> LatinFamily {
    var western = 0
    var central = 0
    for byte in 0x80..<0x100 where histogram[byte] > 0 {
      let count = histogram[byte]
      if SingleByteTables.windows1252[byte - 0x80]?.properties.isAlphabetic == true { western += count }
      if SingleByteTables.windows1250[byte - 0x80]?.properties.isAlphabetic == true { central += count }
    }
    return central > western ? .centralEuropean : .western
  }
}

/// How often each byte value occurs in a sample.
struct ByteHistogram {
  private var counts = [Int](repeating: 0, count: 256)

  init(_ bytes: [UInt8]) {
    for b in bytes { counts[Int(b)] &+= 1 }
  }

  subscript(_ byte: Int) -> Int { counts[byte] }
}
