import ExpenseStore
import GRDB

extension AppDatabase {
  /// Schema "v9-transfer-pairs": the pairs an import matched as one move between the user's
  /// own accounts.
  ///
  /// A pair is the money out of one account (`outId`) and into another (`inId`); both rows
  /// are in `Transfers` while paired, and the categories they had before are kept here, so
  /// `transfers unpair` gives them back exactly. A row is in at most one pair (`UNIQUE`).
  static func migrateTransferPairs(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE transferPair (
          outId INTEGER NOT NULL UNIQUE,
          inId INTEGER NOT NULL UNIQUE,
          outCategory TEXT,
          outSource INTEGER NOT NULL,
          inCategory TEXT,
          inSource INTEGER NOT NULL,
          CHECK (outId <> inId))
        """)
  }
}
