import ArgumentParser
import ExpenseCore

/// sysexits(3) codes: the one place the CLI turns a kind of failure into an exit code.
enum SysExit {
  /// The code of a kind of failure (the codes are sysexits(3)'s; each kind documents its own).
  static func code(for kind: ErrorKind) -> Int32 {
    switch kind {
    case .usage, .invalidValue, .notFound, .conflict: return 64  // EX_USAGE
    case .badData, .damagedDatabase: return 65  // EX_DATAERR
    case .noInput, .noDatabase: return 66  // EX_NOINPUT
    case .unavailable: return 69  // EX_UNAVAILABLE
    case .internal: return 70  // EX_SOFTWARE
    case .cannotCreate: return 73  // EX_CANTCREAT
    case .io, .databaseIO: return 74  // EX_IOERR
    case .busy: return 75  // EX_TEMPFAIL
    }
  }
}

/// A failure of a command, already phrased for the user, with its kind (and so its exit code).
struct CLIFailure: Error {
  var message: String
  var kind: ErrorKind
  var code: Int32 { SysExit.code(for: kind) }

  init(message: String, kind: ErrorKind) {
    self.message = message
    self.kind = kind
  }

  /// Maps the errors of every layer to a message and their kind; `nil` for errors that
  /// ArgumentParser reports itself (help, version, usage).
  init?(_ error: any Error) {
    switch error {
    case let failure as CLIFailure:
      self = failure
    case let error as any ClassifiedError:
      self.init(message: error.description, kind: error.kind)
    default:
      return nil
    }
  }
}
