import ExpenseCore

/// A QIF date as Quicken and the programs that imitate it write it: three numbers with `/`,
/// `.`, `-` or `'` between them and blanks anywhere (` 1/ 2'98`, `10/3'26`, `03.10.2026`,
/// `2026-10-03`). Which of the first two is the day is decided for the whole file.
struct QIFDate: Equatable {
  var first: Int
  var second: Int
  var third: Int
  var firstDigits: Int
  var thirdDigits: Int
  /// The year follows an apostrophe: Quicken's mark for a year 2000 or later.
  var apostrophe: Bool
  /// The separator after the first number (for the date format shown in the settings).
  var separator: Character

  /// The date starts with a four-digit year (`YYYY-MM-DD`): its order is not in question.
  var yearFirst: Bool { firstDigits == 4 }

  /// Reads the text of a `D` field; nil when it is not three numbers.
  init?(_ text: String) {
    var numbers: [(value: Int, digits: Int)] = []
    var separators: [UInt8] = []
    var current = -1
    var digits = 0
    for b in text.utf8 {
      if b &- 0x30 < 10 {
        if current < 0 { current = 0 }
        guard digits < 4 else { return nil }
        current = current * 10 + Int(b &- 0x30)
        digits += 1
      } else if b == 0x20 || b == 0x09 {
        continue
      } else if b == 0x2F || b == 0x2E || b == 0x2D || b == 0x27 {
        guard current >= 0 else { return nil }
        numbers.append((current, digits))
        separators.append(b)
        current = -1
        digits = 0
      } else {
        return nil
      }
    }
    guard current >= 0 else { return nil }
    numbers.append((current, digits))
    guard numbers.count == 3, separators.count == 2 else { return nil }
    first = numbers[0].value
    second = numbers[1].value
    third = numbers[2].value
    firstDigits = numbers[0].digits
    thirdDigits = numbers[2].digits
    apostrophe = separators[1] == 0x27
    separator = Character(Unicode.Scalar(separators[0]))
    if yearFirst && (numbers[1].digits > 2 || numbers[2].digits > 2) { return nil }
    if !yearFirst && (firstDigits > 2 || numbers[1].digits > 2 || (thirdDigits != 2 && thirdDigits != 4 && !apostrophe))
    {
      return nil
    }
  }

  /// The year: four digits as written; two (or one, ` 5` in `1/ 2' 5`) after an apostrophe
  /// are 2000 and later (Quicken's convention); two after another separator follow the
  /// importer's pivot (00–69 are 20xx, 70–99 19xx).
  var year: Int {
    if thirdDigits == 4 { return third }
    if apostrophe { return 2000 + third }
    return third < 70 ? 2000 + third : 1900 + third
  }

  /// The date read with the day first (`dayFirst`) or the month first; nil when no such day.
  func date(dayFirst: Bool) -> CivilDate? {
    if yearFirst { return CivilDate(year: first, month: second, day: third) }
    return dayFirst
      ? CivilDate(year: year, month: second, day: first) : CivilDate(year: year, month: first, day: second)
  }
}

enum QIFAmounts {
  /// The decimal mark an amount proves, if it proves one: `1.234,56` and `12,50` prove `,`,
  /// `1,234.56`, `12.50` and `1,234,567` prove `.`; `1,234` and `1.234` could be either.
  static func provenMark(_ text: String) -> UInt8? {
    let bytes = Array(text.utf8)
    let dots = bytes.indices.filter { bytes[$0] == 0x2E }
    let commas = bytes.indices.filter { bytes[$0] == 0x2C }
    if let dot = dots.last, let comma = commas.last { return dot > comma ? 0x2E : 0x2C }
    for (marks, mark, other) in [(dots, UInt8(0x2E), UInt8(0x2C)), (commas, 0x2C, 0x2E)] where !marks.isEmpty {
      if marks.count > 1 { return other }  // only grouping repeats
      guard let at = marks.first else { return nil }
      let after = bytes[(at + 1)...].prefix { $0 &- 0x30 < 10 }.count
      return after == 3 ? nil : mark
    }
    return nil
  }
}
