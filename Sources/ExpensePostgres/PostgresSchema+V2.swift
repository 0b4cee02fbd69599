extension PostgresSchema {
  /// v2: `expense`'s references checked once per statement instead of once per row.
  ///
  /// v1's two foreign keys on `expense` (to `ledger`, and to `import_file` by `(ledger_id,
  /// file_id)`) cost a server-side check per row: most of a million-row import's time
  /// (docs/performance.md, "Import into PostgreSQL"). They become statement-level triggers over
  /// the same transition table the rollup reads: every statement that inserts or updates
  /// expenses checks the distinct ledgers and files it names, set-wise, and locks them (`FOR KEY
  /// SHARE`, as a foreign key does) against a concurrent delete; a ledger or file still named by
  /// an expense cannot be deleted or renumbered. The same SQLSTATE (23503) as a foreign key.
  /// The triggers' names sort before the rollup's (`expense_insert`, `expense_update`), so the
  /// check runs first, as a foreign key's would.
  static let v2: [String] = [
    "ALTER TABLE expense DROP CONSTRAINT expense_ledger_id_file_id_fkey, DROP CONSTRAINT expense_ledger_id_fkey",
    """
    CREATE FUNCTION expense_references() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM 1 FROM ledger l WHERE l.id IN (SELECT n.ledger_id FROM new_rows n) FOR KEY SHARE OF l;
      PERFORM 1 FROM import_file f WHERE (f.ledger_id, f.id) IN (SELECT n.ledger_id, n.file_id FROM new_rows n)
      FOR KEY SHARE OF f;
      IF EXISTS (
        SELECT 1 FROM (SELECT DISTINCT n.ledger_id, n.file_id FROM new_rows n) m
        WHERE NOT EXISTS (SELECT 1 FROM ledger l WHERE l.id = m.ledger_id)
           OR (m.file_id IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM import_file f WHERE f.ledger_id = m.ledger_id AND f.id = m.file_id)))
      THEN
        RAISE EXCEPTION 'an expense names a ledger or an import file that does not exist' USING ERRCODE = '23503';
      END IF;
      RETURN NULL;
    END
    $$
    """,
    """
    CREATE TRIGGER expense_checks_insert AFTER INSERT ON expense REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION expense_references()
    """,
    """
    CREATE TRIGGER expense_checks_update AFTER UPDATE ON expense REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION expense_references()
    """,
    """
    CREATE FUNCTION ledger_referenced() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' THEN
        IF OLD.id = NEW.id THEN RETURN NULL; END IF;
      END IF;
      IF EXISTS (SELECT 1 FROM expense e WHERE e.ledger_id = OLD.id) THEN
        RAISE EXCEPTION 'the ledger still has expenses' USING ERRCODE = '23503';
      END IF;
      RETURN NULL;
    END
    $$
    """,
    """
    CREATE TRIGGER ledger_referenced AFTER DELETE OR UPDATE OF id ON ledger
    FOR EACH ROW EXECUTE FUNCTION ledger_referenced()
    """,
    """
    CREATE FUNCTION import_file_referenced() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' THEN
        IF OLD.ledger_id = NEW.ledger_id AND OLD.id = NEW.id THEN RETURN NULL; END IF;
      END IF;
      IF EXISTS (SELECT 1 FROM expense e WHERE e.ledger_id = OLD.ledger_id AND e.file_id = OLD.id) THEN
        RAISE EXCEPTION 'the import file is still named by expenses' USING ERRCODE = '23503';
      END IF;
      RETURN NULL;
    END
    $$
    """,
    """
    CREATE TRIGGER import_file_referenced AFTER DELETE OR UPDATE OF ledger_id, id ON import_file
    FOR EACH ROW EXECUTE FUNCTION import_file_referenced()
    """,
  ]
}
