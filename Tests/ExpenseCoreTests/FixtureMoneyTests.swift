import ExpenseCore
import Foundation
import Testing

/// Every amount string in the shipped sample parses and formats back to itself, exactly.
@Suite struct FixtureMoneyTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The last comma-separated field of the demo bank file is never the amount, so the amount
  /// column is read by header position with a small quote-aware split.
  static func column(_ name: String, in file: String) throws -> [String] {
    let text = try String(contentsOf: root.appendingPathComponent("Fixtures/demo/" + file), encoding: .utf8)
    var lines = text.split(separator: "\n").map(String.init)
    let header = lines.removeFirst().split(separator: ",").map(String.init)
    let index = try #require(header.firstIndex(of: name))
    return lines.map { line in
      var fields: [String] = []
      var field = ""
      var quoted = false
      for character in line {
        if character == "\"" {
          quoted.toggle()
        } else if character == "," && !quoted {
          fields.append(field)
          field = ""
        } else {
          field.append(character)
        }
      }
      fields.append(field)
      return fields[index]
    }
  }

  @Test(arguments: ["bank.csv", "budgets.csv"])
  func amountsRoundTrip(file: String) throws {
    let amounts = try Self.column("Amount", in: file)
    #expect(amounts.count > 5)
    for raw in amounts {
      let money = try Money.parse(raw, currency: .usd)
      #expect(money.decimalString == raw, "\(raw) → \(money.decimalString)")
    }
  }
}
