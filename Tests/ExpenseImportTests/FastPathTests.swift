import ExpenseCore
import Foundation
import Testing

@testable import ExpenseImport

/// The shortcuts of the import hot path give exactly what the general code gives.
@Suite struct FastPathTests {
  func validates(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { isValidUTF8($0) }
  }

  @Test func utf8ValidationAgreesWithTheStandardLibrary() {
    // Every 1- and 2-byte sequence.
    for a in 0...255 {
      #expect(validates([UInt8(a)]) == (String(validating: [UInt8(a)], as: UTF8.self) != nil))
      for b in 0...255 {
        let bytes = [UInt8(a), UInt8(b)]
        if validates(bytes) != (String(validating: bytes, as: UTF8.self) != nil) {
          Issue.record("\(bytes)")
        }
      }
    }
    // 3- and 4-byte sequences around every boundary of table 3-7, and behind ASCII runs.
    let edges: [UInt8] = [0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xF4, 0xFF]
    for a in 0xE0...0xF5 {
      for b in edges {
        for c in edges {
          for d in edges {
            for prefix in [[], Array("12345678".utf8)] {
              let bytes = prefix + [UInt8(a), b, c, d]
              if validates(bytes) != (String(validating: bytes, as: UTF8.self) != nil) {
                Issue.record("\(bytes)")
              }
              let three = prefix + [UInt8(a), b, c]
              if validates(three) != (String(validating: three, as: UTF8.self) != nil) {
                Issue.record("\(three)")
              }
            }
          }
        }
      }
    }
    #expect(validates(Array("plain ascii text, longer than eight bytes".utf8)))
    #expect(validates(Array("Café Crème 😀 麺".utf8)))
    #expect(!validates(Array("Caf".utf8) + [0xE9]))
    #expect(validates([]))
  }

  @Test func trimmingAgreesWithCharacterTrimming() {
    let texts = [
      "", " ", "  \t ", "a", " a ", "\ta\t", "\r\nabc\r\n", "abc\r", "\nabc", "Groceries", " Café ", "Café",
      " \u{301}x", "x \u{301}", "x\u{600} ", " \u{600}x", "\u{600} ", " 麺 ", "麺", "a b", " \r\n ", "\u{A0}x\u{A0}",
    ]
    for text in texts {
      #expect(trimmingASCIIBlanks(text) == text.trimmingASCIIWhitespace(), "\(Array(text.utf8))")
      #expect(Array(trimmingASCIIBlanks(text).utf8) == Array(text.trimmingASCIIWhitespace().utf8))
    }
  }

  @Test func fastLowerCaseAgreesWithTheStandardLibrary() {
    // Every ASCII byte alone and beside a letter, and texts that are not ASCII (the general path).
    var texts = (0..<128).map { String(decoding: [UInt8($0)], as: UTF8.self) }
    texts += (0..<128).map { String(decoding: [0x41, UInt8($0), 0x7A, 0x5A], as: UTF8.self) }
    texts += ["", "POS 4417 STARBUCKS #10234 SEATTLE WA", "Café CRÈME", "ÉCOLE", "İstanbul", "ΣΟΦΙΑ", "麺 ABC"]
    texts += ["\u{212A}ELVIN", "STRASSE ẞ", "ǅ ǈ ǋ", "A\u{301}\r\nB", "ＦＵＬＬ", "ПЕНСИЯ", "😀 X", "Ⅻ"]
    // Every scalar of the Basic Multilingual Plane that is not a surrogate, beside an ASCII letter.
    texts += stride(from: 0x80, to: 0x1_0000, by: 1).compactMap { Unicode.Scalar($0).map { "Q\($0)" } }
    for text in texts {
      #expect(Array(lowercasedFast(text).utf8) == Array(text.lowercased().utf8), "\(Array(text.utf8))")
    }
  }

  @Test func signEvidenceWordsAreFoundWhereTheStandardLibraryFindsThem() {
    let words = SignEvidence.moneyInWords + SignEvidence.purchaseWords + SignEvidence.cardPaymentWords + ["d", "e"]
    let texts = [
      "", "refund", "xrefundx", "refun", "pos 4417 starbucks #10234 seattle wa", "salary\r\nrefund", "refund\r\n",
      "refund\u{301}", "refune\u{301}", "virement reçu", "virement recu", "d\u{301}", "e\u{301}", "amazon mktp",
      "payment - thank you", "ПЕНСИЯ refund", "intérêts", "interets",
      // A plain word in a text that is not ASCII: found between ASCII bytes, or beside a
      // character that may join it (a combining mark, a joiner, a prepended sign, an emoji).
      "café refund", "refund café", "é refund é", "érefundé", "refund\u{301} refund", "refund\u{301}",
      "\u{0600}refund", "\u{0600} refund", "👍🏽refund", "refund\u{200D}x", "ПЕНСИЯ refund\u{308}", "ÿrefundÿ",
      "refun\u{301}d café", "caf\u{E9} deposit", "deposit\u{E9}",
      // Words that are not ASCII, in texts composed and decomposed.
      "pago nómina", "pago no\u{301}mina", "nomina", "mina", "intérêts", "inte\u{301}re\u{302}ts", "interets",
      "devolución", "devolucio\u{301}n", "virement reçu", "virement rec\u{327}u", "nóminas", "nómina\u{301}",
    ]
    for word in words {
      for text in texts {
        let found = SignEvidence.Word(word).isIn(text)
        #expect(found == text.contains(word), "\(word) in \(Array(text.utf8))")
        #expect(!found || SignEvidence.Word(word).mayBeIn(SignEvidence.Word.byteSet(text.utf8)), "\(word)")
      }
    }
  }

