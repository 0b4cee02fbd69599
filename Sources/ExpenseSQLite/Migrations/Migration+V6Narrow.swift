import ExpenseCore
import ExpenseStore
import GRDB

extension AppDatabase {
  /// Schema "v6-narrow": narrow expense rows, texts stored once.
  ///
  /// Why: an import's floor is SQLite writing the rows, and v5's rows were wide (the date as
  /// text, the currency, description and category as text in every row: 76 bytes a row for the
  /// benchmark's file). Measured with the same rows inserted by SQLite alone, narrow rows and
  /// 16 KiB pages take about 0.6 of the time and 0.6 of the space (see docs/storage.md). So:
  ///
  /// - `expenseRow` holds the rows, keyed by `ExpenseKey` as before, with small integers where
  ///   v5 had texts: `currencyId`, `descriptionId`, `categoryId` point into the dictionaries
  ///   `currencyCode`, `descriptionText` and `categoryName` (one row per distinct value, kept
  ///   byte for byte: a value is never normalised, a BLOB stays a BLOB);
  /// - `date` is NULL when it is the key's day (every row this program writes), so it costs no
  ///   byte; any other stored value (a date an older version or a hand edit left) is kept as
  ///   it was;
  /// - the view `expense` shows the v5 columns, in v5's order, with v5's values; every read
  ///   reads it, and `INSTEAD OF` triggers turn an INSERT, UPDATE or DELETE on it into the
  ///   same change of `expenseRow` and the dictionaries. Only the import's hot path and
  ///   deletes by key write `expenseRow` directly.
  ///
  /// Dictionary entries are never deleted (an edit or delete may leave one unused): they are
  /// few, and keeping them makes a write never depend on the rest of the table.
  static func migrateToV6Narrow(_ db: Database) throws {
    try db.execute(sql: dictionariesSQL + expenseRowSQL)
    // Most frequent first: the commonest currency gets id 1, which SQLite stores in no byte.
    try db.execute(
      sql: """
        INSERT OR IGNORE INTO currencyCode (code)
          SELECT currency FROM expense GROUP BY currency ORDER BY COUNT(*) DESC, MIN(key);
        INSERT OR IGNORE INTO descriptionText (text)
          SELECT description FROM expense GROUP BY description ORDER BY COUNT(*) DESC, MIN(key);
        INSERT OR IGNORE INTO categoryName (name)
          SELECT category FROM expense WHERE category IS NOT NULL GROUP BY category ORDER BY COUNT(*) DESC, MIN(key);
        INSERT INTO expenseRow
          (key, id, date, amountMinor, currencyId, descriptionId, categoryId, account, fileId, sourceLine,
           categorySource)
        SELECT e.key, e.id, CASE WHEN e.date IS \(keyDateSQL("e.key")) THEN NULL ELSE e.date END, e.amountMinor,
               c.id, d.id, g.id, e.account, e.fileId, e.sourceLine, e.categorySource
        FROM expense e
        LEFT JOIN currencyCode c ON c.code = e.currency
        LEFT JOIN descriptionText d ON d.text = e.description
        LEFT JOIN categoryName g ON g.name = e.category
        ORDER BY e.key;
        """)
    // A LEFT JOIN and NOT NULL ids: a value that found no dictionary row fails the migration
    // (rolled back, the v5 file untouched) instead of dropping a row. Counted to be sure.
    let before = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM expense") ?? 0
    let after = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM expenseRow") ?? 0
    guard before == after else {
      throw UnreadableValue(detail: "migration to v6 copied \(after) of \(before) expenses")
    }
    try db.execute(sql: "DROP TABLE expense")  // and its revision trigger, now the view's
    try db.execute(sql: expenseViewSQL)
  }

  /// The date of a key, `YYYY-MM-DD`, in SQL: the key's day (`ExpenseKey`: days since 1970
  /// plus 2^19, in the bits above 43) as a Julian day number. Exact for every four-digit year;
  /// NULL or another text otherwise, which is why the migration and the triggers store any
  /// date that differs from it as it is.
  static func keyDateSQL(_ key: String) -> String {
    "date((\(key) >> 43) - \(ExpenseKey.dayBias) + 2440587.5)"
  }

  /// The dictionaries. Texts are TEXT columns, as they were in `expense`, so a value converts
  /// (or not) exactly as it did there; UNIQUE makes each one a lookup by value for writers.
  static let dictionariesSQL = """
    CREATE TABLE currencyCode (id INTEGER PRIMARY KEY, code TEXT NOT NULL UNIQUE);
    CREATE TABLE descriptionText (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE);
    CREATE TABLE categoryName (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);

    """

