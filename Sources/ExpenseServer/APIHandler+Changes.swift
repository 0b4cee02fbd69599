import OpenAPIRuntime

extension APIHandler {
  /// The revision as an opaque token ("r" and the number): cheap to poll, one read.
  func getChanges(_ input: Operations.GetChanges.Input) async throws -> Operations.GetChanges.Output {
    let revision = try await backend.revision()
    var changed = true
    if let since = input.query.since {
      guard since.hasPrefix("r"), let seen = Int64(since.dropFirst()), seen >= 0 else {
        throw APIProblem.badRequest("'since' must be a revision from an earlier answer, like r42", field: "since")
      }
      changed = revision != seen
    }
    return .ok(.init(body: .json(.init(revision: "r\(revision)", changed: changed))))
  }
}
