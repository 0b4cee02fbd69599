/* The floor under an import into SQLite: the narrow v6 rows of a file, already made, inserted
 * the way the import inserts them and nothing else (no parsing, no dictionary, no rollup, no
 * duplicate check). Benchmarks/sqlite-floor.py builds and runs it against sqlite3's .import.
 *
 *   sqlite-insert ROWS.bin DATABASE
 *
 * PRAGMAS, when given, replace the store's settings (to try others).
 * ROWS.bin: little-endian int64 records of (key, id, amountMinor, currencyId, descriptionId,
 * categoryId, sourceLine), in key order. The database gets the store's settings (16 KiB pages,
 * WAL, synchronous NORMAL, a 16 MiB cache), the v6 `expenseRow` table, and every row in ONE
 * transaction through prepared 256-row INSERTs, the rest one row at a time. Prints the seconds
 * of the insert alone (the process's wall time includes reading ROWS.bin). */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { FIELDS = 7, WIDE = 256 };

static void check(sqlite3 *db, int rc, const char *what) {
  if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
    fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(db));
    exit(1);
  }
}

static sqlite3_stmt *prepare(sqlite3 *db, int rows) {
  size_t size = 160 + (size_t)rows * 40;
  char *sql = malloc(size);
  int at = snprintf(sql, size, "INSERT INTO expenseRow (key, id, amountMinor, currencyId, descriptionId, "
                               "categoryId, fileId, sourceLine, categorySource) VALUES ");
  for (int i = 0; i < rows; i++) at += snprintf(sql + at, size - at, "%s(?,?,?,?,?,?,1,?,1)", i ? "," : "");
  sqlite3_stmt *statement = NULL;
  check(db, sqlite3_prepare_v2(db, sql, -1, &statement, NULL), "prepare");
  free(sql);
  return statement;
}

static void insert(sqlite3 *db, sqlite3_stmt *statement, const int64_t *rows, int count) {
  for (int r = 0; r < count; r++)
    for (int f = 0; f < FIELDS; f++) sqlite3_bind_int64(statement, r * FIELDS + f + 1, rows[r * FIELDS + f]);
  check(db, sqlite3_step(statement), "insert");
  sqlite3_reset(statement);
}

int main(int argc, char **argv) {
  if (argc != 3 && argc != 4) {
    fprintf(stderr, "usage: sqlite-insert ROWS.bin DATABASE [PRAGMAS]\n");
    return 64;
  }
  FILE *file = fopen(argv[1], "rb");
  if (!file) { perror(argv[1]); return 66; }
  fseek(file, 0, SEEK_END);
  long bytes = ftell(file);
  fseek(file, 0, SEEK_SET);
  int64_t *rows = malloc((size_t)bytes);
  if (fread(rows, 1, (size_t)bytes, file) != (size_t)bytes) { perror("read"); return 74; }
  fclose(file);
  long count = bytes / (long)(FIELDS * sizeof(int64_t));

  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  sqlite3 *db = NULL;
  check(db, sqlite3_open(argv[2], &db), "open");
  const char *settings = argc == 4 ? argv[3]
                                    : "PRAGMA page_size = 16384; PRAGMA journal_mode = WAL; "
                                      "PRAGMA synchronous = NORMAL; PRAGMA cache_size = -16384;";
  check(db, sqlite3_exec(db, settings, NULL, NULL, NULL), "settings");
  check(db, sqlite3_exec(db, 
                             "CREATE TABLE expenseRow (key INTEGER PRIMARY KEY, id INTEGER NOT NULL, date TEXT,"
                             " amountMinor INTEGER NOT NULL, currencyId INTEGER NOT NULL,"
                             " descriptionId INTEGER NOT NULL, categoryId INTEGER, account TEXT, fileId INTEGER,"
                             " sourceLine INTEGER, categorySource INTEGER NOT NULL DEFAULT 0);"
                             "BEGIN IMMEDIATE;",
                         NULL, NULL, NULL), "schema");
  sqlite3_stmt *wide = prepare(db, WIDE), *one = prepare(db, 1);
  long at = 0;
  for (; at + WIDE <= count; at += WIDE) insert(db, wide, rows + at * FIELDS, WIDE);
  for (; at < count; at++) insert(db, one, rows + at * FIELDS, 1);
  sqlite3_finalize(wide);
  sqlite3_finalize(one);
  check(db, sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), "commit");
  check(db, sqlite3_close(db), "close");
  clock_gettime(CLOCK_MONOTONIC, &end);
  printf("%.3f\n", (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9);
  free(rows);
  return 0;
}
