import ExpenseService
import Foundation
import Testing

/// Every message and kind of `ServiceError`, pinned: the kind picks the CLI's exit code and
/// the HTTP API's status. `name(of:)` is exhaustive, so a new case must be pinned here.
@Suite struct ServiceErrorMessageTests {
  static let pinned: [(ServiceError, String, ServiceError.Kind)] = [
    (
      .protectedOutput(path: "r.csv", what: "the database", other: "db.sqlite"),
      "refusing to write r.csv: it is the database (db.sqlite); choose another path", .cannotCreate
    ),
    (.outputIsDirectory(path: "out"), "cannot write out: it is a directory", .cannotCreate),
    (
      .outputIsSpecial(path: "/dev/sda", what: "a block device"),
      "cannot write /dev/sda: it is a block device; nothing was replaced. Write to a regular file, a FIFO or a character device such as /dev/null",
      .cannotCreate
    ),
    (
      .outputExists(path: "r.csv"), "r.csv already exists; choose another path or add --force to replace it",
      .cannotCreate
    ),
    (
      .cannotCreate(path: "r.csv", reason: "Permission denied"), "cannot create r.csv: Permission denied", .cannotCreate
    ),
    (
      .cannotWrite(path: "r.csv", reason: "No space left on device"), "cannot write r.csv: No space left on device", .io
    ),
    (
      .everyRowExcluded(file: "b.csv", count: 2, reasons: ["line 2: status pending", "line 3: status pending"]),
      "b.csv: every row was excluded (2), nothing to import; line 2: status pending; line 3: status pending\n  hint: check the status or date column, or use --skip-when to choose what is excluded",
      .badData
    ),
    (
      .totalTooLarge(location: "b.csv:9", detail: "too much"),
      "b.csv:9: too much\n  hint: an amount this large is almost always a misread column or decimal mark; check the file",
      .badData
    ),
    (.widthTooSmall(12), "the width is 12 columns; the report needs at least 20 (set --width)", .usage),
  ]

  static func name(of error: ServiceError) -> String {
    switch error {
    case .protectedOutput: return "protectedOutput"
    case .outputIsDirectory: return "outputIsDirectory"
    case .outputIsSpecial: return "outputIsSpecial"
    case .outputExists: return "outputExists"
    case .cannotCreate: return "cannotCreate"
    case .cannotWrite: return "cannotWrite"
    case .everyRowExcluded: return "everyRowExcluded"
    case .totalTooLarge: return "totalTooLarge"
    case .widthTooSmall: return "widthTooSmall"
    }
  }

  @Test func everyCaseHasItsMessageAndKind() {
    for (error, message, kind) in Self.pinned {
      #expect(error.description == message)
      #expect(error.localizedDescription == message, "LocalizedError gives the same text")
      #expect(error.kind == kind, "\(Self.name(of: error))")
    }
    #expect(Set(Self.pinned.map { Self.name(of: $0.0) }).count == 9, "every case is pinned")
  }
}
