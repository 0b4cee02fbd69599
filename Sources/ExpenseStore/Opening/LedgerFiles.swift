import Foundation

/// Where a SQLite setup keeps its ledgers other than `default`: one file each, in a folder
/// beside the main file (`expenses.sqlite` → `expenses.ledgers/family.sqlite`).
///
/// Why a file per ledger: a household's books can be backed up, copied or removed alone;
/// SQLite locks a file, so one household's import never makes another's wait; and a ledger
/// name is a file name safely because `DirectoryName` allows no `/` and no leading dot.
public enum LedgerFiles {
  /// The folder of ledger files beside the main file at `main`.
  public static func folder(besides main: String) -> String {
    let url = URL(fileURLWithPath: main)
    let stem = url.pathExtension.isEmpty ? url.lastPathComponent : url.deletingPathExtension().lastPathComponent
    return url.deletingLastPathComponent().appendingPathComponent(stem + ".ledgers").path
  }

  /// The file of ledger `name` (a valid `DirectoryName`).
  public static func path(of name: String, besides main: String) -> String {
    folder(besides: main) + "/" + name + ".sqlite"
  }

  /// What is at `path` in words when something is (a symbolic link is not followed).
  public static func existing(_ path: String) -> String? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    switch status.st_mode & S_IFMT {
    case S_IFREG: return "a file"
    case S_IFDIR: return "a folder"
    case S_IFLNK: return "a symbolic link"
    default: return "a special file"
    }
  }
}
