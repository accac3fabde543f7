import { deepStrictEqual as assertEquals, ok, strictEqual, throws } from "node:assert/strict";
import { join } from "node:path";
import { MIGRATIONS, openDatabaseAt, transaction } from "../../lib/storage/db.ts";

async function tempDir(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "hermes-db-" });
}

Deno.test("openDatabaseAt() migrates to the latest user_version with WAL and foreign keys on", async () => {
  const dir = await tempDir();
  try {
    const path = join(dir, "t.db");
    const db = openDatabaseAt(path);
    const pragma = (name: string) => Object.values(db.prepare(`PRAGMA ${name}`).get()!)[0];
    // The suite runs on both backends (HERMES_DATABASE_URL): one history, one version number;
    // WAL, foreign keys and the busy timeout are SQLite's switches (PostgreSQL has them built in).
    const latest = MIGRATIONS.length;
    strictEqual(pragma("user_version"), latest);
    if (db.backend === "sqlite") {
      strictEqual(pragma("journal_mode"), "wal");
      strictEqual(pragma("foreign_keys"), 1);
      strictEqual(pragma("busy_timeout"), 5000);
    }
    db.prepare(
      "INSERT INTO sessions (session_id, workspace, created_at, updated_at) VALUES ('abcabcabcabc', '/w', 1, 1)",
    ).run();
    db.close();
    // Reopening an up-to-date database runs no migration again and keeps the data.
    const again = openDatabaseAt(path);
    const { n } = again.prepare("SELECT count(*) AS n FROM sessions").get() as { n: number };
    strictEqual(n, 1);
    strictEqual(Object.values(again.prepare("PRAGMA user_version").get()!)[0], latest);
    again.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("foreign keys reject a message for a session that does not exist", () => {
  const db = openDatabaseAt(":memory:");
  try {
    throws(() =>
      db.prepare(
        "INSERT INTO messages (session_id, idx, role, content, timestamp) VALUES ('nope', 0, 'user', 'x', 1)",
      ).run()
    );
  } finally {
    db.close();
  }
});

Deno.test("transaction() commits together or not at all, and nests", () => {
  const db = openDatabaseAt(":memory:");
  try {
    const insert = (k: string) =>
      db.prepare("INSERT INTO settings (key, value) VALUES (?, '1')").run(k);
    const keys = () =>
      (db.prepare("SELECT key FROM settings ORDER BY key").all() as Array<{ key: string }>).map(
        (r) => r.key,
      );
    throws(() =>
      transaction(db, () => {
        insert("a");
        throw new Error("boom");
      }), /boom/);
    assertEquals(keys(), []);
    transaction(db, () => {
      insert("b");
      try {
        transaction(db, () => {
          insert("c");
          throw new Error("inner");
        });
      } catch { /* the inner failure stays local */ }
      insert("d");
    });
    assertEquals(keys(), ["b", "d"]);
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
const clock = () => Date.now() / 1000;
let sid = createSession(db, clock, { workspace: "/w", title: "crash" }).session_id;
let i = 0;
console.log("ready");
while (true) {
  if (i % 25 === 0) sid = createSession(db, clock, { workspace: "/w", title: "crash " + i }).session_id;
  appendMessages(db, clock, sid, [
    { role: "user", content: "question " + i + " " + "x".repeat(i % 400) },
    { role: "assistant", content: "answer " + i, tool_calls: [{ id: "c" + i, type: "function", function: { name: "ls", arguments: "{}" } }] },
    { role: "tool", content: "result " + i, tool_call_id: "c" + i },
  ]);
  if (i % 7 === 0) truncateMessages(db, sid, 1);
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
      // The project's config: the PostgreSQL backend's worker imports its npm client by name.
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
      const integrity = db.prepare("PRAGMA integrity_check").get() as Record<string, string>;
      assertEquals(Object.values(integrity), ["ok"]);
      const sessions = db.prepare(
        `SELECT s.session_id, s.message_count,
                (SELECT count(*) FROM messages m WHERE m.session_id = s.session_id) AS actual,
                (SELECT coalesce(max(idx), -1) FROM messages m WHERE m.session_id = s.session_id) AS max_idx
         FROM sessions s`,
      ).all() as Array<
        { session_id: string; message_count: number; actual: number; max_idx: number }
      >;
      ok(sessions.length > 0, "the writer wrote something");
      const { n: total } = db.prepare("SELECT count(*) AS n FROM messages").get() as { n: number };
      ok(total > 0, "the writer wrote messages");
      for (const s of sessions) {
        strictEqual(s.message_count, s.actual, `message_count of ${s.session_id}`);
        strictEqual(s.max_idx, s.actual - 1, `idx has no gaps in ${s.session_id}`);
      }
      if (db.backend === "sqlite") {
        // Every message is in the search index exactly once (PostgreSQL's index is an
        // expression index on messages itself: nothing to drift).
        const { n: indexed } = db.prepare("SELECT count(*) AS n FROM message_fts").get() as {
          n: number;
        };
        strictEqual(indexed, total);
        db.exec("INSERT INTO message_fts(message_fts) VALUES ('integrity-check')");
      }
    } finally {
      db.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
