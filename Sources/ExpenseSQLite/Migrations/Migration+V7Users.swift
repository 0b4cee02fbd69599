import ExpenseStore
import GRDB

extension AppDatabase {
  /// Schema "v7-users": ledgers, users and who may do what where.
  ///
  /// - `ledger`: the ledgers this file knows. `default` is this file's own data; every other
  ///   ledger is a file of its own beside it (`LedgerFiles`), registered here so that one
  ///   file, this one, answers who may reach it.
  /// - `appUser`: the users; `local` (the person at the terminal) exists from the start.
  /// - `membership`: a user's role in a ledger (`owner`, `write`, `read`); `local` owns
  ///   `default`, so a one-file setup is one ledger with one user, as before.
  /// - `apiToken.userName`, `apiToken.ledgerName`: whom a token acts for and on which ledger;
  ///   tokens made before act for `local` on `default`, exactly what they did.
  ///
  /// Why the directory lives in the main file: the server reads every token from one place
  /// (one change stamp to check per request), and a household's ledger file can be copied,
  /// backed up or deleted alone without carrying anyone's access with it.
  static func migrateUsers(_ db: Database) throws {
    let now = "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"
    try db.execute(
      sql: """
        CREATE TABLE ledger (name TEXT PRIMARY KEY NOT NULL, createdAt TEXT NOT NULL);
        INSERT INTO ledger (name, createdAt) VALUES ('\(DirectoryName.defaultLedger)', \(now));
        CREATE TABLE appUser (name TEXT PRIMARY KEY NOT NULL, createdAt TEXT NOT NULL);
        INSERT INTO appUser (name, createdAt) VALUES ('\(DirectoryName.localUser)', \(now));
        CREATE TABLE membership (
          userName TEXT NOT NULL REFERENCES appUser (name),
          ledgerName TEXT NOT NULL REFERENCES ledger (name),
          role TEXT NOT NULL CHECK (role IN ('read', 'write', 'owner')),
          since TEXT NOT NULL,
          PRIMARY KEY (userName, ledgerName));
        INSERT INTO membership (userName, ledgerName, role, since)
          VALUES ('\(DirectoryName.localUser)', '\(DirectoryName.defaultLedger)', 'owner', \(now));
        ALTER TABLE apiToken ADD COLUMN userName TEXT NOT NULL DEFAULT '\(DirectoryName.localUser)';
        ALTER TABLE apiToken ADD COLUMN ledgerName TEXT NOT NULL DEFAULT '\(DirectoryName.defaultLedger)';
        """)
  }
}
