import Foundation
import HTTPTypes
import Testing

@testable import ExpenseServer

/// An upload is named in errors as the client named it, and upload files a crash left behind
/// are removed when the server starts again.
@Suite struct UploadFileTests {
  static let badRow = "Date,Description,Amount\n2026-10-01,Shop,-1.00\n2026-13-45,Shop,-2.00\n"

  @Test func importErrorsNameTheFileParameterOrTheUploadNeverTheTemporaryFile() async throws {
    let harness = try ServerHarness()
    try await harness.run { client in
      let named = try await client.call(.post, "/v1/imports?file=october.csv", csv: Self.badRow)
      #expect(named.status == 422, "\(named.text)")
      let detail = named.json["detail"]?.string ?? ""
      #expect(detail.hasPrefix("october.csv:3"), "\(detail)")
      #expect(!detail.contains(".expenses-upload-"), "\(detail)")
      #expect(!detail.contains(harness.directory.path), "\(detail)")
      let anonymous = try await client.call(.post, "/v1/imports", csv: Self.badRow)
      let text = anonymous.json["detail"]?.string ?? ""
      #expect(text.hasPrefix("the upload:3"), "\(text)")
      #expect(!text.contains(".expenses-upload-"), "\(text)")
      let empty = try await client.call(.post, "/v1/imports", csv: "")
      #expect(!empty.text.contains(".expenses-upload-"), "\(empty.text)")
    }
  }

  @Test func uploadFilesLeftByACrashAreRemovedOnTheNextStartButLiveOnesAreKept() async throws {
    let harness = try ServerHarness()
    let folder = harness.directory.path
    let abandoned = folder + "/" + ImportUploads.prefix + "Ab12Cd"
    let live = folder + "/" + ImportUploads.prefix + "Ef34Gh"
    let unrelated = folder + "/notes.csv"
    for path in [abandoned, live, unrelated] {
      #expect(FileManager.default.createFile(atPath: path, contents: Data("Date,Amount\n".utf8)))
    }
    // Another server on the same folder is importing this one: it holds its lock.
    let held = open(live, O_RDONLY)
    #expect(held >= 0 && flock(held, LOCK_EX) == 0)
    defer { close(held) }
    try await harness.run { client in
      let health = try await client.call(.get, "/health", auth: .none)
      #expect(health.status == 200)
    }
    #expect(!FileManager.default.fileExists(atPath: abandoned))
    #expect(FileManager.default.fileExists(atPath: live))
    #expect(FileManager.default.fileExists(atPath: unrelated))
    let uploads = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
      $0.hasPrefix(ImportUploads.prefix)
    }
    #expect(uploads == [ImportUploads.prefix + "Ef34Gh"], "the server's own uploads are removed after use")
  }
}
