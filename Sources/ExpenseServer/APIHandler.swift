import ExpenseCore
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

  static func month(_ text: String, field: String) throws -> Month {
    do { return try Month.parse(text) } catch {
      throw APIProblem.badRequest("'\(field)' must be a month as YYYY-MM: \(error.description)", field: field)
    }
  }

  static func date(_ text: String, field: String) throws -> CivilDate {
    do { return try CivilDate.parse(text) } catch {
      throw APIProblem.badRequest("'\(field)' must be a date as YYYY-MM-DD: \(error.description)", field: field)
    }
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
