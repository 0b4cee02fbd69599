import Foundation

/// The OpenAPI document (`Sources/ExpenseServer/openapi.yaml`) as the oracle of every test
/// response: its YAML is read once, through Python's PyYAML (installed by .ci/run), and each
/// JSON body is checked against the schema the document gives for its path, method, status
/// and content type. A missing document, python3 or PyYAML fails the tests; nothing is skipped.
enum OpenAPIContract {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static let document: Result<JSONValue, ContractError> = {
    let path = root.appendingPathComponent("Sources/ExpenseServer/openapi.yaml").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", "-c", "import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)", path,
    ]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    do { try process.run() } catch { return .failure(ContractError("cannot run python3: \(error)")) }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      return .failure(ContractError("reading openapi.yaml with python3 + PyYAML failed: \(message)"))
    }
    do { return .success(try JSONDecoder().decode(JSONValue.self, from: data)) } catch {
      return .failure(ContractError("openapi.yaml did not convert to JSON: \(error)"))
    }
  }()

  struct ContractError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// Checks a response against the document; returns the problems found (empty: valid).
  static func check(path template: String, method: String, status: Int, contentType: String?, body: Data) throws
    -> [String]
  {
    let document = try document.get()
    guard let operation = document["paths"]?[template]?[method.lowercased()] else {
      return ["\(method) \(template) is not in the document"]
    }
    guard var response = operation["responses"]?[String(status)] else {
      return ["\(method) \(template) does not document status \(status)"]
    }
    if let ref = response["$ref"]?.string { response = try resolve(ref, in: document) }
    guard let content = response["content"]?.object else {
      return body.isEmpty ? [] : ["\(method) \(template) \(status) has no documented body but got \(body.count) bytes"]
    }
    let type = (contentType ?? "").split(separator: ";").first.map { String($0).trimmingCharacters(in: .whitespaces) }
    guard let type, let media = content[type] else {
      return ["\(method) \(template) \(status): content type \(contentType ?? "none") is not documented"]
    }
    guard let schema = media["schema"], type.hasSuffix("json") else { return [] }
    let value: JSONValue
    do { value = try JSONDecoder().decode(JSONValue.self, from: body) } catch {
      return ["\(method) \(template) \(status): the body is not JSON"]
    }
    var problems: [String] = []
    try validate(value, against: schema, at: "$", document: document, problems: &problems)
    return problems.map { "\(method) \(template) \(status): \($0)" }
  }

  static func resolve(_ ref: String, in document: JSONValue) throws -> JSONValue {
    var node = document
    for part in ref.dropFirst(2).split(separator: "/") {
      guard let next = node[String(part)] else { throw ContractError("unresolved \(ref)") }
      node = next
    }
    return node
  }

  /// The subset of JSON Schema the document uses: $ref, type (or a list of types), enum,
  /// pattern, minimum, maximum, required, properties, additionalProperties: false, items.
  static func validate(
    _ value: JSONValue, against schema: JSONValue, at path: String, document: JSONValue, problems: inout [String]
  ) throws {
    if let ref = schema["$ref"]?.string {
      return try validate(
        value, against: try resolve(ref, in: document), at: path, document: document, problems: &problems)
    }
    if let type = schema["type"] {
      let allowed = type.array?.compactMap(\.string) ?? [type.string ?? ""]
      guard allowed.contains(where: { matches(value, type: $0) }) else {
        problems.append("\(path): \(value) is not of type \(allowed.joined(separator: "|"))")
        return
      }
    }
    if let options = schema["enum"]?.array, !options.contains(value) {
      problems.append("\(path): \(value) is not one of \(options)")
    }
    if case .string(let text) = value, let pattern = schema["pattern"]?.string,
      text.range(of: pattern, options: .regularExpression) == nil
    {
      problems.append("\(path): '\(text)' does not match \(pattern)")
    }
    if case .integer(let number) = value {
      if let minimum = schema["minimum"]?.integer, number < minimum {
        problems.append("\(path): \(number) < \(minimum)")
      }
      if let maximum = schema["maximum"]?.integer, number > maximum {
        problems.append("\(path): \(number) > \(maximum)")
      }
    }
    if case .object(let object) = value {
      for key in schema["required"]?.array?.compactMap(\.string) ?? [] where object[key] == nil {
        problems.append("\(path): required '\(key)' is missing")
      }
      let properties = schema["properties"]?.object ?? [:]
      for (key, child) in object {
        if let property = properties[key] {
          try validate(child, against: property, at: "\(path).\(key)", document: document, problems: &problems)
        } else if schema["additionalProperties"] == .bool(false) {
          problems.append("\(path): '\(key)' is not in the schema")
        }
      }
    }
    if case .array(let items) = value, let itemSchema = schema["items"] {
      for (index, item) in items.enumerated() {
        try validate(item, against: itemSchema, at: "\(path)[\(index)]", document: document, problems: &problems)
      }
    }
  }

  static func matches(_ value: JSONValue, type: String) -> Bool {
    switch (type, value) {
    case ("null", .null), ("boolean", .bool), ("integer", .integer), ("number", .integer), ("number", .number),
      ("string", .string), ("array", .array), ("object", .object):
      return true
    default:
      return false
    }
  }
}
