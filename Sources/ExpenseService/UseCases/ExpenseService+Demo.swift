import ExpenseCore
import ExpenseStore
import Foundation

extension ExpenseService {
  /// Fills the store with the demo: its sample bank statement imported as any file would be
  /// (through `scratchFolder`, a private folder the caller removes), its budgets and kinds.
  /// Returns the day of the demo's latest expense, the demo's "today".
  public func loadDemo(scratchFolder: String) throws -> CivilDate? {
    let csvPath = (scratchFolder as NSString).appendingPathComponent("demo-bank.csv")
    try (DemoData.bankCSV + "\n").write(toFile: csvPath, atomically: false, encoding: .utf8)
    _ = try importFile(ImportRequest(path: csvPath))
    for line in DemoData.budgetsCSV.split(separator: "\n").dropFirst() {
      let fields = line.split(separator: ",").map(String.init)
      guard fields.count == 2 else { continue }
      _ = try saveBudget(Budget(category: fields[0], amount: try Money.parse(fields[1], currency: .usd)))
    }
    for name in DemoData.incomeCategories { try store.setCategoryKind(name, kind: .income) }
    return try store.expenses(month: nil, category: nil, limit: 1).first?.date
  }
}
