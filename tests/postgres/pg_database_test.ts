// The PostgreSQL implementation of the storage interface, against a real server (the one
// tools/ensure_postgres.sh makes answer on 127.0.0.1:5432). With no server these tests fail
// loudly, on purpose: the backend is part of the product, not an optional extra.
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { PgDatabase } from "../../lib/storage/postgres/pg_database.ts";
import { numberParameters, translateSql } from "../../lib/storage/postgres/sql_dialect.ts";
import { transaction } from "../../lib/storage/db.ts";
import { migratePostgres } from "../../lib/storage/postgres/pg_migrations.ts";
import { MIGRATIONS } from "../../lib/storage/migrations.ts";

export const TEST_DATABASE_URL = Deno.env.get("HERMES_TEST_DATABASE_URL") ??
  "postgres://postgres@127.0.0.1:5432/hermes_test";

function throwaway(): PgDatabase {
  return new PgDatabase(TEST_DATABASE_URL, {
    schema: `t_${crypto.randomUUID().replaceAll("-", "")}`,
    dropOnClose: true,
  });
}

Deno.test("numberParameters() numbers ? outside literals, quoted names and comments only", () => {
  strictEqual(
    numberParameters(`SELECT '?', "a?b", x FROM t -- what?\nWHERE a = ? /* ? */ AND b = ?`),
    `SELECT '?', "a?b", x FROM t -- what?\nWHERE a = $1 /* ? */ AND b = $2`,
  );
  strictEqual(numberParameters(`SELECT 'it''s ?' WHERE c = ?`), `SELECT 'it''s ?' WHERE c = $1`);
});

Deno.test("translateSql() turns INSERT OR IGNORE into ON CONFLICT DO NOTHING, before RETURNING", () => {
  strictEqual(
    translateSql("INSERT OR IGNORE INTO t (a) VALUES (?) RETURNING a").text,
    "INSERT INTO t (a) VALUES ($1) ON CONFLICT DO NOTHING RETURNING a",
  );
  strictEqual(
    translateSql("SELECT count(*) AS nSessions FROM t").text,
    'SELECT count(*) AS "nSessions" FROM t',
  );
  ok(translateSql("SELECT * FROM t").hideRowid);
  ok(!translateSql("SELECT rowid, a FROM t").hideRowid);
});

Deno.test("PgDatabase answers synchronously, with numbers, bytes and NULL as node:sqlite does", () => {
  const db = throwaway();
  try {
    db.exec("CREATE TABLE t (id bigint PRIMARY KEY, name text, score double precision, raw bytea)");
    const run = db.prepare("INSERT INTO t VALUES (?, ?, ?, ?)").run(
      1,
      "one",
      1.5,
      new Uint8Array([1, 2, 255]),
    );
    strictEqual(Number(run.changes), 1);
    db.prepare("INSERT INTO t VALUES (?, ?, ?, ?)").run(2, null, null, null);
    const rows = db.prepare("SELECT id, name, score, raw FROM t ORDER BY id").all();
    strictEqual(rows[0].id, 1);
    strictEqual(rows[0].score, 1.5);
    deepStrictEqual([...(rows[0].raw as Uint8Array)], [1, 2, 255]);
    strictEqual(rows[1].name, null);
    const agg = db.prepare("SELECT count(*) AS n, sum(id) AS total FROM t").get()!;
    deepStrictEqual(agg, { n: 2, total: 3 }, "bigint and numeric come back as numbers");
    strictEqual(db.prepare("SELECT * FROM t WHERE id = ?").get(99), undefined);
  } finally {
    db.close();
  }
});

Deno.test("PgDatabase carries an answer far larger than its first buffer", () => {
  const db = throwaway();
  try {
    const rows = db.prepare(
      "SELECT g AS n, repeat('x', 1000) AS pad FROM generate_series(1, 5000) g",
    )
      .all();
    strictEqual(rows.length, 5000);
    strictEqual(rows[4999].n, 5000);
  } finally {
    db.close();
  }
});

Deno.test("transaction() on PostgreSQL: all or nothing, nested savepoints keep inner failures local", () => {
  const db = throwaway();
  try {
    db.exec("CREATE TABLE t (k text PRIMARY KEY)");
    transaction(db, () => {
      db.prepare("INSERT INTO t VALUES (?)").run("a");
      throws(() =>
        transaction(db, () => {
          db.prepare("INSERT INTO t VALUES (?)").run("b");
          db.prepare("INSERT INTO t VALUES (?)").run("a"); // duplicate key
        })
      );
      db.prepare("INSERT INTO t VALUES (?)").run("c");
    });
    throws(() =>
      transaction(db, () => {
        db.prepare("INSERT INTO t VALUES (?)").run("d");
        throw new Error("changed my mind");
      }), /changed my mind/);
    deepStrictEqual(db.prepare("SELECT k FROM t ORDER BY k").all().map((r) => r.k), ["a", "c"]);
  } finally {
    db.close();
  }
});

Deno.test("a PostgreSQL error keeps its SQLSTATE code and message, and the connection goes on", () => {
  const db = throwaway();
  try {
    db.exec("CREATE TABLE t (k text PRIMARY KEY)");
    db.prepare("INSERT INTO t VALUES (?)").run("a");
    const err = (() => {
      try {
        db.prepare("INSERT INTO t VALUES (?)").run("a");
      } catch (e) {
        return e as Error & { code?: string };
      }
    })();
    strictEqual(err?.code, "23505");
    ok(/duplicate key/.test(err!.message));
    strictEqual(db.prepare("SELECT count(*) AS n FROM t").get()!.n, 1);
  } finally {
    db.close();
  }
});