  @Test func headerNamesAreComparedAsTheirLowerCases() {
    let names = [
      "Date", "DATE", "date ", "Datum", "Amount", "Beträg", "BETRÄG", "\u{212A}", "k", "K", "@", "`", "[", "{", "",
    ]
    for a in names {
      for b in names {
        #expect(Detector.sameIgnoringCase(a, b) == (a.lowercased() == b.lowercased()), "\(a) \(b)")
      }
    }
    for a in 0..<128 {
      for b in 0..<128 {
        let (x, y) = (String(UnicodeScalar(UInt8(a))), String(UnicodeScalar(UInt8(b))))
        if Detector.sameIgnoringCase(x, y) != (x.lowercased() == y.lowercased()) { Issue.record("\(a) \(b)") }
      }
    }
  }

  @Test func noLookedUpWordIsCanonicallyEqualToADifferentASCIIText() {
    // `LowercaseWords` settles an ASCII cell by the ASCII words alone.
    for word in RowMapper.pendingDates.union(Detector.balanceLineTexts) where !word.utf8.allSatisfy({ $0 < 0x80 }) {
      #expect(!word.decomposedStringWithCanonicalMapping.utf8.allSatisfy { $0 < 0x80 }, "\(word)")
    }
  }

  @Test func pendingWordsAreTheOnesTheGeneralTestFinds() {
    var fields = Array(RowMapper.pendingDates) + RowMapper.pendingDates.map { " \($0.uppercased())\t" }
    fields += [
      "", " ", "Pending\u{301}", "PENDING", "pend", "pending pending", String(repeating: "pending", count: 40),
    ]
    fields += [String(repeating: " ", count: 300) + "pending" + String(repeating: " ", count: 300), "EN ATTENTE"]
    fields += ["2026-11-03", "-12.50", "Pendinx", "xending", "\u{212A}ONTOSTAND", "INGÅENDE SALDO", "ingående saldo"]
    for field in fields {
      let general = RowMapper.pendingDates.contains(field.trimmingASCIIWhitespace().lowercased())
      #expect(Detector.isPendingWord(field) == general, "\(Array(field.utf8))")
    }
    for field in Array(Detector.balanceLineTexts) + Detector.balanceLineTexts.map({ "\t\($0.uppercased()) " }) + fields
    {
      let general = Detector.balanceLineTexts.contains(field.trimmingASCIIWhitespace().lowercased())
      #expect(Detector.isDatedBalanceLine([field]) == general, "\(Array(field.utf8))")
    }
  }

  @Test func anASCIICellIsLookedUpOnItsBytes() {
    // `CSVImportRun.excludeDatedBalanceLine` settles a row of ASCII cells by
    // `LowercaseWords.contains(trimmedASCII:)`: it must be the general test's answer.
    var cells = Array(Detector.balanceLineTexts) + Detector.balanceLineTexts.map { $0.uppercased() }
    cells += ["Coffee", "NETFLIX.COM", "a", "Z", "saldo", "SALDO", "Saldo anterior", "opening", "@", "`", "~", "{"]
    cells += Array(RowMapper.pendingDates) + RowMapper.pendingDates.map { $0.uppercased() }
    for length in 1...70 { cells += [String(repeating: "x", count: length), String(repeating: "S", count: length)] }
    for byte in 0x21..<0x7F { cells.append(String(UnicodeScalar(UInt8(byte))) + "aldo") }
    for cell in cells where cell.utf8.allSatisfy({ $0 < 0x80 }) {
      let general = Detector.balanceLineTexts.contains(cell.lowercased())
      let found = Array(cell.utf8).withUnsafeBufferPointer { Detector.balanceLineWords.contains(trimmedASCII: $0) }
      #expect(found == general, "\(cell)")
      for words in [Detector.balanceLineWords, LowercaseWords(RowMapper.pendingDates)] {
        let byBytes = Array(cell.utf8).withUnsafeBufferPointer { words.contains(trimmedASCII: $0) }
        #expect(byBytes == words.contains(cell: cell), "\(cell)")
      }
    }
  }

