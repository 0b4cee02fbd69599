import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Where the signal handlers write the signal number; the screen's loop polls the other end.
/// A handler may only do async-signal-safe things, and `write` is one.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// The terminal taken over for the full-screen report, and always given back.
///
/// `start` saves the termios settings, switches to raw mode (no echo, no line editing, no
/// signals from keys: Ctrl-C arrives as a byte), and enters the alternate screen with the cursor
/// hidden, autowrap off (a line exactly as wide as the screen must not scroll it) and SGR mouse
/// reporting on. `restore` undoes each of these; it runs on every way out (`q`, Ctrl-C, SIGTERM,
/// SIGHUP, SIGINT, an error), called by a `defer` in the loop, and is safe to call twice.
final class TerminalSession {
  static let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[?1000h\u{1B}[?1006h\u{1B}[H\u{1B}[2J"
  static let leave = "\u{1B}[?1006l\u{1B}[?1000l\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"
  /// The signals that end the screen (after the terminal is restored) or lay it out again.
  static let endingSignals: [Int32] = [SIGTERM, SIGHUP, SIGINT, SIGQUIT]
  static let handled = endingSignals + [SIGWINCH]

  let input = STDIN_FILENO
  let output = STDOUT_FILENO
  /// The read end of the signal pipe.
  let signals: Int32
  private var original = termios()
  private(set) var active = false

  init() throws {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else {
      throw CLIFailure(message: "cannot set up the screen: \(String(cString: strerror(errno)))", kind: .io)
    }
    for end in ends {
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    signals = ends[0]
    signalPipeWriteEnd = ends[1]
  }

  deinit {
    restore()
    close(signals)
    close(signalPipeWriteEnd)
    signalPipeWriteEnd = -1
  }

  /// Takes the terminal over.
  func start() throws {
    guard tcgetattr(input, &original) == 0 else {
      throw CLIFailure(message: "cannot read the terminal's settings: \(String(cString: strerror(errno)))", kind: .io)
    }
    let handler: @convention(c) (Int32) -> Void = { number in
      var byte = UInt8(truncatingIfNeeded: number)
      _ = write(signalPipeWriteEnd, &byte, 1)
    }
    for number in TerminalSession.handled { signal(number, handler) }
    var raw = original
    raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
    raw.c_oflag &= ~tcflag_t(OPOST)
    raw.c_cflag |= tcflag_t(CS8)
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    active = true  // from here on, restore() has something to undo
    guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else {
      throw CLIFailure(
        message: "cannot switch the terminal to raw mode: \(String(cString: strerror(errno)))", kind: .io)
    }
    try Console.write(TerminalSession.enter, to: output)
  }

  /// Gives the terminal back as it was; best effort (after SIGHUP there may be no terminal).
  func restore() {
    guard active else { return }
    active = false
    try? Console.write(TerminalSession.leave, to: output)
    _ = tcsetattr(input, TCSAFLUSH, &original)
    for number in TerminalSession.handled { signal(number, SIG_DFL) }
  }

  /// Columns and rows of the terminal (80x24 when it does not say).
  func size() -> (width: Int, height: Int) {
    var size = winsize()
    guard ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return (80, 24) }
    return (Int(size.ws_col), Int(size.ws_row))
  }

  /// The signals received since the last call, oldest first.
  func pendingSignals() -> [Int32] {
    var buffer = [UInt8](repeating: 0, count: 64)
    var numbers: [Int32] = []
    while true {
      let count = read(signals, &buffer, buffer.count)
      guard count > 0 else { break }
      numbers += buffer[0..<count].map { Int32($0) }
    }
    return numbers
  }
}
