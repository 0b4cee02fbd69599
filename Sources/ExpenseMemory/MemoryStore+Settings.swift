import ExpenseStore
import Foundation

/// Settings, import profiles, section states and Idempotency-Keys' answers.
extension MemoryStore {
  public func setting(_ key: String) throws -> String? { try read { $0.settings[key] } }

  public func setSetting(_ key: String, _ value: String) throws { try write { $0.settings[key] = value } }

  public func removeSetting(_ key: String) throws { try write { $0.settings[key] = nil } }

  public func profile(named name: String) throws -> String {
    guard let json = try read({ $0.profiles[name] }) else { throw StoreError.profileNotFound(name) }
    return json
  }

  public func profileNames() throws -> [String] {
    try read { $0.profiles.keys.sorted(by: MemoryLedger.byBytes) }
  }

  public func saveProfile(name: String, json: String) throws { try write { $0.profiles[name] = json } }

  public func sectionStates() throws -> [String: Bool] { try read { $0.sectionStates } }

  public func saveSectionStates(_ states: [String: Bool]) throws {
    try write { state in state.sectionStates.merge(states) { _, new in new } }
  }

  public func removeSectionStates(_ keys: [String]) throws {
    try write { state in for key in keys { state.sectionStates[key] = nil } }
  }

  public func idempotentResponse(token: String, key: String) throws -> IdempotentResponse? {
    try read { $0.answers[MemoryLedger.AnswerKey(token: token, key: key)] }
  }

  /// Keeps the first answer for `key`, never another over it.
  public func saveIdempotentResponse(_ response: IdempotentResponse, token: String, key: String, at time: String)
    throws
  {
    try write { state in
      let name = MemoryLedger.AnswerKey(token: token, key: key)
      if state.answers[name] == nil { state.answers[name] = response }
    }
  }
}
