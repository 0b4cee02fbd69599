import ExpenseImport
import ExpenseStore
import Foundation

/// The import flags a front end was given (`expenses import`'s options, the HTTP API's query),
/// already checked, and how they lay over a saved profile's options.
///
/// `expenses import` and `POST /v1/imports` both build one, so flags mean the same in both.
public struct ImportFlags: Sendable, Equatable {
  public var columns: [ColumnRole]?
  public var namedColumns: [String: ColumnRole] = [:]
  public var delimiter: String?
  public var encoding: TextEncoding?
  public var dateFormat: String?
  public var decimalMark: String?
  public var spending: SpendingSign?
  public var currency: String?
  public var account: String?
  public var skipLines: Int?
  public var skipWhen: [String] = []
  /// `--replace-invalid`: keep rows with invalid bytes, with U+FFFD for them.
  public var replaceInvalid: Bool?
  /// A saved profile to start from.
  public var profile: String?

  public init() {}

  /// The profile's options (or the defaults) with these flags laid over them.
  public func options(store: any LedgerStore) throws -> ImportOptions {
    var options = ImportOptions()
    if let profile {
      let json = try store.profile(named: profile)
      options = try JSONDecoder().decode(ImportOptions.self, from: Data(json.utf8))
    }
    if let columns { options.columns = columns }
    for (name, role) in namedColumns { options.namedColumns[name] = role }
    if let delimiter { options.delimiter = delimiter }
    if let encoding { options.encoding = encoding }
    if let dateFormat { options.dateFormat = dateFormat }
    if let decimalMark { options.decimalMark = decimalMark }
    if let spending { options.spending = spending }
    if let currency { options.currency = currency.uppercased() }
    if let account { options.account = account }
    if let skipLines { options.skipLines = skipLines }
    if !skipWhen.isEmpty { options.skipWhen = skipWhen }
    if let replaceInvalid { options.replaceInvalid = replaceInvalid }
    return options
  }
}

extension ImportOptions {
  /// The options as a saved profile holds them (JSON, keys sorted).
  func profileJSON() throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(self), as: UTF8.self)
  }
}
