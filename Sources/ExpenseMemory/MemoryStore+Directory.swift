import ExpenseStore

/// The directory: ledgers, users' memberships and tokens, as a SQLite main file keeps them
/// (this store holds one ledger's data, `default`'s, and the names of the others).
extension MemoryStore {
  public func ledgerNames() throws -> [String] { try read { $0.ledgers.sorted(by: MemoryLedger.byBytes) } }

  public func createLedger(_ name: String, at time: String) throws {
    guard DirectoryName.isValid(name) else { throw StoreError.invalidName(kind: "ledger", name: name) }
    try write { state in
      guard !state.ledgers.contains(name) else { throw StoreError.ledgerExists(name) }
      state.ledgers.append(name)
      state.members.append(Membership(user: DirectoryName.localUser, ledger: name, role: .owner, since: time))
    }
  }

  public func members() throws -> [Membership] {
    try read { state in
      state.members.sorted {
        $0.user != $1.user ? MemoryLedger.byBytes($0.user, $1.user) : MemoryLedger.byBytes($0.ledger, $1.ledger)
      }
    }
  }

  public func setMember(_ membership: Membership) throws {
    guard DirectoryName.isValid(membership.user) else {
      throw StoreError.invalidName(kind: "user", name: membership.user)
    }
    try write { state in
      guard state.ledgers.contains(membership.ledger) else {
        throw StoreError.noLedger(path: MemoryStore.name, ledger: membership.ledger)
      }
      if membership.role != .owner { try state.keepAnOwner(user: membership.user, ledger: membership.ledger) }
      if let index = state.members.firstIndex(where: { $0.user == membership.user && $0.ledger == membership.ledger }) {
        state.members[index].role = membership.role
      } else {
        state.members.append(membership)
      }
    }
  }

  public func removeMember(user: String, ledger: String) throws {
    try write { state in
      try state.keepAnOwner(user: user, ledger: ledger)
      guard let index = state.members.firstIndex(where: { $0.user == user && $0.ledger == ledger }) else {
        throw StoreError.notAMember(user: user, ledger: ledger)
      }
      state.members.remove(at: index)
    }
  }

  public func createToken(_ token: APIToken, hash: String) throws {
    try write { state in
      if state.tokens.contains(where: { $0.token.name == token.name }) { throw StoreError.tokenExists(token.name) }
      guard state.role(of: token.user, in: token.ledger) != nil else {
        throw StoreError.notAMember(user: token.user, ledger: token.ledger)
      }
      state.tokens.append(StoredToken(token: token, hash: hash))
    }
  }

  public func tokens() throws -> [APIToken] {
    try read { state in
      state.tokens.map { state.now($0.token) }.sorted { MemoryLedger.byBytes($0.name, $1.name) }
    }
  }

  public func token(hash: String) throws -> APIToken? {
    try read { state in state.tokens.first { $0.hash == hash }.map { state.now($0.token) } }
  }

  public func revokeToken(name: String, at time: String) throws {
    try write { state in
      guard let index = state.tokens.firstIndex(where: { $0.token.name == name && $0.token.revokedAt == nil }) else {
        throw StoreError.tokenNotFound(name)
      }
      state.tokens[index].token.revokedAt = time
    }
  }
}

extension MemoryLedger {
  func role(of user: String, in ledger: String) -> LedgerRole? {
    members.first { $0.user == user && $0.ledger == ledger }?.role
  }

  /// `token` with its user's role now (nil when no longer a member: the token is refused).
  func now(_ token: APIToken) -> APIToken {
    var token = token
    token.role = role(of: token.user, in: token.ledger)
    return token
  }

  /// Throws `lastOwner` when `user` is the only owner of `ledger` (a ledger keeps one).
  func keepAnOwner(user: String, ledger: String) throws {
    let owners = members.filter { $0.ledger == ledger && $0.role == .owner }.map(\.user)
    if owners == [user] { throw StoreError.lastOwner(user: user, ledger: ledger) }
  }
}
