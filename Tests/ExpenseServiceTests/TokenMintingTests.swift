import ExpenseCore
import ExpenseService
import ExpenseStore
import Foundation
import Testing

/// `mintToken`, what `expenses token create` calls: the secret is shown once and only its hash
/// is stored; the ledger and scope default from the user's memberships.
@Suite struct TokenMintingTests {
  @Test func theLocalUsersTokenActsOnTheDefaultLedgerWithItsWidestScope() throws {
    let folder = try ServiceTests.Folder()
    let service = try UseCaseTests.service(folder)
    let minted = try service.mintToken(name: "phone", scope: nil, expiresInDays: 30, user: nil, ledger: nil)
    #expect(minted.secret.hasPrefix("exp_") && minted.secret.count == 47, "256 bits in base64url")
    #expect(minted.token.user == DirectoryName.localUser && minted.token.ledger == DirectoryName.defaultLedger)
    #expect(minted.token.scope == .write, "the owner's widest scope")
    #expect(try service.token(hash: TokenHasher.hash(minted.secret))?.name == "phone")
    #expect(try service.tokens().allSatisfy { $0.token.name != minted.secret }, "the secret is never stored")
    let read = try service.mintToken(name: "tv", scope: .read, expiresInDays: nil, user: nil, ledger: nil)
    #expect(read.token.scope == .read && read.secret != minted.secret)
  }

  @Test func aUserInSeveralLedgersMustNameOne() throws {
    let folder = try ServiceTests.Folder()
    let service = try UseCaseTests.service(folder)
    try service.createLedger("family")
    try service.addMember(user: "kim", ledger: "family", role: .read)
    try service.addMember(user: "kim", ledger: DirectoryName.defaultLedger, role: .write)
    #expect(throws: ServiceError.self) {
      try service.mintToken(name: "kim", scope: nil, expiresInDays: nil, user: "kim", ledger: nil)
    }
    let minted = try service.mintToken(name: "kim", scope: nil, expiresInDays: nil, user: "kim", ledger: "family")
    #expect(minted.token.ledger == "family" && minted.token.scope == .read, "a reader's token reads")
  }
}
