/// An `:86:` in the keyword style of Dutch banks: `/KEY/value` pairs, such as
/// `/TRTP/SEPA OVERBOEKING/IBAN/NL20INGB0001234567/BIC/INGBNL2A/NAME/J. Jansen/REMI/Invoice 123/EREF/…`
/// (ING), or `/CNTP/account/BIC/name/city/` with `/REMI/USTD//free text/` (Rabobank, ABN AMRO).
///
/// Why keywords and not a split at every `/`: a value may hold slashes ("USTD//Invoice 123",
/// a date "02/11"), so only a known keyword between slashes starts a new part. The lines of the
/// field are joined without a space: the bank cuts them at a fixed width, mid-word.
struct MT940Keywords {
  /// The keywords that start a part; anything else between slashes belongs to a value.
  static let keys: Set<String> = [
    "TRTP", "IBAN", "BIC", "NAME", "CITY", "ADDR", "REMI", "EREF", "MARF", "CSID", "CNTP", "ORDP", "BENM",
    "ULTC", "ULTD", "ULTB", "PURP", "RTRN", "PREF", "ISDT", "SVCL", "FX", "CDTRREF", "CDTRREFTP",
  ]

  /// The parts by keyword, in the order they came (a keyword again adds to its first value).
  private(set) var values: [String: String] = [:]

  /// Nil when `text` is not in the keyword style: it must start with `/KEY/`.
  init?(_ text: String) {
    let trimmed = text.trimmingASCIIWhitespace()
    guard trimmed.hasPrefix("/") else { return nil }
    var current: String?
    var value = ""
    var rest = Substring(trimmed)
    func store() {
      guard let key = current else { return }
      if values[key] == nil { values[key] = value }
    }
    while !rest.isEmpty {
      if rest.first == "/", let key = MT940Keywords.key(at: rest) {
        store()
        current = key
        value = ""
        rest = rest.dropFirst(key.count + 2)
        continue
      }
      guard current != nil else { return nil }
      value.append(rest.removeFirst())
    }
    store()
    guard values["NAME"] != nil || values["CNTP"] != nil || values["REMI"] != nil else { return nil }
  }

  /// The keyword of `/KEY/` at the start of `text`, if it is one.
  static func key(at text: Substring) -> String? {
    let body = text.dropFirst()
    guard let slash = body.firstIndex(of: "/") else { return nil }
    let key = String(body[..<slash])
    return keys.contains(key) ? key : nil
  }

  /// The counterparty's name: `/NAME/`, else the third part of `/CNTP/` (account/BIC/name/city).
  var name: String {
    if let name = values["NAME"].map(MT940Keywords.clean), !name.isEmpty { return name }
    guard let counterparty = values["CNTP"] else { return "" }
    let parts = counterparty.split(separator: "/", omittingEmptySubsequences: false)
    return parts.count > 2 ? MT940Keywords.clean(String(parts[2])) : ""
  }

  /// The purpose: `/REMI/`, without its `USTD//` (unstructured) or `STRD/CUR/` (structured
  /// reference) marker.
  var purpose: String {
    guard var remittance = values["REMI"] else { return "" }
    for marker in ["USTD//", "USTD/", "STRD/CUR/", "STRD/ISO/"] where remittance.hasPrefix(marker) {
      remittance = String(remittance.dropFirst(marker.count))
      break
    }
    return MT940Keywords.clean(remittance)
  }

  /// Name and purpose joined with " / ", or nil when the field has neither.
  var description: String? {
    let parts = [name, purpose].filter { !$0.isEmpty }
    return parts.isEmpty ? nil : parts.joined(separator: " / ")
  }

  /// A value without the slashes and blanks around it.
  static func clean(_ value: String) -> String {
    var text = Substring(value)
    while let first = text.first, first == "/" || first == " " { text = text.dropFirst() }
    while let last = text.last, last == "/" || last == " " { text = text.dropLast() }
    return String(text)
  }
}
