import ExpenseRender
import Foundation
import Testing

/// Every message of `RenderError`, pinned; `name(of:)` is exhaustive.
@Suite struct RenderErrorMessageTests {
  static let pinned: [(RenderError, String)] = [
    (
      .unknownSection("bogus\u{7}", valid: ["summary", "all"]),
      "unknown section 'bogus^G': valid sections are summary, all"
    ),
    (.notCollapsible(.summary), "the summary section cannot be collapsed: it is always shown"),
  ]

  static func name(of error: RenderError) -> String {
    switch error {
    case .unknownSection: return "unknownSection"
    case .notCollapsible: return "notCollapsible"
    }
  }

  @Test func everyCaseHasItsMessage() {
    for (error, message) in Self.pinned {
      #expect(error.description == message)
      #expect(error.localizedDescription == message, "LocalizedError gives the same text")
    }
    #expect(Set(Self.pinned.map { Self.name(of: $0.0) }).count == 2, "every case is pinned")
  }
}
