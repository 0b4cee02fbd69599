import Foundation
import Hummingbird
import Testing

@testable import ExpenseServer

/// The Host check's rules, the bearer header's reading and the address wording, without a socket (the live server's answers
/// are in CLITests' ServeExposureTests).
@Suite struct HostPolicyTests {
  @Test func loopbackNamesWithTheBoundPortAndAllowedNamesPass() {
    let policy = HostPolicy(allowedNames: ["Budget.Example."])
    policy.listening(on: 8123)
    for host in [
      "localhost:8123", "127.0.0.1:8123", "127.9.8.7:8123", "[::1]:8123", "app.localhost:8123",
      "budget.example", "BUDGET.example:443", "localhost.:8123",
    ] {
      #expect(policy.accepts(host), "\(host)")
    }
    for host in [
      "evil.example:8123", "localhost", "127.0.0.1:8124", "[::2]:8123", "127.0.0.1.evil:8123",
      "1.2.3.4:8123", "", ":8123", "[::1", "localhost:x", "127.0.0.256:8123",
    ] {
      #expect(!policy.accepts(host), "\(host)")
    }
  }

  /// The remembered last answer never outlives what it was decided on: a Host accepted while
  /// the port was unknown is refused once the server's port is known and differs, and a
  /// refused one is never remembered.
  @Test func theRememberedAnswerFollowsTheBoundPort() {
    let policy = HostPolicy(allowedNames: [])
    #expect(policy.accepts("127.0.0.1:9000") && policy.accepts("127.0.0.1:9000"))
    policy.listening(on: 8123)
    #expect(!policy.accepts("127.0.0.1:9000"))
    #expect(policy.accepts("127.0.0.1:8123") && policy.accepts("127.0.0.1:8123"))
    #expect(!policy.accepts("evil.example:8123") && !policy.accepts("evil.example:8123"))
    #expect(policy.accepts("127.0.0.1:8123"))
  }

  /// The bytes-only reading of `Bearer TOKEN` gives what the general reading gives (Foundation's
  /// trimming after the scheme), for the common form and every kind of odd header.
  @Test func theQuickBearerReadingAgreesWithTheGeneralOne() throws {
    for header in [
      "Bearer abc", "bearer abc", "BEARER abc", "BeArEr exp_0123456789abcdef", "Bearer  abc", "Bearer abc ",
      "Bearer ab c", "Bearer \u{00A0}abc", "Bearer abc\u{3000}", "Bearer é", "Bearer a",
    ] {
      let general = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
      #expect(try AuthMiddleware<BasicRequestContext>.secret([.authorization: header]) == general, "\(header)")
      if let quick = AuthMiddleware<BasicRequestContext>.plainBearer(header) { #expect(quick == general) }
    }
    #expect(AuthMiddleware<BasicRequestContext>.plainBearer("Bearer abc") == "abc")
    #expect(AuthMiddleware<BasicRequestContext>.plainBearer("Bearer  abc") == nil)
    #expect(AuthMiddleware<BasicRequestContext>.plainBearer("Basic abc") == nil)
    #expect(AuthMiddleware<BasicRequestContext>.plainBearer("Bearer a\u{7F}") == nil)
  }

  @Test func addressesPrintAsURLsAndWildcardsAreKnown() {
    #expect(ServeAddress.url(host: "::1", port: 8080) == "http://[::1]:8080")
    #expect(ServeAddress.url(host: "::", port: 80) == "http://[::]:80")
    #expect(ServeAddress.url(host: "127.0.0.1", port: 9) == "http://127.0.0.1:9")
    #expect(ServeAddress.isWildcard("0.0.0.0") && ServeAddress.isWildcard("::") && ServeAddress.isWildcard("0::0"))
    #expect(!ServeAddress.isWildcard("::1") && !ServeAddress.isWildcard("127.0.0.1"))
    #expect(
      ServeAddress.isLoopback("::1") && ServeAddress.isLoopback("127.0.0.1") && ServeAddress.isLoopback("localhost"))
    #expect(!ServeAddress.isLoopback("0.0.0.0") && !ServeAddress.isLoopback("192.168.1.2"))
    #expect(ServeAddress.problem(with: "") != nil)
    #expect(ServeAddress.problem(with: "::1") == nil && ServeAddress.problem(with: "127.0.0.1") == nil)
  }
}
