import Testing

@testable import ExpenseServer

/// The Host check's rules and the address wording, without a socket (the live server's answers
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
