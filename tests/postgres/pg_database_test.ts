// The PostgreSQL implementation of the storage interface, against a real server (the one
// tools/ensure_postgres.sh makes answer on 127.0.0.1:5432). With no server these tests fail
// loudly, on purpose: the backend is part of the product, not an optional extra.
import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import postgres from "postgres";
import { PgDatabase, type PgOpenOptions } from "../../lib/storage/postgres/pg_database.ts";
import { MIGRATIONS } from "../../lib/storage/migrations.ts";
import { type AsyncQueries, sql } from "../../lib/storage/db.ts";
import { checkIntegrity } from "../../lib/storage/integrity.ts";
import { DatabaseUnavailableError } from "../../lib/errors.ts";
import { busOf, CHANNELS } from "../../lib/replicas/bus.ts";
import { holdLivenessLock } from "../../lib/replicas/replica_liveness.ts";

export const TEST_DATABASE_URL = Deno.env.get("HERMES_TEST_DATABASE_URL") ??
  "postgres://postgres@127.0.0.1:5432/hermes_test";

const newSchema = () => `t_${crypto.randomUUID().replaceAll("-", "")}`;

function throwaway(opts: Partial<PgOpenOptions> = {}): PgDatabase {
  return new PgDatabase(TEST_DATABASE_URL, { schema: newSchema(), dropOnClose: true, ...opts });
}

/** Run a script (several statements, no parameters) in `schema`, as the migrations do. */
async function script(schema: string | null, text: string): Promise<void> {
  const client = postgres(TEST_DATABASE_URL, {
    max: 1,
    onnotice: () => {},
    connection: schema ? { search_path: schema } : {},
  });
  try {
    await client.unsafe(text);
  } finally {
    await client.end({ timeout: 2 });
  }
}

/** Whether a schema of that name exists on the server. */
async function schemaExists(schema: string): Promise<boolean> {
  const client = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
  try {
    const rows = await client`SELECT 1 FROM pg_namespace WHERE nspname = ${schema}`;
    return rows.length > 0;
  } finally {
    await client.end({ timeout: 2 });
  }
}

const version = async (db: AsyncQueries) =>
  Number(
    (await db.get<{ version: number }>(sql`SELECT version FROM hermes_schema_version`))?.version,
  );

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("PgDatabase answers with numbers, bytes and NULL as node:sqlite does", async () => {
  const db = throwaway();
  try {
    await db.run(
      sql`CREATE TABLE t (id bigint PRIMARY KEY, name text, score double precision, raw bytea)`,
    );
    const run = await db.run(
      sql`INSERT INTO t VALUES (${1}, ${"one"}, ${1.5}, ${new Uint8Array([1, 2, 255])})`,
    );
    strictEqual(run.changes, 1);
    await db.run(
      sql`INSERT INTO t VALUES (${2}, ${null}, CAST(${null} AS DOUBLE PRECISION), ${null})`,
    );
    const rows = await db.all<Record<string, unknown>>(
      sql`SELECT id, name, score, raw FROM t ORDER BY id`,
    );
    strictEqual(rows[0].id, 1);
    strictEqual(rows[0].score, 1.5);
    deepStrictEqual([...(rows[0].raw as Uint8Array)], [1, 2, 255]);
    strictEqual(rows[1].name, null);
    strictEqual(rows[1].score, null);
    const agg = await db.get(sql`SELECT count(*) AS n, sum(id) AS total FROM t`);
    deepStrictEqual({ ...agg }, { n: 2, total: 3 }, "bigint and numeric come back as numbers");
    strictEqual(await db.get(sql`SELECT * FROM t WHERE id = ${99}`), undefined);
  } finally {
    db.close();
  }
});

Deno.test("a NUL byte in a parameter is stored as U+FFFD and finds nothing, never a server error", async () => {
  const db = throwaway();
  try {
    await db.run(sql`CREATE TABLE t (k text PRIMARY KEY, v text)`);
    await db.run(sql`INSERT INTO t VALUES (${"a"}, ${"tool\u0000output"})`);
    strictEqual((await db.get<{ v: string }>(sql`SELECT v FROM t`))?.v, "tool\uFFFDoutput");
    strictEqual(await db.get(sql`SELECT k FROM t WHERE k = ${"a\u0000"}`), undefined);
  } finally {
    db.close();
  }
});

