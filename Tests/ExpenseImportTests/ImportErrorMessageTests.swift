import ExpenseCore
import Foundation
import Testing

@testable import ExpenseImport

/// Every message of the import module's errors, pinned: file, line, column, the raw value
/// (control characters visible) and a hint. `name(of:)` is exhaustive, so a new case must be
/// pinned here.
@Suite struct ImportErrorMessageTests {
  static let issue = ImportIssue(
    kind: .badAmount, file: "bank.csv", line: 7, column: 3, columnName: "Amount", rawValue: "12\u{1B}x",
    message: "not an amount", hint: "use --decimal-mark")

  static let pinned: [(ImportError, String)] = [
    (.noInput(path: "x.csv"), "x.csv: no such file"),
    (.io(path: "x.csv", message: "EIO"), "x.csv: cannot read: EIO"),
    (.invalidOption(option: "--columns", message: "unknown role"), "invalid --columns: unknown role"),
    (
      .undetectable(file: "x.csv", message: "no date column", hint: "use --columns"),
      "x.csv: no date column\n  hint: use --columns"
    ),
    (
      .malformed(file: "x.ofx", line: 12, message: "<STMTTRN> opened inside another", hint: "export it again"),
      "x.ofx:12: <STMTTRN> opened inside another\n  hint: export it again"
    ),
    (
      .row(issue),
      "bank.csv:7:3: not an amount (column \"Amount\")\n  value: \"12\\u{1B}x\"\n  hint: use --decimal-mark"
    ),
  ]

  static func name(of error: ImportError) -> String {
    switch error {
    case .noInput: return "noInput"
    case .io: return "io"
    case .invalidOption: return "invalidOption"
    case .undetectable: return "undetectable"
    case .row: return "row"
    case .malformed: return "malformed"
    }
  }

  @Test func everyCaseHasItsMessage() {
    for (error, message) in Self.pinned {
      #expect(error.description == message)
      #expect(error.localizedDescription == message, "LocalizedError gives the same text")
    }
    #expect(Set(Self.pinned.map { Self.name(of: $0.0) }).count == 6, "every case is pinned")
  }

  /// A statement byte that is not text: the byte as `\xE9`, its place in the line, and a hint
  /// naming the flags that work (`--encoding`, `--replace-invalid`).
  @Test func statementTextMessages() {
    #expect(UTF8CheckSource.message(0xE9, column: 5, encoding: .utf8) == "invalid UTF-8 at byte 5 of the line (\\xE9)")
    #expect(
      UTF8CheckSource.message(0x81, column: 9, encoding: .windows1252)
        == "byte 9 of the line (\\x81) is not a character in windows-1252")
    #expect(
      UTF8CheckSource.message(0xFF, column: 3, encoding: .shiftJIS)
        == "bytes not valid in shift_jis near byte 3 of the line")
    #expect(
      UTF8CheckSource.hint(.utf8)
        == "the file is read as UTF-8: if it is in another encoding, name it with --encoding (windows-1252, "
        + "iso-8859-15, ...); if a byte is damaged, --replace-invalid keeps the text with U+FFFD (\u{FFFD}) for the bad bytes"
    )
    #expect(
      UTF8CheckSource.hint(.windows1252)
        == "name the encoding the file is really in with --encoding, or --replace-invalid keeps the text with U+FFFD (\u{FFFD}) for the bad bytes"
    )
    #expect(UTF8CheckSource.escaped([0x43, 0x61, 0x66, 0xE9, 0x21]) == "Caf\\xE9!")
  }

  @Test func amountFailuresSayWhy() {
    let pinned: [(AmountParser.Failure, String)] = [
      (.empty, "the amount is empty"), (.invalid, "not an amount"),
      (.tooManyDecimals, "more decimals than the currency has"), (.outOfRange, "the amount is too large"),
    ]
    for (failure, message) in pinned {
      #expect(failure.description == message)
      #expect(failure.localizedDescription == message)
    }
  }

  /// A row's raw value in a message never carries a bidirectional control (Bidi_Control, as the
  /// standard library's tables define it): each is written as `\u{XXXX}`.
  @Test func messagesShowEveryBidiControl() throws {
    for v in UInt32(0)...0x10FFFF {
      guard let scalar = Unicode.Scalar(v), scalar.properties.isBidiControl else { continue }
      let shown = visibleControlCharacters("a\(Character(scalar))b")
      #expect(shown == "a\\u{\(String(v, radix: 16, uppercase: true))}b")
    }
  }
}
