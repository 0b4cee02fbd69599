import ArgumentParser
import ExpenseCore
import ExpenseImport
import ExpenseRender
import ExpenseService
import ExpenseStore

/// sysexits(3) codes this tool uses.
enum SysExit {
  static let usage: Int32 = 64
  static let dataError: Int32 = 65
  static let noInput: Int32 = 66
  static let unavailable: Int32 = 69
  static let software: Int32 = 70
  static let cantCreate: Int32 = 73
  static let ioError: Int32 = 74
  static let tempFail: Int32 = 75

  /// The code of a service failure's kind.
  static func code(for kind: ServiceError.Kind) -> Int32 {
    switch kind {
    case .usage: return usage
    case .badData: return dataError
    case .noInput: return noInput
    case .cannotCreate: return cantCreate
    case .io: return ioError
    }
  }
}

/// A failure of a command, already phrased for the user, with its exit code.
struct CLIFailure: Error {
  var message: String
  var code: Int32

  init(message: String, code: Int32) {
    self.message = message
    self.code = code
  }

  /// Maps the errors of every layer to a message and a sysexits code; `nil` for errors that
  /// ArgumentParser reports itself (help, version, usage).
  init?(_ error: any Error) {
    switch error {
    case let failure as CLIFailure:
      self = failure
    case let error as CoreError:
      // Values typed on the command line (a month, an amount, a currency) are usage errors.
      self.init(message: error.description, code: SysExit.usage)
    case let error as StoreError:
      switch error {
      case .newerSchema, .notADatabase, .notSQLite, .unreadable, .totalTooLarge, .corrupt:
        self.init(message: error.description, code: SysExit.dataError)
      case .cannotOpen, .diskFull, .readOnly, .io:
        self.init(message: error.description, code: SysExit.ioError)
      case .busy: self.init(message: error.description, code: SysExit.tempFail)
      case .noDatabase: self.init(message: error.description, code: SysExit.noInput)
      case .budgetNotFound, .ruleNotFound, .profileNotFound, .expenseNotFound, .importNotFound, .tokenExists,
        .tokenNotFound, .invalidCursor, .categoryInUse:
        self.init(message: error.description, code: SysExit.usage)
      case .sqlite: self.init(message: error.description, code: SysExit.software)
      }
    case let error as TotalOverflow:
      self.init(message: error.description, code: SysExit.dataError)
    case let error as ImportError:
      self.init(message: error.description, code: ImportErrorCode.code(for: error))
    case let error as RenderError:
      self.init(message: "\(error)", code: SysExit.usage)
    case let error as ServiceError:
      self.init(message: error.description, code: SysExit.code(for: error.kind))
    default:
      return nil
    }
  }
}
