import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A TCP socket connected to 127.0.0.1:`port`, reads (and, with `sendTimeout`, writes)
/// bounded by timeouts so a test never hangs on a server that stops answering: the raw
/// connections of the tests that send what no HTTP client would.
public enum LoopbackSocket {
  /// The connected descriptor, or the `errno` of the step that failed.
  public static func connect(port: Int, timeout: Int = 30, sendTimeout: Int? = nil) -> Result<Int32, POSIXError> {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return .failure(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)) }
    var wait = timeval(tv_sec: timeout, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    if let sendTimeout {
      var send = timeval(tv_sec: sendTimeout, tv_usec: 0)
      setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &send, socklen_t(MemoryLayout<timeval>.size))
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      let failure = errno
      close(fd)
      return .failure(POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO))
    }
    return .success(fd)
  }
}