Deno.test("migratePostgres() brings a schema to the latest version once, and PRAGMAs answer", () => {
  const db = throwaway();
  try {
    migratePostgres(db);
    migratePostgres(db); // a second start finds nothing to do
    const version = db.prepare("PRAGMA user_version").get()!.user_version as number;
    strictEqual(version, MIGRATIONS.length, "the shared history's number, as on SQLite");
    const columns = db.prepare("PRAGMA table_info(sessions)").all().map((r) => r.name);
    ok(columns.includes("session_id") && !columns.includes("rowid"));
    strictEqual(db.prepare("PRAGMA quick_check").get()!.quick_check, "ok");
  } finally {
    db.close();
  }
});

Deno.test("a database from PostgreSQL's former history (version 2 = step 17) is not migrated again", () => {
  const db = throwaway();
  try {
    // A database migrated before the histories were one: the schema of steps 1–17, and the
    // former history's own version number for it.
    for (const step of MIGRATIONS.slice(0, 17)) if (step.postgres !== null) db.exec(step.postgres);
    db.exec("CREATE TABLE hermes_schema_version (version integer NOT NULL)");
    db.exec("INSERT INTO hermes_schema_version VALUES (2)");
    db.prepare(
      "INSERT INTO sessions (session_id, workspace, created_at, updated_at) VALUES ('kept', '/w', 1, 1)",
    ).run();
    migratePostgres(db); // would fail on CREATE TABLE if it re-ran step 16's schema
    strictEqual(
      db.prepare(
        "SELECT count(*) AS n FROM pg_proc WHERE proname = 'hermes_rate_hit' AND pronamespace = current_schema()::regnamespace",
      ).get()!.n,
      1,
      "the steps after 17 ran",
    );
    strictEqual(db.prepare("PRAGMA user_version").get()!.user_version, MIGRATIONS.length);
    strictEqual(db.prepare("SELECT count(*) AS n FROM sessions").get()!.n, 1);
  } finally {
    db.close();
  }
});

Deno.test("PRAGMA quick_check/integrity_check on PostgreSQL see an index that lost its rows", () => {
  const schema = `t_${crypto.randomUUID().replaceAll("-", "")}`;
  const db = new PgDatabase(TEST_DATABASE_URL, { schema, dropOnClose: true });
  // A second connection: the first one's cache keeps the index expression it has already seen.
  const later = new PgDatabase(TEST_DATABASE_URL, { schema });
  try {
    // An expression index whose "immutable" function is then changed: the index still holds the
    // old keys, so every row is missing from it — what a corrupted index looks like to amcheck.
    db.exec(`CREATE FUNCTION t_key(x integer) RETURNS integer IMMUTABLE LANGUAGE sql AS 'SELECT x';
      CREATE TABLE t (x integer);
      INSERT INTO t SELECT generate_series(1, 500);
      CREATE INDEX t_by_key ON t (t_key(x))`);
    strictEqual(db.prepare("PRAGMA quick_check").get()!.quick_check, "ok");
    db.exec(
      `CREATE OR REPLACE FUNCTION t_key(x integer) RETURNS integer IMMUTABLE LANGUAGE sql
       AS 'SELECT -x'`,
    );
    for (const pragma of ["quick_check", "integrity_check"]) {
      const verdict = String(later.prepare(`PRAGMA ${pragma}`).get()![pragma]);
      ok(
        /lacks matching index tuple within index "t_by_key"/.test(verdict),
        `${pragma}: ${verdict}`,
      );
    }
  } finally {
    later.close();
    db.close();
  }
});

Deno.test("without amcheck (a role that may not install it) the check says not_applicable, and the deep health check says so", async () => {
  const admin = new PgDatabase(TEST_DATABASE_URL, { schema: null });
  const suffix = crypto.randomUUID().replaceAll("-", "").slice(0, 12);
  const role = `hermes_plain_${suffix}`;
  const database = `hermes_plain_${suffix}`;
  admin.exec(`CREATE ROLE ${role} LOGIN`);
  admin.exec(`CREATE DATABASE ${database} OWNER ${role} TEMPLATE template0`);
  const url = new URL(TEST_DATABASE_URL);
  url.username = role;
  url.pathname = `/${database}`;
  const db = new PgDatabase(url.toString(), { schema: null });
  try {
    migratePostgres(db);
    const verdict = String(db.prepare("PRAGMA quick_check").get()!.quick_check);
    ok(verdict.startsWith("not_applicable: "), verdict);
    const { deepHealthChecks } = await import("../../lib/server/health_checks.ts");
    const stateDir = await Deno.makeTempDir({ prefix: "hermes-plain-" });
    try {
      const health = await deepHealthChecks({ db, stateDir });
      strictEqual(health.checks.database.ok, true);
      strictEqual(health.checks.database.integrity, "not_applicable");
      ok(String(health.checks.database.note).includes("amcheck"));
    } finally {
      await Deno.remove(stateDir, { recursive: true });
    }
  } finally {
    db.close();
    admin.exec(`DROP DATABASE ${database} WITH (FORCE)`);
    admin.exec(`DROP ROLE ${role}`);
    admin.close();
  }
});
