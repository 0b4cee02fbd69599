import ExpenseCore

/// The reader of each statement format: where a new format is added.
enum StatementReaders {
  static func make(_ format: StatementFormat, file: String, options: ImportOptions, currency: Currency)
    -> (any StatementReader)?
  {
    switch format {
    case .csv, .ofx, .qif, .camt053, .mt940: return nil
    }
  }
}
