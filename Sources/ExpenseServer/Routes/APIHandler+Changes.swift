import OpenAPIRuntime

extension APIHandler {
  /// The revision as an opaque token ("r" and the number): cheap to poll, one read.
  func getChanges(_ input: Operations.GetChanges.Input) async throws -> Operations.GetChanges.Output {
    let revision = try await backend.read { try $0.revision() }
    var changed = true
    if let since = input.query.since {
      let digits = since.utf8.dropFirst()
      guard since.hasPrefix("r"), (1...18).contains(digits.count), digits.allSatisfy({ (48...57).contains($0) }),
        let seen = Int64(since.dropFirst())
      else {
        throw APIProblem.badRequest("'since' must be a revision from an earlier answer, like r42", field: "since")
      }
      changed = revision != seen
    }
    return .ok(.init(body: .json(.init(revision: "r\(revision)", changed: changed))))
  }
}
