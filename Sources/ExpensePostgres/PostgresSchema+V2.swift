extension PostgresSchema {
  /// v2: `expense`'s references checked once per statement instead of once per row, and the
  /// rollup of inserted rows summed straight from the transition table.
  ///
  /// v1's two foreign keys on `expense` (to `ledger`, and to `import_file` by `(ledger_id,
  /// file_id)`) cost a server-side check per row: most of a million-row import's time
  /// (docs/performance.md, "Import into PostgreSQL"). They become statement-level triggers over
  /// the same transition table the rollup reads: every statement that inserts or updates
  /// expenses checks the distinct ledgers and files it names, set-wise, and locks them (`FOR KEY
  /// SHARE`, as a foreign key does) against a concurrent delete; a ledger or file still named by
  /// an expense cannot be deleted or renumbered. The same SQLSTATE (23503) as a foreign key.
  /// The triggers' names sort before the rollup's (`expense_insert`, `expense_update`), so the
  /// check runs first, as a foreign key's would. The check reads the transition table once (the
  /// distinct ledger and file pairs), then looks those few up.
  ///
  /// The rollup trigger's insert branch no longer packs the new rows into an
  /// `expense_change[]` for `month_totals_of`: it groups the transition table by day first, on
  /// the stored columns alone, and derives months and days from those groups (a few hundred per
  /// batch, not thousands of rows), in one statement with the revision bump. Same sums, same
  /// `daily` arrays, same limit check and revision bump as `month_total_apply` with sign +1
  /// (the parity tests and `check`, which still recomputes through `month_totals_of`, hold it
  /// to that); updates and deletes keep v1's path.
  static let v2: [String] = [
    "ALTER TABLE expense DROP CONSTRAINT expense_ledger_id_file_id_fkey, DROP CONSTRAINT expense_ledger_id_fkey",
    """
    CREATE FUNCTION expense_references() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE ledgers bigint[]; files bigint[];
    BEGIN
      SELECT array_agg(d.ledger_id), array_agg(d.file_id) INTO ledgers, files
      FROM (SELECT DISTINCT n.ledger_id, n.file_id FROM new_rows n) d;
      PERFORM 1 FROM ledger l WHERE l.id = ANY(ledgers) FOR KEY SHARE OF l;
      PERFORM 1 FROM import_file f JOIN unnest(ledgers, files) AS u(ledger_id, file_id)
        ON f.ledger_id = u.ledger_id AND f.id = u.file_id
      FOR KEY SHARE OF f;
      IF EXISTS (
        SELECT 1 FROM unnest(ledgers, files) AS u(ledger_id, file_id)
        WHERE NOT EXISTS (SELECT 1 FROM ledger l WHERE l.id = u.ledger_id)
           OR (u.file_id IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM import_file f WHERE f.ledger_id = u.ledger_id AND f.id = u.file_id)))
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
    expenseFollow,
  ]

  static let expenseFollow = """
    CREATE OR REPLACE FUNCTION expense_follow() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE biggest bigint;
    BEGIN
      IF TG_OP = 'INSERT' THEN
        WITH per_day AS (
          SELECT n.ledger_id, n.date, n.currency, COALESCE(n.category, '') AS category,
                 SUM(CASE WHEN n.amount_minor < 0 THEN -n.amount_minor ELSE 0 END) AS outflow,
                 SUM(CASE WHEN n.amount_minor > 0 THEN n.amount_minor ELSE 0 END) AS inflow,
                 count(*) AS count, count(*) FILTER (WHERE n.amount_minor > 0) AS inflow_count
          FROM new_rows n GROUP BY 1, 2, 3, 4),
        per_month AS (
          SELECT p.ledger_id, date_trunc('month', p.date)::date AS month, p.currency, p.category,
                 SUM(p.outflow) AS outflow, SUM(p.inflow) AS inflow, SUM(p.count) AS count,
                 SUM(p.inflow_count) AS inflow_count,
                 array_agg(extract(day FROM p.date)::int) AS days, array_agg(p.outflow) AS outflows
          FROM per_day p GROUP BY 1, 2, 3, 4),
        up AS (
          INSERT INTO month_total AS t
          SELECT m.ledger_id, m.month, m.currency, m.category, m.outflow::bigint, m.inflow::bigint, m.count::bigint,
                 m.inflow_count::bigint,
                 ARRAY(SELECT COALESCE(d.outflow, 0)::bigint FROM generate_series(1, 31) AS g(day)
                       LEFT JOIN unnest(m.days, m.outflows) AS d(day, outflow) ON d.day = g.day ORDER BY g.day)
          FROM per_month m
          ON CONFLICT (ledger_id, month, currency, category) DO UPDATE SET
            outflow = t.outflow + excluded.outflow, inflow = t.inflow + excluded.inflow,
            count = t.count + excluded.count, inflow_count = t.inflow_count + excluded.inflow_count,
            daily = ARRAY(SELECT a + b FROM unnest(t.daily, excluded.daily) AS u(a, b))
          RETURNING greatest(t.outflow, t.inflow) AS largest),
        bumped AS (
          UPDATE ledger SET revision = revision + 1 WHERE id IN (SELECT DISTINCT m.ledger_id FROM per_month m)
          RETURNING 1)
        SELECT max(largest) INTO biggest FROM up;
        IF biggest > \(totalLimit) THEN
          RAISE EXCEPTION 'a monthly total would pass the most expenses can add up' USING ERRCODE = '22003';
        END IF;
      ELSIF TG_OP = 'DELETE' THEN
        PERFORM month_total_apply(ARRAY(
          SELECT (o.ledger_id, o.date, o.currency, o.category, o.amount_minor, -1)::expense_change FROM old_rows o));
      ELSE
        PERFORM month_total_apply(ARRAY(
          SELECT (o.ledger_id, o.date, o.currency, o.category, o.amount_minor, -1)::expense_change FROM old_rows o
          UNION ALL
          SELECT (n.ledger_id, n.date, n.currency, n.category, n.amount_minor, 1)::expense_change FROM new_rows n));
      END IF;
      RETURN NULL;
    END
    $$
    """
}
