import ExpenseRender
import ExpenseService
import OpenAPIRuntime

extension APIHandler {
  func listSections(_ input: Operations.ListSections.Input) async throws -> Operations.ListSections.Output {
    let saved = try await backend.read { try $0.savedSections() }
    return .ok(.init(headers: .init(eTag: saved.tag), body: .json(Self.sectionList(saved))))
  }

  func setSection(_ input: Operations.SetSection.Input) async throws -> Operations.SetSection.Output {
    guard case .json(let body) = input.body else { throw APIProblem.badRequest("expected JSON", field: "body") }
    guard let id = SectionID(rawValue: input.path.id) else {
      throw APIProblem.notFound(
        "no section '\(input.path.id)'; sections are \(SectionID.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    guard id.collapsibility != .never else {
      throw APIProblem.unprocessable("section '\(id.rawValue)' is always shown and cannot be collapsed", field: "id")
    }
    let saved = try await updateSections(ifMatch: input.headers.ifMatch, .section(id, expanded: body.expanded))
    return .ok(.init(headers: .init(eTag: saved.tag), body: .json(Self.sectionList(saved))))
  }

  func setAccordion(_ input: Operations.SetAccordion.Input) async throws -> Operations.SetAccordion.Output {
    guard case .json(let body) = input.body else { throw APIProblem.badRequest("expected JSON", field: "body") }
    let saved = try await updateSections(ifMatch: input.headers.ifMatch, .accordion(body.enabled))
    return .ok(.init(headers: .init(eTag: saved.tag), body: .json(Self.sectionList(saved))))
  }

  /// Applies `change` if the current states' tag is `ifMatch` (or `ifMatch` is nil or `*`),
  /// in the write's own transaction; returns the new states.
  func updateSections(ifMatch: String?, _ change: SectionChange) async throws -> SavedSections {
    try await backend.write { service in
      try service.updateSections(change) { current in
        if let ifMatch, ifMatch != "*", ifMatch != current.tag {
          throw APIProblem(
            status: .preconditionFailed,
            detail: "the sections changed since \(ifMatch) (now \(current.tag)); read them again and retry")
        }
      }
    }
  }

  static func sectionList(_ saved: SavedSections) -> Components.Schemas.SectionList {
    .init(
      accordion: saved.accordion,
      sections: SectionID.allCases.map { id in
        .init(
          id: id.rawValue, title: id.title,
          collapsibleIn: .init(rawValue: id.collapsibility.rawValue) ?? .always, expanded: saved.isExpanded(id))
      })
  }
}