  @Test func plainAmountsAgreeWithTheFullParser() {
    var texts = [
      "0", "-0", "007", "12", "-12", "12.5", "12.50", "12.505", "-0.01", "12.", ".5", "-.5", "--1", "1-", "12,50",
      "99999999999999", "999999999999999", "-99999999999999.9999", "1.2.3", "12.3x", "", "-", "+1", " 1", "1 ",
    ]
    for digits in 1...20 { texts.append(String(repeating: "9", count: digits) + ".99") }
    for mark in [UInt8(ascii: "."), UInt8(ascii: ",")] {
      let parser = AmountParser(decimalMark: mark)
      for text in texts {
        for units in 0...4 {
          var bytes = Array(text.utf8)
          bytes.withUnsafeMutableBufferPointer { p in
            let q = UnsafeBufferPointer(p)
            if let fast = AmountParser.plain(q, minorUnits: units, mark: mark) {
              #expect(parser.parseAnyForm(q, minorUnits: units) == .success(fast), "\(text) \(units)")
            }
            #expect(parser.parse(q, minorUnits: units) == parser.parseAnyForm(q, minorUnits: units))
          }
        }
      }
    }
  }

  @Test func fingerprintDecimalsHashTheirDigits() {
    var values: [Int64] = [0, 1, 9, 10, 99, 100, 99_999_999, 100_000_000, .max, .min + 1, .min, -1, -10, -99_999_999]
    var x: UInt64 = 0x1234_5678
    for _ in 0..<2000 {
      x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      values.append(Int64(bitPattern: x) >> (x % 63))
    }
    for value in values {
      var fast = Fingerprint.Hasher64()
      fast.decimal(value)
      var reference = Fingerprint.Hasher64()
      for b in String(value).utf8 { reference.byte(b) }
      #expect(fast.state == reference.state, "\(value)")
    }
    for occurrence in 0...1000 {
      var fast = Fingerprint.Hasher64()
      Fingerprint.finish(&fast, occurrence: occurrence)
      var reference = Fingerprint.Hasher64()
      reference.byte(0x7C)
      for b in String(occurrence).utf8 { reference.byte(b) }
      #expect(fast.state == reference.state, "\(occurrence)")
    }
  }

  @Test func textCachePausesWhenDescriptionsDoNotRepeat() {
    var cache = TextCache()  // noncopyable: its table is freed when the test ends
    var bytes = Array("a description of 24 byte".utf8)
    bytes.withUnsafeBufferPointer { p in
      let key = TextCache.key(p)
      let before = cache.find(p, key)
      #expect(before == nil)
      cache.store(p, key, "a description of 24 byte")
      let after = cache.find(p, key)
      #expect(after == "a description of 24 byte")
    }
    bytes[0] = UInt8(ascii: "A")
    let changed = bytes.withUnsafeBufferPointer { p in cache.find(p, TextCache.key(p)) }
    #expect(changed == nil)
    // A window without hits turns it off for 16 windows, then it is back.
    cache.hits = 0
    var uses = 0
    for _ in 0..<(TextCache.window * 17) where cache.use() { uses += 1 }
    #expect(uses < 2 * TextCache.window)
    let enabled = cache.enabled
    #expect(enabled)
  }

  @Test func bytesEqualComparesEveryByte() {
    for n in 0...40 {
      // One byte more than compared, so that the buffers are never empty.
      let a = (0...n).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
      for k in -1..<n {
        var b = a
        if k >= 0 { b[k] ^= 0x40 }
        b[n] ^= 0xFF
        let same = a.withUnsafeBufferPointer { x in
          b.withUnsafeBufferPointer { y in bytesEqual(x.baseAddress!, y.baseAddress!, n) }
        }
        #expect(same == (k < 0), "\(n) \(k)")
      }
    }
  }

  @Test func containsFindsTheByteAnywhere() {
    for n in 0...20 {
      for at in -1..<n {
        var bytes = [UInt8](repeating: 0x61, count: n)
        if at >= 0 { bytes[at] = 0x3B }
        #expect(bytes.withUnsafeBufferPointer { Detector.contains($0, 0x3B) } == (at >= 0), "\(n) \(at)")
      }
    }
  }

  @Test func lowercaseTableLowersOnlyASCIILetters() {
    for b in 0...255 {
      let expected = b >= 0x41 && b <= 0x5A ? b + 0x20 : b
      #expect(Int(Fingerprint.lowercase[b]) == expected)
    }
  }

  @Test func occurrenceTableGrowsAndForgets() {
    let table = OccurrenceTable()
    for round in 1...3 {
      for key in 0..<UInt64(5000) { #expect(table.increment(key &* 0x1_0000_0001) == UInt32(round)) }
    }
    #expect(table.count == 5000)
    table.removeAll()
    #expect(table.count == 0)
    #expect(table.increment(0) == 1)
    #expect(table.increment(0x1_0000_0001) == 1)
    #expect(table.increment(0) == 2)
  }
}
