import ExpenseCore
import ExpenseRender
import ExpenseStore

/// The JSON object of a transfer pair (`transfers --format json`): the two rows' ids
/// (`outId`, money out; `inId`, money in), each row as `ExpenseResource` (null when deleted),
/// and the categories they had before the match, which `transfers unpair` gives back.
public struct TransferPairResource: Encodable, Sendable {
  public var view: TransferPairView

  public init(_ view: TransferPairView) { self.view = view }

  enum CodingKeys: String, CodingKey { case outId, inId, out, into = "in", outCategoryBefore, inCategoryBefore }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(view.pair.outId, forKey: .outId)
    try c.encode(view.pair.inId, forKey: .inId)
    try c.encode(view.out.map(ExpenseResource.init), forKey: .out)
    try c.encode(view.into.map(ExpenseResource.init), forKey: .into)
    try c.encode(view.pair.outCategory, forKey: .outCategoryBefore)
    try c.encode(view.pair.inCategory, forKey: .inCategoryBefore)
  }
}
