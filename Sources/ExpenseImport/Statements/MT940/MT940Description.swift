/// The description of an entry from its `:86:` field.
///
/// German and Danish banks write it structured: a three-digit transaction code, a separator
/// (usually `?`), then numbered subfields: `00` the booking text, `10` the primanota, `20`–`29`
/// and `60`–`63` the purpose, `30` bank code, `31` account, `32`/`33` the counterparty's name.
/// The subfields run on across line breaks (a line is 65 characters), so the lines are joined
/// without spaces before they are split. A purpose in SEPA form (`EREF+…`, `MREF+…`,
/// `SVWZ+…`) is reduced to its free text (`SVWZ`), the references and identifiers left out.
/// Dutch banks write it with keywords (`/TRTP/SEPA OVERBOEKING/IBAN/…/BIC/…/NAME/J. Jansen/
/// REMI/Invoice 123/EREF/…`, or `/CNTP/account/BIC/name/city/`): read by `MT940Keywords`.
/// Any other `:86:` is free text, its lines joined with spaces.
enum MT940Description {
  /// What a person reads: the counterparty's name, then the purpose, joined with " / ".
  static func text(of field: MT940Field) -> String {
    if let keywords = MT940Keywords(field.text(separator: "")), let text = keywords.description { return text }
    return legacyText(of: field)
  }

  /// The description the reader made before it read the keyword style (which it took for free
  /// text): kept as the identity of those entries (`StatementEntry.identityDescription`), so a
  /// file imported then is recognised. Do not change it: rows stored long ago depend on it.
  static func legacyText(of field: MT940Field) -> String {
    let joined = field.text(separator: "")
    if let subfields = structured(joined) {
      let name = ((subfields["32"] ?? "") + (subfields["33"] ?? "")).trimmingASCIIWhitespace()
      let purposeCodes = (20...29).map(String.init) + (60...63).map(String.init)
      let purpose = sepaText(purposeCodes.compactMap { subfields[$0] }.joined())
      let parts = [name, purpose].filter { !$0.isEmpty }
      if !parts.isEmpty { return parts.joined(separator: " / ") }
      return (subfields["00"] ?? "").trimmingASCIIWhitespace()
    }
    return field.lines.map { $0.trimmingASCIIWhitespace() }.filter { !$0.isEmpty }.joined(separator: " ")
  }

  /// The subfields of a structured `:86:` (`NNN?00…?20…`), by their two-digit code, or nil
  /// when the text is not in that form.
  static func structured(_ text: String) -> [String: String]? {
    let characters = Array(text)
    guard characters.count >= 6, characters[0...2].allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    let separator = characters[3]
    guard !(separator.isLetter || separator.isNumber || separator == " "), characters[4].isNumber,
      characters[5].isNumber
    else { return nil }
    var subfields: [String: String] = [:]
    for piece in String(characters[4...]).split(separator: separator, omittingEmptySubsequences: true) {
      guard piece.count >= 2 else { continue }
      let code = String(piece.prefix(2))
      guard code.allSatisfy({ $0.isASCII && $0.isNumber }) else { continue }
      subfields[code, default: ""] += String(piece.dropFirst(2))
    }
    return subfields
  }

  static let sepaKeys = ["EREF", "KREF", "MREF", "CRED", "DEBT", "COAM", "OAMT", "SVWZ", "ABWA", "ABWE", "IBAN", "BIC"]

  /// A SEPA purpose's free text: what follows `SVWZ+`; without it, the text with every
  /// `KEY+value` part left out; text before the first key is kept.
  static func sepaText(_ purpose: String) -> String {
    var parts: [(key: String?, value: String)] = [(nil, "")]
    var rest = Substring(purpose)
    while !rest.isEmpty {
      if let key = sepaKeys.first(where: { rest.hasPrefix($0 + "+") }) {
        parts.append((key, ""))
        rest = rest.dropFirst(key.count + 1)
        continue
      }
      parts[parts.count - 1].value.append(rest.removeFirst())
    }
    if let text = parts.first(where: { $0.key == "SVWZ" }) { return text.value.trimmingASCIIWhitespace() }
    return parts.filter { $0.key == nil }.map { $0.value.trimmingASCIIWhitespace() }.filter { !$0.isEmpty }
      .joined(separator: " ")
  }
}
