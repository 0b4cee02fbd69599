import ExpenseImport

/// sysexits code for each import failure: a missing file is "no input", an unreadable one an
/// I/O error, a flag that cannot apply a usage error, and anything wrong inside the file bad data.
enum ImportErrorCode {
  static func code(for error: ImportError) -> Int32 {
    switch error {
    case .noInput: return SysExit.noInput
    case .io: return SysExit.ioError
    case .invalidOption: return SysExit.usage
    case .undetectable, .row: return SysExit.dataError
    }
  }
}