  /// The rows (see `migrateToV6Narrow`). `date` is TEXT as in v5 (NULL: the key's day).
  static let expenseRowSQL = """
    CREATE TABLE expenseRow (
      key INTEGER PRIMARY KEY,
      id INTEGER NOT NULL,
      date TEXT,
      amountMinor INTEGER NOT NULL,
      currencyId INTEGER NOT NULL,
      descriptionId INTEGER NOT NULL,
      categoryId INTEGER,
      account TEXT,
      fileId INTEGER,
      sourceLine INTEGER,
      categorySource INTEGER NOT NULL DEFAULT 0
    );

    """

  /// The `expense` view and the triggers that write through it. The UPDATE trigger raises the
  /// API's revision when a column it served before changes (v5 had the same trigger on the
  /// table). Since v11 the view reads an inline description too (`migrateInlineTexts`); a v6
  /// migration makes it the same way (the column was `d.text` then: the same value for every
  /// row that schema can hold).
  static var expenseViewSQL: String {
    let keyDate = keyDateSQL("NEW.key")
    let storedDate = "CASE WHEN NEW.date IS \(keyDate) THEN NULL ELSE NEW.date END"
    let addTexts = """
        INSERT OR IGNORE INTO currencyCode (code) VALUES (NEW.currency);
        INSERT OR IGNORE INTO descriptionText (text) VALUES (NEW.description);
        INSERT OR IGNORE INTO categoryName (name) VALUES (NEW.category);
      """
    // An update that keeps the description keeps how it is stored (inline or by id).
    let changedTexts = """
        INSERT OR IGNORE INTO currencyCode (code) VALUES (NEW.currency);
        INSERT OR IGNORE INTO descriptionText (text) SELECT NEW.description WHERE NEW.description IS NOT OLD.description;
        INSERT OR IGNORE INTO categoryName (name) VALUES (NEW.category);
      """
    let currencyId = "(SELECT id FROM currencyCode WHERE code = NEW.currency)"
    let descriptionId = "(SELECT id FROM descriptionText WHERE text = NEW.description)"
    let categoryId = "(SELECT id FROM categoryName WHERE name = NEW.category)"
    return """
      CREATE VIEW expense AS
        SELECT e.key AS key, e.id AS id, COALESCE(e.date, \(keyDateSQL("e.key"))) AS date,
               e.amountMinor AS amountMinor, c.code AS currency, \(descriptionSQL(row: "e", text: "d.text")) AS description,
               g.name AS category,
               e.account AS account, e.fileId AS fileId, e.sourceLine AS sourceLine,
               e.categorySource AS categorySource
        FROM expenseRow e
        LEFT JOIN currencyCode c ON c.id = e.currencyId
        LEFT JOIN descriptionText d ON d.id = e.descriptionId
        LEFT JOIN categoryName g ON g.id = e.categoryId;

      CREATE TRIGGER expense_insert INSTEAD OF INSERT ON expense BEGIN
      \(addTexts)
        INSERT INTO expenseRow
          (key, id, date, amountMinor, currencyId, descriptionId, categoryId, account, fileId, sourceLine,
           categorySource)
        VALUES (NEW.key, NEW.id, \(storedDate), NEW.amountMinor, \(currencyId), \(descriptionId), \(categoryId),
                NEW.account, NEW.fileId, NEW.sourceLine, COALESCE(NEW.categorySource, 0));
      END;

      CREATE TRIGGER expense_update INSTEAD OF UPDATE ON expense BEGIN
      \(changedTexts)
        UPDATE expenseRow SET
          key = NEW.key, id = NEW.id, date = \(storedDate), amountMinor = NEW.amountMinor,
          currencyId = \(currencyId),
          descriptionId = CASE WHEN NEW.description IS OLD.description THEN descriptionId ELSE \(descriptionId) END,
          categoryId = \(categoryId),
          account = NEW.account, fileId = NEW.fileId, sourceLine = NEW.sourceLine,
          categorySource = NEW.categorySource
        WHERE key = OLD.key;
        UPDATE revision SET value = value + 1 WHERE id = 1 AND (
          NEW.date IS NOT OLD.date OR NEW.amountMinor IS NOT OLD.amountMinor OR NEW.currency IS NOT OLD.currency
          OR NEW.description IS NOT OLD.description OR NEW.category IS NOT OLD.category
          OR NEW.account IS NOT OLD.account);
      END;

      CREATE TRIGGER expense_delete INSTEAD OF DELETE ON expense BEGIN
        DELETE FROM expenseRow WHERE key = OLD.key;
      END;
      """
  }
}
