import { deepStrictEqual as assertEquals, ok, rejects, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { type Db, MIGRATIONS, openDatabaseAt, sql } from "../../lib/storage/db.ts";
import { checkIntegrity } from "../../lib/storage/integrity.ts";

async function tempDir(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "hermes-db-" });
}

/** One PRAGMA's value (SQLite). */
async function pragma(db: Db, name: string): Promise<unknown> {
  return Object.values(await db.get(sql.raw(`PRAGMA ${name}`)) ?? {})[0];
}

/** The schema history's version the database is at, on either backend. */
async function schemaVersion(db: Db): Promise<number> {
  if (db.backend === "sqlite") return Number(await pragma(db, "user_version"));
  const row = await db.get<{ version: number }>(sql`SELECT version FROM hermes_schema_version`);
  return Number(row?.version);
}

Deno.test("openDatabaseAt() migrates to the latest user_version with WAL and foreign keys on", async () => {
  const dir = await tempDir();
  try {
    const path = join(dir, "t.db");
    const db = openDatabaseAt(path);
    await db.ready();
    // The suite runs on both backends (HERMES_DATABASE_URL): one history, one version number;
    // WAL, foreign keys and the busy timeout are SQLite's switches (PostgreSQL has them built in).
    const latest = MIGRATIONS.length;
    strictEqual(await schemaVersion(db), latest);
    if (db.backend === "sqlite") {
      strictEqual(await pragma(db, "journal_mode"), "wal");
      strictEqual(await pragma(db, "foreign_keys"), 1);
      strictEqual(await pragma(db, "busy_timeout"), 5000);
    }
    await db.run(
      sql`INSERT INTO sessions (session_id, workspace, created_at, updated_at)
          VALUES ('abcabcabcabc', '/w', 1, 1)`,
    );
    db.close();
    // Reopening an up-to-date database runs no migration again and keeps the data.
    const again = openDatabaseAt(path);
    const counted = await again.get<{ n: number }>(sql`SELECT count(*) AS n FROM sessions`);
    strictEqual(Number(counted?.n), 1);
    strictEqual(await schemaVersion(again), latest);
    again.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ready() resolves once the database can be used; a handle's owner is its database", async () => {
  const db = openDatabaseAt(":memory:");
  try {
    await db.ready();
    strictEqual(db.owner, db);
    await db.transaction(async (tx) => {
      strictEqual(tx.owner, db, "a transaction's owner is the database it runs on");
      await tx.transaction((inner) => Promise.resolve(strictEqual(inner.owner, db)));
    });
  } finally {
    db.close();
  }
});

Deno.test("foreign keys reject a message for a session that does not exist", async () => {
  const db = openDatabaseAt(":memory:");
  try {
    await rejects(
      db.run(
        sql`INSERT INTO messages (session_id, idx, role, content, timestamp)
            VALUES ('nope', 0, 'user', 'x', 1)`,
      ),
    );
  } finally {
    db.close();
  }
});

Deno.test("transaction() commits together or not at all, and nests", async () => {
  const db = openDatabaseAt(":memory:");
  try {
    const insert = (q: Pick<Db, "run">, k: string) =>
      q.run(sql`INSERT INTO settings (key, value) VALUES (${k}, '1')`);
    const keys = async () =>
      (await db.all<{ key: string }>(sql`SELECT key FROM settings ORDER BY key`)).map(
        (r) => r.key,
      );
    await rejects(
      db.transaction(async (tx) => {
        await insert(tx, "a");
        throw new Error("boom");
      }),
      /boom/,
    );
    assertEquals(await keys(), []);
    await db.transaction(async (tx) => {
      await insert(tx, "b");
      try {
        await tx.transaction(async (inner) => {
          await insert(inner, "c");
          throw new Error("inner");
        });
      } catch { /* the inner failure stays local */ }
      await insert(tx, "d");
    });
    assertEquals(await keys(), ["b", "d"]);
  } finally {
    db.close();
  }
});

/** The child writes sessions and turns in a tight loop until it is killed. */
const WRITER = `
import { openDatabaseAt } from ${
  JSON.stringify(new URL("../../lib/storage/db.ts", import.meta.url).href)
};
import { createSession } from ${
  JSON.stringify(new URL("../../lib/sessions/sessions.ts", import.meta.url).href)
};
import { appendMessages, truncateMessages } from ${
  JSON.stringify(new URL("../../lib/sessions/messages.ts", import.meta.url).href)
};
const db = openDatabaseAt(Deno.args[0]);
await db.ready();
const clock = () => Date.now() / 1000;
let sid = (await createSession(db, clock, { workspace: "/w", title: "crash" })).session_id;
let i = 0;
console.log("ready");
while (true) {
  if (i % 25 === 0) sid = (await createSession(db, clock, { workspace: "/w", title: "crash " + i })).session_id;
  await appendMessages(db, clock, sid, [
    { role: "user", content: "question " + i + " " + "x".repeat(i % 400) },
    { role: "assistant", content: "answer " + i, tool_calls: [{ id: "c" + i, type: "function", function: { name: "ls", arguments: "{}" } }] },
    { role: "tool", content: "result " + i, tool_call_id: "c" + i },
  ]);
  if (i % 7 === 0) await truncateMessages(db, sid, 1);
  i++;
}
`;

Deno.test("a writer killed with SIGKILL mid-writes leaves a consistent database", async () => {
  const dir = await tempDir();
  try {
    const script = join(dir, "writer.ts");
    const dbPath = join(dir, "crash.db");
    await Deno.writeTextFile(script, WRITER);
    const child = new Deno.Command(Deno.execPath(), {
      // The project's config: the storage imports its npm clients (kysely, postgres) by name.
      args: [
        "run",
        "-A",
        "--no-check",
        "--config",
        new URL("../../deno.json", import.meta.url).pathname,
        script,
        dbPath,
      ],
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    // Wait until the writer is in its loop, let it write for a while, then kill it hard.
    const reader = child.stdout.getReader();
    const first = await reader.read();
    ok(new TextDecoder().decode(first.value).includes("ready"));
    await new Promise((r) => setTimeout(r, 400));
    child.kill("SIGKILL");
    const status = await child.status;
    strictEqual(status.signal, "SIGKILL");
    reader.releaseLock();
    await child.stdout.cancel();
    await child.stderr.cancel();

    const db = openDatabaseAt(dbPath);
    try {
      assertEquals(await checkIntegrity(db, true), "ok");
      const sessions = await db.all<
        { session_id: string; message_count: number; actual: number; max_idx: number }
      >(
        sql`SELECT s.session_id, s.message_count,
                (SELECT count(*) FROM messages m WHERE m.session_id = s.session_id) AS actual,
                (SELECT coalesce(max(idx), -1) FROM messages m
                 WHERE m.session_id = s.session_id) AS max_idx
            FROM sessions s`,
      );
      ok(sessions.length > 0, "the writer wrote something");
      const total = Number(
        (await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM messages`))?.n,
      );
      ok(total > 0, "the writer wrote messages");
      for (const s of sessions) {
        strictEqual(Number(s.message_count), Number(s.actual), `message_count of ${s.session_id}`);
        strictEqual(Number(s.max_idx), Number(s.actual) - 1, `idx has no gaps in ${s.session_id}`);
      }
      if (db.backend === "sqlite") {
        // Every message is in the search index exactly once (PostgreSQL's index is an
        // expression index on messages itself: nothing to drift).
        const indexed = await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM message_fts`);
        strictEqual(indexed?.n, total);
        await db.run(sql`INSERT INTO message_fts(message_fts) VALUES ('integrity-check')`);
      }
    } finally {
      db.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
