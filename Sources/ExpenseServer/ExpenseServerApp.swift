import ExpenseStore
import Hummingbird
import Logging
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

    public init(host: String = "127.0.0.1", port: Int = 8080, uploadDirectory: String, uploadLimit: Int? = nil) {
      self.host = host
      self.port = port
      self.uploadDirectory = uploadDirectory
      self.uploadLimit = uploadLimit ?? ImportUploads.defaultLimit
    }
  }

  /// The router with every route and middleware.
  public static func router(backend: any ExpenseBackend, options: Options, clock: ServerClock = .system) throws
    -> Router<BasicRequestContext>
  {
    let router = Router()
    router.middlewares.add(RequestLogMiddleware())
    router.middlewares.add(MetricsMiddleware())
    router.middlewares.add(ProblemMiddleware())
    let tokens = TokenCache { hash in try await backend.token(hash: hash) }
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
    Application(
      router: try router(backend: backend, options: options, clock: clock),
      configuration: .init(address: .hostname(options.host, port: options.port), serverName: "expenses"),
      onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? options.port) },
      logger: logger)
  }
}