Deno.test("PgDatabase carries a large answer (5,000 rows of 1 KB) whole", async () => {
  const db = throwaway();
  try {
    const rows = await db.all<{ n: number; pad: string }>(
      sql`SELECT g AS n, repeat('x', 1000) AS pad FROM generate_series(1, 5000) g`,
    );
    strictEqual(rows.length, 5000);
    strictEqual(rows[4999].n, 5000);
    strictEqual(rows[0].pad.length, 1000);
  } finally {
    db.close();
  }
});

Deno.test("transactions on PostgreSQL: all or nothing, nested savepoints keep inner failures local", async () => {
  const db = throwaway();
  try {
    await db.run(sql`CREATE TABLE t (k text PRIMARY KEY)`);
    const insert = (q: AsyncQueries, k: string) => q.run(sql`INSERT INTO t VALUES (${k})`);
    await db.transaction(async (tx) => {
      strictEqual(tx.owner, db, "a transaction's owner is its database");
      await insert(tx, "a");
      await rejects(tx.transaction(async (inner) => {
        await insert(inner, "b");
        await insert(inner, "a"); // duplicate key
      }));
      await insert(tx, "c");
    });
    await rejects(
      db.transaction(async (tx) => {
        await insert(tx, "d");
        throw new Error("changed my mind");
      }),
      /changed my mind/,
    );
    deepStrictEqual(
      (await db.all<{ k: string }>(sql`SELECT k FROM t ORDER BY k`)).map((r) => r.k),
      ["a", "c"],
    );
    strictEqual(db.owner, db, "a database's owner is itself");
  } finally {
    db.close();
  }
});

Deno.test("a transaction is isolated: its writes are unseen outside until it commits", async () => {
  const db = throwaway();
  try {
    await db.run(sql`CREATE TABLE t (k text PRIMARY KEY)`);
    let release!: () => void;
    const held = new Promise<void>((r) => release = r);
    let inserted!: () => void;
    const wrote = new Promise<void>((r) => inserted = r);
    const tx = db.transaction(async (tx) => {
      await tx.run(sql`INSERT INTO t VALUES (${"inside"})`);
      inserted();
      await held;
    });
    await wrote;
    strictEqual(
      Number((await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM t`))?.n),
      0,
      "another connection does not see the open transaction's row",
    );
    release();
    await tx;
    strictEqual(Number((await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM t`))?.n), 1);
  } finally {
    db.close();
  }
});

