extension PostgresSchema {
  /// Schema "v9-search-texts": the distinct texts a search tests in Swift, kept per ledger in
  /// `expense_text`, so a search reads them from a small table instead of scanning the ledger.
  ///
  /// Why: a search's test is Swift's (case, accents and width ignored, `ExpenseFilter`), which
  /// SQL can say only for an ASCII text (`ILIKE` under the "C" collation). Every other text (a
  /// description that is not ASCII, every account) was read as a distinct value by a scan of
  /// the whole ledger before each search: 0.25–0.37 s of a search's 0.7–1.3 s on a million
  /// bank-shaped rows (64k such texts). Read from this table it takes about 5 ms.
  ///
  /// Invariant: every stored expense's description that is not ASCII, and its account, is a
  /// `text` of its ledger here. Statement-level triggers over the same transition tables the
  /// rollup reads keep it, so no write path (an import, a row by hand, an edit, an undo, a
  /// copied ledger) can forget a text. A text is never removed when its rows go: the table
  /// may hold texts no row has, which a search tests and then finds no row for (a search's
  /// condition may keep more than its test, never fewer). Each text is kept once, by its
  /// SHA-256 digest (the key: a text may be longer than a B-tree entry can be), so the
  /// triggers' "not kept yet" is the primary key's `ON CONFLICT DO NOTHING`, which does not
  /// depend on a plan. (A "not exists" probe was planned while the table was empty and then
  /// scanned it for every text: 2.3 s more for a million-row import.) Its ledger is not a
  /// foreign key: each text comes from rows whose ledger `expense_checks_insert` has just
  /// checked, and a foreign key would check it again for every text.
  ///
  /// Cost (docs/performance.md): a million-row import pays about 0.8 s in the server for its
  /// 64k such texts (finding them among the new rows, then the key's index); an update pays
  /// for its rows' texts again (each then found kept). Transition tables cannot be limited to
  /// an update of some columns.
  static let v9SearchTexts: [String] =
    [
      """
      CREATE TABLE expense_text (
        ledger_id bigint NOT NULL,
        digest bytea NOT NULL,
        text text NOT NULL,
        PRIMARY KEY (ledger_id, digest))
      """,
      """
      INSERT INTO expense_text (ledger_id, digest, text) \(newTexts(of: "expense"))
      ON CONFLICT (ledger_id, digest) DO NOTHING
      """,
      """
      CREATE FUNCTION expense_texts_follow() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO expense_text (ledger_id, digest, text) \(newTexts(of: "new_rows"))
        ON CONFLICT (ledger_id, digest) DO NOTHING;
        RETURN NULL;
      END
      $$
      """,
      """
      CREATE TRIGGER expense_texts_insert AFTER INSERT ON expense REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION expense_texts_follow()
      """,
      """
      CREATE TRIGGER expense_texts_update AFTER UPDATE ON expense REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION expense_texts_follow()
      """,
    ] + rowLevelSecurity(on: searchTextTables, policy: ledgerPolicyOnce)

  /// The distinct texts of the rows of `table` that `expense_text` keeps, with their digests:
  /// descriptions that are not ASCII (more characters than bytes) and accounts; a text that is
  /// both comes twice, which the insert's `ON CONFLICT` takes once. Two plain selects, not one
  /// over both columns at once: measured on a million rows, 0.33 s against 0.73 s.
  static func newTexts(of table: String) -> String {
    """
    SELECT d.ledger_id, sha256(convert_to(d.text, 'UTF8')), d.text FROM (
      SELECT DISTINCT n.ledger_id, n.description AS text FROM \(table) n
      WHERE octet_length(n.description) <> length(n.description)
      UNION ALL
      SELECT DISTINCT n.ledger_id, n.account FROM \(table) n WHERE n.account IS NOT NULL) d
    """
  }

  /// The ledger tables "v9-search-texts" added.
  static let searchTextTables = ["expense_text"]
}
