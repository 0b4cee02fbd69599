import Hummingbird
import Metrics
import Prometheus

/// The process's Prometheus registry, bootstrapped as the swift-metrics backend once (the
/// metrics system is global; tests build many applications in one process).
enum ServerMetrics {
  static let registry: PrometheusCollectorRegistry = {
    let registry = PrometheusCollectorRegistry()
    MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
    return registry
  }()

  /// `GET /metrics`: the text exposition format.
  static func response() -> Response {
    var buffer: [UInt8] = []
    buffer.reserveCapacity(4096)
    registry.emit(into: &buffer)
    return Response(
      status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
      body: .init(byteBuffer: ByteBuffer(bytes: buffer)))
  }
}
