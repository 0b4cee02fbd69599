import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Everything the CLI learns from the environment and the terminal, read in one place so that
/// the rest of the program (and every renderer) gets plain values and stays deterministic.
struct TerminalEnvironment {
  var environment: [String: String] = ProcessInfo.processInfo.environment

  /// Whether a file descriptor is a terminal.
  static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

  /// Columns of the terminal on `fd`, when it is one.
  static func columns(of fd: Int32) -> Int? {
    var size = winsize()
    guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }

  /// Width in force: `--width`, else `$COLUMNS`, else the terminal on stdout, else 80.
  func width(option: Int?) -> Int {
    if let option { return option }
    if let text = environment["COLUMNS"], let columns = Int(text.trimmingCharacters(in: .whitespaces)), columns > 0 {
      return columns
    }
    return TerminalEnvironment.columns(of: STDOUT_FILENO) ?? 80
  }

  /// Whether text output may use Unicode glyphs: the locale's charset, by the first of LC_ALL,
  /// LC_CTYPE, LANG that is set. With none set we assume UTF-8 (every current system's default;
  /// `--ascii` forces the ASCII set).
  var localeIsUTF8: Bool {
    for key in ["LC_ALL", "LC_CTYPE", "LANG"] {
      if let value = environment[key], !value.isEmpty {
        let lower = value.lowercased()
        return lower.contains("utf-8") || lower.contains("utf8")
      }
    }
    return true
  }

  /// Colour decision: `always`/`never` win; `auto` colours only a terminal, never with
  /// `NO_COLOR` set (any value, per no-color.org) or `TERM=dumb`.
  func useColor(_ choice: ColorChoice, fd: Int32 = STDOUT_FILENO) -> Bool {
    switch choice {
    case .always: return true
    case .never: return false
    case .auto:
      if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
      if environment["TERM"] == "dumb" { return false }
      return TerminalEnvironment.isTerminal(fd)
    }
  }
}

/// `--color auto|always|never`.
enum ColorChoice: String, CaseIterable, Sendable {
  case auto, always, never
}