Deno.test("a PostgreSQL error keeps its SQLSTATE code and message, and the pool goes on", async () => {
  const db = throwaway();
  try {
    await db.run(sql`CREATE TABLE t (k text PRIMARY KEY)`);
    await db.run(sql`INSERT INTO t VALUES (${"a"})`);
    const err = await db.run(sql`INSERT INTO t VALUES (${"a"})`).then(
      () => null,
      (e) => e as Error & { code?: string },
    );
    strictEqual(err?.code, "23505");
    ok(/duplicate key/.test(err!.message));
    strictEqual((await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM t`))?.n, 1);
  } finally {
    db.close();
  }
});

Deno.test("a statement past the pool's time bound is a DatabaseUnavailableError of its own request only", async () => {
  const db = throwaway({ pool: { size: 4, statementTimeoutMs: 1500 } });
  try {
    const stalled = db.all(sql`SELECT pg_sleep(5)`);
    // Meanwhile the other requests are served at once.
    const started = performance.now();
    for (let i = 0; i < 5; i++) {
      strictEqual((await db.get<{ one: number }>(sql`SELECT 1 AS one`))?.one, 1);
    }
    ok(
      performance.now() - started < 1000,
      "the stalled statement held nobody else up (they did not wait for its time bound)",
    );
    await rejects(
      stalled,
      (err) =>
        err instanceof DatabaseUnavailableError && /did not answer in time/.test(err.message),
    );
    // A transaction may ask for longer (an import).
    await db.transaction(async (tx) => {
      await tx.all(sql`SELECT pg_sleep(0.5)`);
    }, { timeoutMs: 5_000 });
    strictEqual((await db.get<{ one: number }>(sql`SELECT 1 AS one`))?.one, 1);
  } finally {
    db.close();
  }
});

Deno.test("ready() fails on a database that cannot be reached, and so does every query, with its URL", async () => {
  // Port 1: nothing listens there, the connection is refused at once.
  const url = new URL(TEST_DATABASE_URL);
  url.port = "1";
  url.password = "secret";
  const db = new PgDatabase(url.toString(), {
    schema: newSchema(),
    migrate: true,
    pool: { size: 2, statementTimeoutMs: 2000 },
  });
  try {
    const check = (err: unknown) => {
      const message = (err as Error).message;
      ok(message.startsWith("Could not open the PostgreSQL database at postgres://"), message);
      ok(message.includes(":1/"), message);
      ok(!message.includes("secret"), "the password is not in the message");
      return err instanceof DatabaseUnavailableError;
    };
    await rejects(db.ready(), check);
    await rejects(db.get(sql`SELECT 1 AS one`), check);
    await rejects(db.transaction(async () => {}), check);
  } finally {
    db.close();
  }
});

Deno.test("migrations bring a schema to the latest version once, and the integrity check answers", async () => {
  const db = throwaway({ migrate: true });
  try {
    await db.ready();
    await db.migrate(); // a second start finds nothing to do
    strictEqual(await version(db), MIGRATIONS.length, "the shared history's number, as on SQLite");
    const columns = (await db.all<{ name: string }>(
      sql`SELECT column_name AS name FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name = 'sessions'`,
    )).map((r) => r.name);
    ok(columns.includes("session_id") && columns.includes("rowid"));
    strictEqual(await checkIntegrity(db), "ok");
    strictEqual(await checkIntegrity(db, true), "ok");
  } finally {
    db.close();
  }
});

Deno.test("two openers of one new schema at once migrate it once, under the advisory lock", async () => {
  const schema = newSchema();
  const a = new PgDatabase(TEST_DATABASE_URL, { schema, migrate: true });
  const b = new PgDatabase(TEST_DATABASE_URL, { schema, migrate: true, dropOnClose: true });
  try {
    await Promise.all([a.ready(), b.ready()]);
    strictEqual(await version(a), MIGRATIONS.length);
    strictEqual(
      Number((await b.get<{ n: number }>(sql`SELECT count(*) AS n FROM hermes_schema_version`))?.n),
      1,
      "one version row",
    );
    await a.run(
      sql`INSERT INTO sessions (session_id, workspace, created_at, updated_at)
          VALUES (${"s"}, ${"/w"}, 1, 1)`,
    );
    strictEqual(
      Number((await b.get<{ n: number }>(sql`SELECT count(*) AS n FROM sessions`))?.n),
      1,
      "both see the one schema",
    );
  } finally {
    a.close();
    b.close();
  }
});

Deno.test("a database from PostgreSQL's former history (version 2 = step 17) is not migrated again", async () => {
  const db = throwaway();
  const schema = newSchema();
  const former = new PgDatabase(TEST_DATABASE_URL, { schema, dropOnClose: true });
  try {
    await former.ready(); // the schema exists
    // A database migrated before the histories were one: the schema of steps 1–17, and the
    // former history's own version number for it.
    for (const step of MIGRATIONS.slice(0, 17)) {
      if (step.postgres !== null) await script(schema, step.postgres);
    }
    await script(
      schema,
      `CREATE TABLE hermes_schema_version (version integer NOT NULL);
       INSERT INTO hermes_schema_version VALUES (2);
       INSERT INTO sessions (session_id, workspace, created_at, updated_at)
       VALUES ('kept', '/w', 1, 1)`,
    );
    await former.migrate(); // would fail on CREATE TABLE if it re-ran step 16's schema
    strictEqual(
      Number(
        (await former.get<{ n: number }>(
          sql`SELECT count(*) AS n FROM pg_proc
              WHERE proname = 'hermes_rate_hit' AND pronamespace = current_schema()::regnamespace`,
        ))?.n,
      ),
      1,
      "the steps after 17 ran",
    );
    strictEqual(await version(former), MIGRATIONS.length);
    strictEqual(
      Number((await former.get<{ n: number }>(sql`SELECT count(*) AS n FROM sessions`))?.n),
      1,
    );
  } finally {
    former.close();
    db.close();
  }
});

Deno.test("each isolated schema holds its own tables, and a throwaway one is dropped on close", async () => {
  const [oneSchema, twoSchema, kept] = [newSchema(), newSchema(), newSchema()];
  const one = new PgDatabase(TEST_DATABASE_URL, { schema: oneSchema, dropOnClose: true });
  const two = new PgDatabase(TEST_DATABASE_URL, { schema: twoSchema, dropOnClose: true });
  const lasting = new PgDatabase(TEST_DATABASE_URL, { schema: kept });
  try {
    await one.run(sql`CREATE TABLE t (k text)`);
    await one.run(sql`INSERT INTO t VALUES (${"one"})`);
    await two.run(sql`CREATE TABLE t (k text)`);
    strictEqual(await two.get(sql`SELECT k FROM t`), undefined, "two does not see one's row");
    await lasting.run(sql`CREATE TABLE t (k text)`);
  } finally {
    one.close();
    two.close();
    lasting.close();
  }
  // The throwaway schemas go once their pools ended; the lasting one stays (a restart finds it).
  const gone = async (schema: string) => {
    for (let i = 0; i < 100 && await schemaExists(schema); i++) await pause(50);
    return !await schemaExists(schema);
  };
  ok(await gone(oneSchema) && await gone(twoSchema), "the throwaway schemas were dropped");
  ok(await schemaExists(kept), "a schema not opened as a throwaway outlives its close");
  await script(null, `DROP SCHEMA IF EXISTS "${kept}" CASCADE`);
});

Deno.test("close() right after opening, or with a statement in flight, ends quietly and drops the schema", async () => {
  const schema = newSchema();
  const quick = new PgDatabase(TEST_DATABASE_URL, { schema, dropOnClose: true, migrate: true });
  quick.close(); // before the preparation ended: it finishes, then everything goes
  const busy = throwaway();
  await busy.ready();
  const inFlight = busy.all<{ one: number }>(sql`SELECT 1 AS one FROM pg_sleep(0.3)`);
  await pause(100); // sent
  busy.close();
  // The pool lets the statement under way finish before it ends.
  deepStrictEqual((await inFlight).map((r) => r.one), [1]);
  await rejects(busy.get(sql`SELECT 1 AS one`), DatabaseUnavailableError);
  const never = throwaway();
  const refused = never.get(sql`SELECT 1 AS one`); // asked before the close: refused, not hung
  never.close();
  await rejects(refused, DatabaseUnavailableError);
  for (let i = 0; i < 200 && await schemaExists(schema); i++) await pause(50);
  ok(!await schemaExists(schema), "the throwaway schema was dropped after its preparation");
});

Deno.test("LISTEN: signals arrive, onListening runs when listening starts, a transaction's NOTIFY leaves at commit", async () => {
  const db = throwaway();
  try {
    const heard: string[] = [];
    let listening = 0;
    const started = new Promise<void>((resolve) => {
      db.listen(CHANNELS.run, (payload) => heard.push(payload), () => {
        listening++;
        resolve();
      });
    });
    await started;
    strictEqual(listening, 1);
    const bus = busOf(db);
    ok(bus.shared);
    await bus.publish(CHANNELS.run, "direct");
    await rejects(db.transaction(async (tx) => {
      await bus.publish(CHANNELS.run, "rolled back", tx);
      throw new Error("rollback");
    }));
    await db.transaction(async (tx) => {
      await bus.publish(CHANNELS.run, "at commit", tx);
      await pause(200);
      ok(!heard.includes("at commit"), "not before the commit");
    });
    for (let i = 0; i < 100 && heard.length < 2; i++) await pause(20);
    await pause(100);
    deepStrictEqual(heard, ["direct", "at commit"]);
  } finally {
    db.close();
  }
});

Deno.test("LISTEN re-listens after its connection was cut, and says so (resync)", async () => {
  const db = throwaway();
  try {
    const heard: string[] = [];
    let listening = 0;
    db.listen(CHANNELS.sessions, (payload) => heard.push(payload), () => listening++);
    for (let i = 0; i < 100 && listening < 1; i++) await pause(20);
    strictEqual(listening, 1);
    // Cut the listening connection from the server's side.
    await db.run(
      sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE query ILIKE ${"listen%"} AND pid <> pg_backend_pid()
            AND datname = current_database() AND state = 'idle'
            AND query ILIKE ${`%${CHANNELS.sessions}%`}`,
    );
    for (let i = 0; i < 250 && listening < 2; i++) await pause(20);
    ok(listening >= 2, "listening started again (the subscriber re-reads its tables)");
    await busOf(db).publish(CHANNELS.sessions, "after");
    for (let i = 0; i < 100 && !heard.includes("after"); i++) await pause(20);
    ok(heard.includes("after"));
  } finally {
    db.close();
  }
});

Deno.test("the liveness lock sits on a connection of its own, and is taken again on a new one when that one is lost", async () => {
  const db = throwaway();
  const replica = `r${crypto.randomUUID().slice(0, 8)}`;
  const held = async () =>
    Number(
      (await db.get<{ n: number }>(
        sql`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND granted
            AND classid = ${0x484c} AND objid = CAST(hashtext(${replica}) AS oid)
            AND objsubid = 2`,
      ))?.n,
    );
  try {
    await holdLivenessLock(db, replica);
    strictEqual(await held(), 1);
    await holdLivenessLock(db, replica); // a renewal: still one lock, the same connection
    strictEqual(await held(), 1);
    // Lose the connection: the lock goes with it.
    await db.run(
      sql`SELECT pg_terminate_backend(l.pid) FROM pg_locks l WHERE l.locktype = 'advisory'
          AND l.classid = ${0x484c} AND l.objid = CAST(hashtext(${replica}) AS oid)`,
    );
    for (let i = 0; i < 50 && await held() > 0; i++) await pause(20);
    strictEqual(await held(), 0);
    // The next renewal finds the connection gone, opens another and takes the lock there. (The
    // first try may meet the dead socket: it fails that renewal only.)
    for (let i = 0; i < 5; i++) {
      try {
        await holdLivenessLock(db, replica);
        if (await held() === 1) break;
      } catch { /* the renewal that noticed the loss */ }
      await pause(50);
    }
    strictEqual(await held(), 1);
  } finally {
    db.close();
  }
});

Deno.test("the integrity check on PostgreSQL sees an index that lost its rows", async () => {
  const schema = newSchema();
  const db = new PgDatabase(TEST_DATABASE_URL, { schema, dropOnClose: true });
  try {
    await db.ready();
    // An expression index whose "immutable" function is then changed: the index still holds the
    // old keys, so every row is missing from it — what a corrupted index looks like to amcheck.
    await script(
      schema,
      `CREATE FUNCTION t_key(x integer) RETURNS integer IMMUTABLE LANGUAGE sql AS 'SELECT x';
       CREATE TABLE t (x integer);
       INSERT INTO t SELECT generate_series(1, 500);
       CREATE INDEX t_by_key ON t (t_key(x))`,
    );
    strictEqual(await checkIntegrity(db), "ok");
    await script(
      schema,
      `CREATE OR REPLACE FUNCTION t_key(x integer) RETURNS integer IMMUTABLE LANGUAGE sql
       AS 'SELECT -x'`,
    );
    // A connection of the pool opened after the change (the first ones cached the expression).
    const later = new PgDatabase(TEST_DATABASE_URL, { schema });
    try {
      for (const full of [false, true]) {
        const verdict = await checkIntegrity(later, full);
        ok(/lacks matching index tuple within index "t_by_key"/.test(verdict), verdict);
      }
    } finally {
      later.close();
    }
  } finally {
    db.close();
  }
});

Deno.test("without amcheck (a role that may not install it) the check says not_applicable, and the deep health check says so", async () => {
  // DROP DATABASE … WITH (FORCE) waits for the dropped database's backends to go: on a loaded
  // machine that outlasts the default 5 s statement bound, which is not what this tests.
  const admin = new PgDatabase(TEST_DATABASE_URL, {
    schema: null,
    pool: { size: 2, statementTimeoutMs: 60_000 },
  });
  const suffix = crypto.randomUUID().replaceAll("-", "").slice(0, 12);
  const role = `hermes_plain_${suffix}`;
  const database = `hermes_plain_${suffix}`;
  await admin.run(sql.raw(`CREATE ROLE ${role} LOGIN`));
  await admin.run(sql.raw(`CREATE DATABASE ${database} OWNER ${role} TEMPLATE template0`));
  const url = new URL(TEST_DATABASE_URL);
  url.username = role;
  url.pathname = `/${database}`;
  const db = new PgDatabase(url.toString(), { schema: null, migrate: true });
  try {
    await db.ready();
    const verdict = await checkIntegrity(db);
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
    await db.close(); // its pool ends; DROP … WITH (FORCE) cuts whatever is left
    await admin.run(sql.raw(`DROP DATABASE ${database} WITH (FORCE)`));
    await admin.run(sql.raw(`DROP ROLE ${role}`));
    await admin.close();
  }
});
