import ArgumentParser
import ExpenseRender

/// An id as a listing shows it, `#3` or `3`: a budget move's, a goal's.
enum RecordID {
  /// The id in `text`, or a usage error naming what it is not and the command that lists them.
  static func parse(_ text: String, what: String, listedBy command: String) throws -> Int64 {
    let digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
    guard let id = Int64(digits), id > 0 else {
      throw ValidationError("'\(TerminalText.sanitize(text))' is not a \(what) id; '\(command)' lists them")
    }
    return id
  }
}
