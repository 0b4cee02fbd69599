import Foundation
import Hummingbird
import NIOCore
import Testing

@testable import ExpenseServer

/// Money is minor units: a fraction where an integer belongs is a 400 naming the field, never
/// a rounded amount and never an unreadable-JSON message without one.
@Suite struct FractionalAmountTests {
  @Test func aFractionNamesItsFieldAndNothingIsStored() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      let reply = try await client.call(.put, "/v1/budgets/Groceries", json: #"{"amountMinor":1250.5}"#)
      #expect(reply.status == 400, "\(reply.text)")
      #expect(
        reply.json["detail"]?.string == "'amountMinor' must be an integer (minor units, never a fraction)",
        "\(reply.text)")
      let budgets = try await client.call(.get, "/v1/budgets")
      #expect(!budgets.text.contains("Groceries"))
    }
  }

  @Test func onlyNumbersWithAFractionAreNamed() {
    func field(_ json: String) -> String? {
      BodyLimitMiddleware<BasicRequestContext>.fractionalField(in: .init(string: json))
    }
    #expect(field(#"{"a":true,"b":2.5}"#) == "b")
    #expect(field(#"{"a":true,"b":2}"#) == nil)
    #expect(field(#"{"a":false}"#) == nil)
    #expect(field(#"[1.5]"#) == nil)
  }
}
