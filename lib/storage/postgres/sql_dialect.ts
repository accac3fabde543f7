// SQLite's dialect to PostgreSQL's, for the few differences the concept files cannot avoid
// writing (the rest of their SQL is written to mean the same on both). Invariants: string
// literals, quoted identifiers and comments pass through untouched — only `?` outside them
// becomes `$n`; a translation is computed once per SQL text (the statement cache keeps it).
import type { SqlRow, SqlValue } from "../storage_interface.ts";

/** What a PRAGMA answered here needs of the database: one query. */
export interface PragmaTarget {
  query(text: string, params: SqlValue[]): { rows: SqlRow[] };
}

export interface TranslatedSql {
  text: string;
  /**
   * PostgreSQL tables carry a real `rowid` column where SQLite has a hidden one
   * (lib/storage/postgres/pg_migrations.ts); rows of a statement that did not select it by
   * name must not show it (`SELECT *`).
   */
  hideRowid: boolean;
  /** A PRAGMA answered here rather than by the server. */
  pragma: ((db: PragmaTarget) => SqlRow[]) | null;
}

/** Translate one statement (or a script, for exec) from SQLite's dialect. */
export function translateSql(sql: string): TranslatedSql {
  const pragma = translatePragma(sql.trim());
  if (pragma) return { text: "", hideRowid: false, pragma };
  let text = numberParameters(sql);
  text = text.replace(/^\s*INSERT\s+OR\s+IGNORE\s+INTO\b/i, "INSERT INTO");
  if (text !== sql && /^\s*INSERT\s+OR\s+IGNORE\b/i.test(sql)) {
    text = appendBeforeReturning(text, " ON CONFLICT DO NOTHING");
  }
  text = quoteMixedCaseAliases(text);
  return { text, hideRowid: !selectsRowid(text), pragma: null };
}

/** `?` placeholders to `$1…$n`, skipping literals, quoted identifiers and comments. */
export function numberParameters(sql: string): string {
  let out = "";
  let n = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      const end = closingQuote(sql, i, c);
      out += sql.slice(i, end + 1);
      i = end;
    } else if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop - 1;
    } else if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      const stop = end === -1 ? sql.length : end + 2;
      out += sql.slice(i, stop);
      i = stop - 1;
    } else if (c === "?") {
      out += `$${++n}`;
    } else {
      out += c;
    }
  }
  return out;
}

/** Index of the quote closing the one at `start` (a doubled quote is an escaped one). */
function closingQuote(sql: string, start: number, quote: string): number {
  for (let i = start + 1; i < sql.length; i++) {
    if (sql[i] !== quote) continue;
    if (sql[i + 1] === quote) {
      i++;
      continue;
    }
    return i;
  }
  return sql.length - 1;
}

function appendBeforeReturning(sql: string, clause: string): string {
  const at = sql.search(/\bRETURNING\b/i);
  if (at === -1) return sql.replace(/\s*;?\s*$/, "") + clause;
  return `${sql.slice(0, at).trimEnd()}${clause} ${sql.slice(at)}`;
}

/**
 * PostgreSQL folds unquoted names to lower case; SQLite keeps `AS sessionCount` as written and
 * the code reads the key as written. Quote such aliases (outside literals, which this leaves
 * alone because an alias pattern inside a quoted string is unlikely and harmless here).
 */
function quoteMixedCaseAliases(sql: string): string {
  return sql.replace(
    /\bAS\s+([A-Za-z_][A-Za-z0-9_]*)\b/g,
    (whole, name: string) =>
      /[A-Z]/.test(name) &&
        !/^(TEXT|INTEGER|BIGINT|REAL|DOUBLE|NUMERIC|MATERIALIZED|IDENTITY)$/i.test(name)
        ? `AS "${name}"`
        : whole,
  );
}

/** Whether the select list (before the first FROM) names `rowid`. */
function selectsRowid(sql: string): boolean {
  const from = sql.search(/\bFROM\b/i);
  return /\browid\b/i.test(from === -1 ? sql : sql.slice(0, from));
}

function translatePragma(sql: string): ((db: PragmaTarget) => SqlRow[]) | null {
  const m = /^PRAGMA\s+(\w+)\s*(?:\(\s*(\w+)\s*\)|=\s*(\S+))?\s*;?$/i.exec(sql);
  if (!m) return null;
  const name = m[1].toLowerCase();
  if (name === "quick_check" || name === "integrity_check") {
    return (db) => [{ [name]: checkIndexes(db) }];
  }
  if (name === "table_info" && m[2]) {
    const table = m[2];
    return (db) =>
      db.query(
        `SELECT column_name AS name FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name = $1 AND column_name <> 'rowid'
         ORDER BY ordinal_position`,
        [table],
      ).rows;
  }
  if (name === "user_version") {
    return (db) => [{
      user_version: Number(
        db.query("SELECT version FROM hermes_schema_version LIMIT 1", []).rows[0]?.version ?? 0,
      ),
    }];
  }
  // journal_mode, synchronous, foreign_keys, busy_timeout…: SQLite's own knobs, nothing to do.
  return () => [];
}

/** amcheck's schema in this database, installing the extension when the role may. */
function amcheckSchema(db: PragmaTarget): string | null {
  const find = () =>
    db.query(
      `SELECT n.nspname AS schema FROM pg_extension e
       JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'amcheck'`,
      [],
    ).rows[0]?.schema as string | undefined;
  const found = find();
  if (found) return found;
  try {
    db.query("CREATE EXTENSION IF NOT EXISTS amcheck SCHEMA public", []);
  } catch {
    // Not installed on the server, or this role may not create it; another connection
    // creating it at the same moment (a unique violation) is found just below.
  }
  return find() ?? null;
}

/**
 * PostgreSQL's counterpart of SQLite's quick_check/integrity_check: every B-tree index of the
 * console's tables checked with amcheck's bt_index_check, heapallindexed — each index's order
 * and that every row is in it, one scan per table (as SQLite's checks scan the whole file).
 * "ok", the first corruption found, or `not_applicable: …` when amcheck cannot be had here.
 */
function checkIndexes(db: PragmaTarget): string {
  const schema = amcheckSchema(db);
  if (!schema) return "not_applicable: the amcheck extension is not installed in this database";
  const quoted = `"${schema.replaceAll('"', '""')}"`;
  try {
    db.query(
      `SELECT ${quoted}.bt_index_check(c.oid, true) FROM pg_index i
       JOIN pg_class c ON c.oid = i.indexrelid
       JOIN pg_am a ON a.oid = c.relam
       WHERE a.amname = 'btree' AND c.relnamespace = current_schema()::regnamespace
         AND c.relpersistence = 'p' AND i.indisvalid AND i.indisready`,
      [],
    );
    return "ok";
  } catch (err) {
    return (err as Error).message;
  }
}
