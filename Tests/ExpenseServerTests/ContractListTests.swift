import Foundation
import Testing

@testable import ExpenseServer

/// Lists in the code that restate the document are checked against it.
@Suite struct ContractListTests {
  /// `UndecodableParameter` names the typed query parameters; the document is the truth.
  @Test func typedQueryParametersMatchTheDocument() throws {
    let document = try OpenAPIContract.document.get()
    var integers: Set<String> = []
    var booleans: Set<String> = []
    for (_, item) in document["paths"]?.object ?? [:] {
      for (_, operation) in item.object ?? [:] {
        for parameter in operation["parameters"]?.array ?? [] {
          var parameter = parameter
          if let ref = parameter["$ref"]?.string { parameter = try OpenAPIContract.resolve(ref, in: document) }
          guard parameter["in"]?.string == "query", let name = parameter["name"]?.string else { continue }
          switch parameter["schema"]?["type"]?.string {
          case "integer": integers.insert(name)
          case "boolean": booleans.insert(name)
          default: break
          }
        }
      }
    }
    #expect(integers == UndecodableParameter.integers)
    #expect(booleans == UndecodableParameter.booleans)
  }
}
