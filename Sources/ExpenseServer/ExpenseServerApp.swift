import ExpenseService
import ExpenseStore
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import OpenAPIHummingbird

/// Builds the HTTP application: middleware, the plain routes (`/health`, `/metrics`, the
/// report), the handlers generated from `openapi.yaml` and the web page (`PageRoutes`).
public enum ExpenseServerApp {
  /// Where and how to listen, and the limits.
  public struct Options: Sendable {
    public var host: String
    public var port: Int
    /// Where uploads are streamed before they are imported (the database's folder).
    public var uploadDirectory: String
    public var uploadLimit: Int
    /// Host names answered besides the loopback ones when bound to a loopback address.
    public var allowedHosts: [String]
    /// Seconds a connection may stay without a request before it is closed.
    public var idleTimeout: Double
    /// Seconds a new connection has to send its first request's headers.
    public var headerTimeout: Double
    /// Connections open at once; past it new ones wait in the kernel's queue.
    public var maxConnections: Int

    public static let defaultIdleTimeout = 60.0
    public static let defaultHeaderTimeout = 10.0
    public static let defaultMaxConnections = 1_000

    public init(
      host: String = "127.0.0.1", port: Int = 8080, uploadDirectory: String, uploadLimit: Int? = nil,
      allowedHosts: [String] = [], idleTimeout: Double = Options.defaultIdleTimeout,
      headerTimeout: Double = Options.defaultHeaderTimeout, maxConnections: Int = Options.defaultMaxConnections
    ) {
      self.host = host
      self.port = port
      self.uploadDirectory = uploadDirectory
      self.uploadLimit = uploadLimit ?? ImportUploads.defaultLimit
      self.allowedHosts = allowedHosts
      self.idleTimeout = idleTimeout
      self.headerTimeout = headerTimeout
      self.maxConnections = maxConnections
    }

    /// Bound to a loopback address only: then the Host header is checked (`HostPolicy`).
    public var bindsLoopback: Bool { ServeAddress.isLoopback(host) }
  }

  /// The router with every route and middleware.
  /// `hosts` is the Host policy (made from `options` when nil; none on a non-loopback bind).
  public static func router(
    backend: any ExpenseBackend, options: Options, clock: ServerClock = .system, hosts: HostPolicy? = nil
  ) throws -> Router<ServerContext> {
    let router = Router(context: ServerContext.self)
    router.middlewares.add(RequestLogMiddleware())
    router.middlewares.add(MetricsMiddleware())
    router.middlewares.add(ClosingMiddleware())
    router.middlewares.add(ProblemMiddleware())
    if let policy = hosts ?? (options.bindsLoopback ? HostPolicy(allowedNames: options.allowedHosts) : nil) {
      router.middlewares.add(HostCheckMiddleware(policy: policy))
    }
    router.middlewares.add(MethodNotAllowedMiddleware())
    let tokens = TokenCache(
      stamp: { try await backend.directoryStamp() }, lookup: { hash in try await backend.token(hash: hash) })
    router.middlewares.add(AuthMiddleware(tokens: tokens, clock: clock))
    router.middlewares.add(BodyLimitMiddleware())
    router.middlewares.add(ETagHeaderMiddleware())

    _ = ServerMetrics.registry
    router.get("/health") { _, _ in try await HealthRoute.respond(backend) }
    router.get("/metrics") { _, _ in ServerMetrics.response() }
    let report = ReportRoute(backend: backend, cache: ReportCache(), clock: clock)
    router.get("/v1/reports/:month") { request, context in
      try await report.respond(request, month: context.parameters.get("month") ?? "")
    }
    ImportUploads.removeAbandoned(in: options.uploadDirectory)
    let handler = APIHandler(
      backend: backend, clock: clock,
      imports: ImportUploads(directory: options.uploadDirectory, limit: options.uploadLimit))
    try handler.registerHandlers(on: router)
    PageRoutes(backend: backend, tokens: tokens, clock: clock).register(on: router)
    return router
  }

  /// The application, ready for `runService()` (graceful shutdown on SIGTERM and SIGINT).
  public static func application(
    backend: any ExpenseBackend, options: Options, clock: ServerClock = .system, logger: Logger,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
  ) throws -> some ApplicationProtocol {
    let hosts = options.bindsLoopback ? HostPolicy(allowedNames: options.allowedHosts) : nil
    let http1 = HTTP1Channel.Configuration(
      additionalChannelHandlers: [HeaderTimeoutHandler(timeout: .nanoseconds(nanoseconds(options.headerTimeout)))],
      idleTimeout: .nanoseconds(nanoseconds(options.idleTimeout)))
    return Application(
      router: try router(backend: backend, options: options, clock: clock, hosts: hosts),
      server: .http1(configuration: http1),
      configuration: .init(
        address: .hostname(options.host, port: options.port), serverName: "expenses",
        availableConnectionsDelegate: MaximumAvailableConnections(max(1, options.maxConnections), logger: logger)),
      onServerRunning: { channel in
        let port = channel.localAddress?.port ?? options.port
        hosts?.listening(on: port)
        await onServerRunning(port)
      },
      logger: logger)
  }

  /// Seconds as whole nanoseconds, clamped to a day (a flag's value cannot overflow).
  static func nanoseconds(_ seconds: Double) -> Int64 {
    guard seconds.isFinite, seconds > 0 else { return 1_000_000 }
    return Int64(min(seconds, 86_400) * 1_000_000_000)
  }
}
