import ExpenseStore

/// A PostgreSQL database can have streaming replicas, and a copy may create its ledger.
extension PostgresStore: ReplicatedStore, CreatedLedgerStore {}
