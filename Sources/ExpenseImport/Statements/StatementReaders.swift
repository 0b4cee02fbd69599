import ExpenseCore

/// The reader of each statement format: where a new format is added.
enum StatementReaders {
  static func make(_ format: StatementFormat, file: String, options: ImportOptions, currency: Currency)
    -> (any StatementReader)?
  {
    switch format {
    case .csv: return nil
    case .ofx: return OFXReader(file: file, options: options, defaultCurrency: currency)
    case .qif: return QIFReader(file: file, options: options, defaultCurrency: currency)
    case .camt053: return CAMT053Reader(file: file, options: options, defaultCurrency: currency)
    case .mt940: return MT940Reader(file: file, options: options, defaultCurrency: currency)
    }
  }
}
