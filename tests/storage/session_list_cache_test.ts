// The unpaged session list is serialized once and reused until the sessions table changes
// (lib/sessions/session_list_cache.ts, storage migration 16). Every kind of change — a new
// session, a rename, a pin, an archive, a message appended, a delete, a raw SQL update no
// code path announced — shows in the next answer; an unchanged table is answered from the cache.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { createTestApp, serveTestApp } from "../helpers.ts";
import { sql } from "../../lib/storage/db.ts";
import { appendMessages } from "../../lib/sessions/messages.ts";
import {
  archiveSession,
  createSession,
  deleteSession,
  pinSession,
  renameSession,
} from "../../lib/sessions/sessions.ts";
import { sessionListChunks, sessionsGeneration } from "../../lib/sessions/session_list_cache.ts";
import {
  allSessionsInBatches,
  countSessions,
  parseSessionFilter,
} from "../../lib/sessions/session_page.ts";

type Row = { session_id: string; title: string; pinned: boolean; message_count: number };

Deno.test("GET /api/sessions (unpaged) shows every change to the sessions table, cached or not", async () => {
  const app = await createTestApp();
  try {
    const { db, clock } = app.ctx;
    const list = async () =>
      (await app.call<{ sessions: Row[]; count: number }>("GET", "/api/sessions")).body.sessions;
    const ids: string[] = [];
    for (let i = 0; i < 600; i++) {
      ids.push(
        (await createSession(db, clock, { workspace: app.workspace, title: `s${i}` })).session_id,
      );
    }
    strictEqual((await list()).length, 600);
    deepStrictEqual(await list(), await list(), "unchanged table: the same answer");
    // Over real HTTP too: writing cached chunks to a socket leaves them whole for the next answer.
    const http = serveTestApp(app);
    try {
      const bodies = [];
      for (let i = 0; i < 3; i++) {
        bodies.push((await (await fetch(`${http.url}/api/sessions`)).json()).sessions);
      }
      deepStrictEqual(bodies[2], bodies[0]);
      strictEqual(bodies[2].length, 600);
    } finally {
      await http.shutdown();
    }

    const extra = await createSession(db, clock, { workspace: app.workspace, title: "fresh" });
    strictEqual((await list()).find((r) => r.session_id === extra.session_id)?.title, "fresh");

    await renameSession(db, clock, ids[10], "renamed");
    strictEqual((await list()).find((r) => r.session_id === ids[10])?.title, "renamed");

    await pinSession(db, clock, ids[20], true);
    strictEqual((await list()).find((r) => r.session_id === ids[20])?.pinned, true);

    await archiveSession(db, ids[30], true);
    strictEqual((await list()).some((r) => r.session_id === ids[30]), false);

    await appendMessages(db, clock, ids[40], [{ role: "user", content: "hello" }]);
    strictEqual((await list()).find((r) => r.session_id === ids[40])?.message_count, 1);

    await deleteSession(db, app.ctx.config.stateDir, ids[50]);
    strictEqual((await list()).some((r) => r.session_id === ids[50]), false);

    await db.run(sql`UPDATE sessions SET title = 'by sql' WHERE session_id = ${ids[60]}`);
    strictEqual((await list()).find((r) => r.session_id === ids[60])?.title, "by sql");

    const archived = await app.call<{ sessions: Row[] }>("GET", "/api/sessions?archived=1");
    deepStrictEqual(
      archived.body.sessions.map((r) => r.session_id),
      [ids[30]],
      "another filter, its own list",
    );
    strictEqual(
      (await list()).length,
      600 - 1 + 1 - 1,
      "and back: 600 + fresh − archived − deleted",
    );
  } finally {
    await app.close();
  }
});

Deno.test("the list is read once per generation, and a change during a read is not kept", async () => {
  const app = await createTestApp();
  try {
    const { db, clock } = app.ctx;
    for (let i = 0; i < 5; i++) {
      await createSession(db, clock, { workspace: app.workspace, title: `t${i}` });
    }
    const filter = parseSessionFilter(new URLSearchParams());
    let reads = 0;
    const source = {
      count: () => countSessions(db, filter),
      batches: () => (reads++, allSessionsInBatches(db, filter, 2)),
    };
    const drain = async (chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>) => {
      const parts: string[] = [];
      for await (const ch of chunks) parts.push(new TextDecoder().decode(ch));
      return parts.join(",");
    };
    const first = await drain((await sessionListChunks(db, "k", source)).chunks);
    strictEqual(await drain((await sessionListChunks(db, "k", source)).chunks), first);
    strictEqual(reads, 1, "the second answer came from the cache");

    // A write between two batches of a read: that read's result is not kept.
    const g = await sessionsGeneration(db);
    const racing = (await sessionListChunks(db, "other", source)).chunks as AsyncIterable<
      Uint8Array
    >;
    const it = racing[Symbol.asyncIterator]();
    await it.next();
    await createSession(db, clock, { workspace: app.workspace, title: "during" });
    for (let r = await it.next(); !r.done; r = await it.next()) { /* the rest of the list */ }
    strictEqual(await sessionsGeneration(db) > g, true);
    await drain((await sessionListChunks(db, "other", source)).chunks);
    strictEqual(reads, 3, "re-read after the racing write, not served stale");
  } finally {
    await app.close();
  }
});
