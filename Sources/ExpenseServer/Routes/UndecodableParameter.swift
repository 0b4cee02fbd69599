import Foundation
import HTTPTypes

/// Names the parameter behind a decoding error of the generated code that carries no coding
/// path (the runtime decodes each query item, path segment and header as a lone value).
///
/// The typed parameters of `openapi.yaml` are few, so they are listed here, and a test checks
/// this list against the document.
enum UndecodableParameter {
  /// Query parameters that are not strings, by type.
  static let integers: Set<String> = ["limit", "skipLines"]
  static let booleans: Set<String> = [
    "preview", "skipInvalid", "replaceInvalid", "wholeSplit", "keepProbableDuplicates", "all",
  ]

  /// The first typed query parameter whose value does not parse, else `id` when the path has
  /// a non-numeric last segment, else nil.
  static func field(in request: HTTPRequest) -> String? {
    guard let path = request.path, let components = URLComponents(string: path) else { return nil }
    for item in components.queryItems ?? [] {
      let value = item.value ?? ""
      if integers.contains(item.name) && Int(value) == nil { return item.name }
      if booleans.contains(item.name) && value != "true" && value != "false" { return item.name }
    }
    if let last = components.path.split(separator: "/").last, Int64(last) == nil,
      components.path.hasPrefix("/v1/expenses/") || components.path.hasPrefix("/v1/rules/")
        || components.path.hasPrefix("/v1/imports/")
    {
      return "id"
    }
    return nil
  }
}
