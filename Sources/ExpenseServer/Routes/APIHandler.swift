import ExpenseCore
import ExpenseService
import ExpenseStore
import Foundation
import OpenAPIRuntime

/// Implements the generated `APIProtocol` (one extension per resource): each handler validates
/// its input, calls the backend and maps the result to the generated types, so the OpenAPI
/// document and the code cannot drift apart. Errors are thrown as `APIProblem` and answered as
/// problem details by `ProblemMiddleware`.
struct APIHandler: APIProtocol {
  let backend: any ExpenseBackend
  let clock: ServerClock
  let imports: ImportUploads
}

extension APIHandler {
  /// A path or query id that must be positive.
  static func checkID(_ id: Int64, field: String = "id") throws -> Int64 {
    guard id > 0 else { throw APIProblem.badRequest("'\(field)' must be a positive integer", field: field) }
    return id
  }

  /// The years the API accepts in a month or date: what `openapi.yaml`'s patterns say, so a
  /// request the document calls valid is never refused for its date, and one it calls invalid
  /// is a 400 naming the field (never a 500 further in).
  static let supportedYears = 1900...2999

  static func month(_ text: String, field: String) throws -> Month {
    let month: Month
    do { month = try Month.parse(text) } catch {
      throw APIProblem.badRequest("'\(field)' must be a month as YYYY-MM: \(error.description)", field: field)
    }
    guard supportedYears.contains(month.year), text.utf8.count == 7 else {
      throw APIProblem.badRequest(
        "'\(field)' must be a month as YYYY-MM from 1900-01 to 2999-12 (got '\(text)')", field: field)
    }
    return month
  }

  static func date(_ text: String, field: String) throws -> CivilDate {
    let date: CivilDate
    do { date = try CivilDate.parse(text) } catch {
      throw APIProblem.badRequest("'\(field)' must be a date as YYYY-MM-DD: \(error.description)", field: field)
    }
    guard supportedYears.contains(date.year), text.utf8.count == 10 else {
      throw APIProblem.badRequest(
        "'\(field)' must be a date as YYYY-MM-DD from 1900-01-01 to 2999-12-31 (got '\(text)')", field: field)
    }
    return date
  }

  static func currency(_ text: String, field: String) throws -> Currency {
    guard let currency = Currency(code: text.uppercased()) else {
      throw APIProblem.unprocessable("'\(text)' is not a currency this version knows (ISO 4217 code)", field: field)
    }
    return currency
  }

  static func name(_ text: String, field: String) throws -> String {
    let tidy = CategoryName.tidy(text)
    guard !tidy.isEmpty else { throw APIProblem.badRequest("'\(field)' must not be empty", field: field) }
    return tidy
  }
}
