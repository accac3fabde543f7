import { deepStrictEqual as assertEquals, match, ok, strictEqual } from "node:assert/strict";
import { createTestApp, type TestApp } from "../helpers.ts";
import { appendMessages } from "../../lib/sessions/messages.ts";
import {
  archiveSession,
  claimActiveStream,
  createSession,
  moveSession,
  pinSession,
  setActiveStream,
} from "../../lib/sessions/sessions.ts";
import { createProject } from "../../lib/sessions/projects.ts";
import { sessionEvents, sessionEventsResponse } from "../../lib/sessions/session_events.ts";
import { allSessionsInBatches } from "../../lib/sessions/session_page.ts";
import { sql, type SqlQuery } from "../../lib/storage/db.ts";

type Row = { session_id: string; title: string; pinned: boolean; updated_at: number };
type Page = {
  sessions: Row[];
  count: number;
  next_cursor: string | null;
  server_time: number;
  server_tz: string;
  archived_count: number;
  groups?: Array<{ key: string; label: string; start: number }>;
};

/** A clock the test moves by hand (a fraction in it, like a real clock). */
function manualClock(start = 1_700_000_000.25) {
  let now = start;
  return { clock: () => now, set: (t: number) => (now = t), tick: (s = 1) => (now += s) };
}

async function withApp(
  fn: (app: TestApp, c: ReturnType<typeof manualClock>) => Promise<void>,
): Promise<void> {
  const c = manualClock();
  const app = await createTestApp({ clock: c.clock });
  try {
    await fn(app, c);
  } finally {
    await app.close();
  }
}

async function seed(app: TestApp, title: string, extra: { project_id?: string | null } = {}) {
  return await createSession(app.ctx.db, app.ctx.clock, {
    workspace: app.workspace,
    title,
    ...extra,
  });
}

async function get(app: TestApp, path: string): Promise<Page> {
  const res = await app.call<Page>("GET", path);
  strictEqual(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

async function walk(
  app: TestApp,
  path: string,
  between?: () => void | Promise<void>,
): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes("?") ? "&" : "?";
    const page = await get(app, cursor ? `${path}${sep}cursor=${cursor}` : path);
    pages.push(page);
    cursor = page.next_cursor;
    await between?.();
  } while (cursor);
  return pages;
}

Deno.test("GET /api/sessions without paging answers every session, newest first, with count, server_time and server_tz", () =>
  withApp(async (app, c) => {
    for (let i = 0; i < 30; i++, c.tick()) await seed(app, `chat ${i}`);
    await createSession(app.ctx.db, app.ctx.clock, { workspace: app.workspace }); // scratch: hidden
    const body = await get(app, "/api/sessions");
    strictEqual(body.sessions.length, 30);
    strictEqual(body.count, 30);
    strictEqual(body.next_cursor, null);
    assertEquals(body.sessions.map((s) => s.title), [...Array(30)].map((_, i) => `chat ${29 - i}`));
    ok(!Number.isInteger(body.server_time), `server_time has a fraction: ${body.server_time}`);
    match(body.server_tz, /^[+-]\d{4}$/);
    strictEqual(body.archived_count, 0);
  }));

Deno.test("allSessionsInBatches() reads every session once, newest first, across equal times and batch ends, archived ones merged in", () =>
  withApp(async (app, c) => {
    const { db } = app.ctx;
    const ids: string[] = [];
    for (let i = 0; i < 17; i++) {
      if (i % 3 === 0) c.tick(); // runs of sessions with the same updated_at
      ids.push((await seed(app, `chat ${i}`)).session_id);
    }
    for (const i of [0, 4, 5, 9, 16]) await archiveSession(db, ids[i], true);
    const rows = (await app.call<Page>("GET", "/api/sessions?archived=all")).body.sessions;
    const expected = [...rows].sort((a, b) =>
      b.updated_at - a.updated_at || (a.session_id < b.session_id ? 1 : -1)
    ).map((r) => r.session_id);
    strictEqual(expected.length, 17);
    for (const archived of ["include", "exclude", "only"] as const) {
      const want = expected.filter((id) =>
        archived === "include" ||
        ([0, 4, 5, 9, 16].includes(ids.indexOf(id)) === (archived === "only"))
      );
      for (const batch of [1, 2, 3, 7, 500]) {
        const got: string[] = [];
        for await (const rows of allSessionsInBatches(db, { archived }, batch)) {
          ok(rows.length > 0 && rows.length <= batch);
          got.push(...rows.map((r) => r.session_id));
        }
        assertEquals(got, want, `${archived}, batches of ${batch}`);
      }
    }
  }));

Deno.test("allSessionsInBatches() shows a session archived while both lists are read once", () =>
  withApp(async (app, c) => {
    const { db } = app.ctx;
    const seeded = async (title: string) => (c.tick(), (await seed(app, title)).session_id);
    const made: string[] = [];
    for (const t of ["z", "c", "y", "s", "x", "a"]) made.push(await seeded(t));
    const [z, cc, y, s, x, a] = made;
    for (const id of [x, y, z]) await archiveSession(db, id, true);
    const batches = allSessionsInBatches(db, { archived: "include" }, 1);
    const next = async () => ((await batches.next()).value as Row[]).map((r) => r.session_id);
    const got = await next();
    // `s` is already read on the unarchived side; the archived side reaches it only now.
    await archiveSession(db, s, true);
    for await (const rows of batches) got.push(...rows.map((r) => r.session_id));
    assertEquals(got, [a, x, s, y, cc, z]);
  }));

Deno.test("GET /api/sessions?limit= pages pinned first by keyset: no session missed or repeated while new ones arrive", () =>
  withApp(async (app, c) => {
    const original: string[] = [];
    for (let i = 0; i < 250; i++) {
      original.push((await seed(app, `old ${i}`)).session_id);
      if (i % 5 === 4) c.tick(); // runs of five share an updated_at: the id breaks the tie
    }
    await pinSession(app.ctx.db, app.ctx.clock, original[3], true);
    await pinSession(app.ctx.db, app.ctx.clock, original[200], true);
    let added = 0;
    const pages = await walk(app, "/api/sessions?limit=40", async () => {
      c.tick();
      for (let k = 0; k < 3; k++) await seed(app, `new ${added++}`); // arrive at the top meanwhile
    });
    const seen = pages.flatMap((p) => p.sessions.map((s) => s.session_id));
    strictEqual(new Set(seen).size, seen.length, "no session is repeated");
    for (const id of original) ok(seen.includes(id), `session ${id} is not missed`);
    assertEquals(seen.slice(0, 2).sort(), [original[3], original[200]].sort(), "pinned first");
    ok(pages.every((p) => p.sessions.length <= 40));
    strictEqual(pages[0].count, 250);
    strictEqual(pages.at(-1)!.count, 250 + added - 3); // the last seeding came after the answer
    // Within the unpinned part, newest first, then the larger id.
    const rest = pages.flatMap((p) => p.sessions).filter((s) => !s.pinned);
    for (let i = 1; i < rest.length; i++) {
      const a = rest[i - 1], b = rest[i];
      if (!seen.slice(0, 40).includes(b.session_id) && a.updated_at === b.updated_at) {
        ok(a.session_id > b.session_id);
      }
    }
  }));

Deno.test("GET /api/sessions filters on the server: project, no project, archived views, profile and tasks", () =>
  withApp(async (app, c) => {
    const p = await createProject(app.ctx.db, app.ctx.clock, { name: "Work" });
    const inP = await seed(app, "in project", { project_id: p.project_id });
    c.tick();
    const loose = await seed(app, "loose");
    c.tick();
    const gone = await seed(app, "archived one");
    await archiveSession(app.ctx.db, gone.session_id, true);
    const ids = (b: Page) => b.sessions.map((s) => s.session_id).sort();

    assertEquals(ids(await get(app, `/api/sessions?project=${p.project_id}`)), [inP.session_id]);
    assertEquals(ids(await get(app, `/api/sessions?limit=10&project=${p.project_id}`)), [
      inP.session_id,
    ]);
    assertEquals(ids(await get(app, "/api/sessions?project=none&limit=10")), [loose.session_id]);
    assertEquals(ids(await get(app, "/api/sessions?archived=1&limit=10")), [gone.session_id]);
    const all = await get(app, "/api/sessions?include_archived=1");
    strictEqual(all.count, 3);
    strictEqual(all.archived_count, 1);
    strictEqual((await get(app, "/api/sessions?archived=all&limit=2")).count, 3);
    const active = await get(app, "/api/sessions?limit=10");
    strictEqual(active.count, 2);
    strictEqual(active.archived_count, 1, "a page carries the archive's total too");
    // Profiles (sessions.profile; NULL is the default profile).
    strictEqual((await get(app, "/api/sessions?limit=10&profile=default")).count, 2);
    await app.ctx.db.run(
      sql`UPDATE sessions SET profile = 'writer' WHERE session_id = ${inP.session_id}`,
    );
    assertEquals(ids(await get(app, "/api/sessions?limit=10&profile=writer")), [inP.session_id]);
    assertEquals(ids(await get(app, "/api/sessions?profile=default")), [loose.session_id]);
    await app.ctx.db.run(sql`UPDATE sessions SET profile = NULL`);
    // Sessions a scheduled task started (sessions.cron_job_id): hidden, alone, or with the rest.
    await app.ctx.db.run(
      sql`UPDATE sessions SET cron_job_id = 'job1' WHERE session_id = ${loose.session_id}`,
    );
    assertEquals(ids(await get(app, "/api/sessions?limit=10&tasks=0")), [inP.session_id]);
    assertEquals(ids(await get(app, "/api/sessions?tasks=only")), [loose.session_id]);
    strictEqual((await get(app, "/api/sessions?limit=10&tasks=1")).count, 2);
    // The counts ride in the page's own statement; a page past the end has no row to carry them.
    // The task session is the newest: past it, the task-only list has nothing left.
    const first = await get(app, "/api/sessions?limit=1&tasks=1");
    strictEqual(first.sessions[0].session_id, loose.session_id);
    const past = await get(
      app,
      `/api/sessions?limit=1&tasks=only&cursor=${encodeURIComponent(first.next_cursor!)}`,
    );
    strictEqual(past.sessions.length, 0);
    strictEqual(past.count, 1);
    strictEqual(past.archived_count, 1);

    for (
      const bad of ["archived=maybe", "limit=0", "limit=501", "limit=ten", "cursor=%%%", "tasks=x"]
    ) {
      const res = await app.call<{ error: string }>("GET", `/api/sessions?${bad}`);
      strictEqual(res.status, 400, bad);
      ok(res.body.error.length > 0);
    }
    const forged = btoa(JSON.stringify([0, 1, "../etc"])).replace(/=+$/, "");
    strictEqual((await app.request("GET", `/api/sessions?cursor=${forged}`)).status, 400);
  }));

Deno.test("GET /api/sessions pages carry group headers that a page boundary never splits or repeats, in the viewer's zone", () =>
  withApp(async (app, c) => {
    const now = 1_700_000_000.25; // 2023-11-14 22:13 UTC
    const at = async (t: number, title: string) => {
      c.set(t);
      return await seed(app, title);
    };
    await at(now - 40 * 86_400, "older a");
    await at(now - 30 * 86_400, "older b");
    await at(now - 3 * 86_400, "week a");
    await at(now - 2.5 * 86_400, "week b");
    await at(now - 86_400, "yesterday a");
    await at(now - 86_000, "yesterday b");
    const evening = await at(now - 8_000, "today 20:00 UTC"); // 23:00 at +0300: yesterday there
    await at(now - 60, "today b");
    const pin = await at(now - 50 * 86_400, "pinned old");
    await pinSession(app.ctx.db, app.ctx.clock, pin.session_id, true);
    c.set(now);

    for (const limit of [1, 2, 3, 4, 10]) {
      const pages = await walk(app, `/api/sessions?limit=${limit}&tz_offset=0`);
      const headers = pages.flatMap((p, n) =>
        p.groups!.map((g) => ({ key: g.key, row: n * limit + g.start }))
      );
      assertEquals(headers.map((h) => h.key), ["pinned", "today", "yesterday", "week", "older"]);
      assertEquals(headers.map((h) => h.row), [0, 1, 3, 5, 7], `limit ${limit}`);
    }
    const first = await get(app, "/api/sessions?limit=10&tz_offset=0");
    assertEquals(first.groups![1], { key: "today", label: "Today", start: 1 });
    // At +0300 it is already the 15th: the 20:00 UTC session was yesterday evening there.
    const east = await get(app, "/api/sessions?limit=10&tz_offset=180");
    const idx = east.sessions.findIndex((s) => s.session_id === evening.session_id);
    const groupAt = (p: Page, i: number) => p.groups!.filter((g) => g.start <= i).at(-1)!.key;
    strictEqual(groupAt(east, idx), "yesterday");
    strictEqual(groupAt(first, idx), "today");
    // The sidebar's cookie says the same when no parameter does.
    const res = await app.call<Page>("GET", "/api/sessions?limit=10", undefined, {
      cookie: "hermes_tz=180",
    });
    assertEquals(res.body.groups, east.groups);
  }));

Deno.test("GET /api/sessions/search returns every match with a count, paged by limit/offset", () =>
  withApp(async (app, c) => {
    for (let i = 0; i < 60; i++, c.tick()) await seed(app, `zeppelin notes ${i}`);
    for (let i = 0; i < 50; i++, c.tick()) {
      const s = await seed(app, `plain ${i}`);
      await appendMessages(app.ctx.db, app.ctx.clock, s.session_id, [
        { role: "user", content: `where is the zeppelin hangar ${i}?` },
      ]);
    }
    for (let i = 0; i < 20; i++, c.tick()) await seed(app, `unrelated ${i}`);
    type Hits = { sessions: Array<Row & { match_type: string }>; count: number };
    const all = (await app.call<Hits>("GET", "/api/sessions/search?q=zeppelin&content=1")).body;
    strictEqual(all.count, 110);
    strictEqual(all.sessions.length, 110);
    strictEqual(all.sessions.filter((s) => s.match_type === "title").length, 60);
    strictEqual(new Set(all.sessions.map((s) => s.session_id)).size, 110);
    const titles = (await app.call<Hits>("GET", "/api/sessions/search?q=zeppelin")).body;
    strictEqual(titles.count, 60);

    const tail = (await app.call<Hits>(
      "GET",
      "/api/sessions/search?q=zeppelin&content=1&limit=50&offset=100",
    )).body;
    strictEqual(tail.count, 110);
    assertEquals(
      tail.sessions.map((s) => s.session_id),
      all.sessions.slice(100).map((s) => s.session_id),
    );
    const past = (await app.call<Hits>(
      "GET",
      "/api/sessions/search?q=zeppelin&content=1&offset=500",
    )).body;
    assertEquals([past.sessions.length, past.count], [0, 110], "past the end: no rows, the total");
    for (const bad of ["limit=0", "limit=1001", "offset=-1", "limit=x"]) {
      strictEqual(
        (await app.request("GET", `/api/sessions/search?q=zeppelin&${bad}`)).status,
        400,
        bad,
      );
    }
  }));

/** Read SSE frames from `res` until `want` named events arrived (or the stream ends). */
async function readEvents(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  want: number,
): Promise<Array<{ reason: string; session_id?: string; version: number }>> {
  const dec = new TextDecoder();
  let text = "";
  const out: Array<{ reason: string; session_id?: string; version: number }> = [];
  while (out.length < want) {
    const { value, done } = await reader.read();
    if (done) break;
    text += dec.decode(value);
    let i;
    while ((i = text.indexOf("\n\n")) >= 0) {
      const frame = text.slice(0, i);
      text = text.slice(i + 2);
      if (!frame.includes("event: sessions_changed")) continue;
      const data = frame.split("\n").find((l) => l.startsWith("data: "))!.slice(6);
      out.push(JSON.parse(data));
    }
  }
  return out;
}

Deno.test("GET /api/sessions/events streams sessions_changed on create, rename, pin, archive, move, delete and run start/end", () =>
  withApp(async (app) => {
    const res = await app.request("GET", "/api/sessions/events");
    strictEqual(res.status, 200);
    match(res.headers.get("content-type") ?? "", /^text\/event-stream/);
    const reader = res.body!.getReader();
    const { session } = (await app.call<{ session: Row }>("POST", "/api/session/new", {})).body;
    const sid = session.session_id;
    const p = await createProject(app.ctx.db, app.ctx.clock, { name: "P" });
    await app.call("POST", "/api/session/rename", { session_id: sid, title: "Named" });
    await app.call("POST", "/api/session/pin", { session_id: sid, pinned: true });
    await app.call("POST", "/api/session/archive", { session_id: sid, archived: true });
    await app.call("POST", "/api/session/move", { session_id: sid, project_id: p.project_id });
    await claimActiveStream(app.ctx.db, sid, "a".repeat(32));
    await setActiveStream(app.ctx.db, sid, null);
    await app.call("POST", "/api/session/delete", { session_id: sid });
    const events = await readEvents(reader, 8);
    await reader.cancel();
    assertEquals(events.map((e) => e.reason), [
      "create",
      "rename",
      "pin",
      "archive",
      "move",
      "run_start",
      "run_end",
      "delete",
    ]);
    ok(events.every((e) => e.session_id === sid));
    ok(events.every((e, i) => i === 0 || e.version > events[i - 1].version));
  }));

Deno.test("GET /api/sessions/events: 100 connections opened and closed leave no subscriber behind", () =>
  withApp(async (app) => {
    const hub = sessionEvents(app.ctx.db);
    const readers: ReadableStreamDefaultReader<Uint8Array>[] = [];
    for (let i = 0; i < 100; i++) {
      const res = await app.request("GET", "/api/sessions/events");
      const reader = res.body!.getReader();
      await reader.read(); // ": connected"
      readers.push(reader);
    }
    strictEqual(hub.subscriberCount(), 100);
    for (const reader of readers) await reader.cancel(); // the client goes away
    strictEqual(hub.subscriberCount(), 0);
    // A stream ended by the server (shutdown) unsubscribes too.
    const last = (await app.request("GET", "/api/sessions/events")).body!.getReader();
    strictEqual(hub.subscriberCount(), 1);
    hub.close();
    strictEqual(hub.subscriberCount(), 0);
    await last.read(); // ": connected"
    strictEqual((await last.read()).done, true);
    await seed(app, "after everyone left"); // publishing to nobody is fine
  }));

Deno.test("sessionEventsResponse() sends a keep-alive comment while idle", async () => {
  const db = (await import("../../lib/storage/db.ts")).openDatabaseAt(":memory:");
  const hub = sessionEvents(db);
  const res = sessionEventsResponse(hub, { keepAliveMs: 20 });
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let text = "";
  while (!text.includes(": keepalive")) text += dec.decode((await reader.read()).value);
  await reader.cancel();
  strictEqual(hub.subscriberCount(), 0);
  db.close();
});

Deno.test("the total a page carries stays exact through every kind of change", () =>
  withApp(async (app, c) => {
    const db = app.ctx.db;
    const p = await createProject(db, app.ctx.clock, { name: "P" });
    const q = await createProject(db, app.ctx.clock, { name: "Q" });
    const brute = async (where: SqlQuery) =>
      Number(
        (await db.get<{ n: number | string }>(
          sql`SELECT count(*) AS n FROM sessions WHERE ${where} AND NOT (message_count = 0 AND
              title = 'Untitled' AND active_stream_id IS NULL)`,
        ))?.n,
      );
    const check = async (step: string) => {
      strictEqual(
        (await get(app, "/api/sessions?limit=1")).count,
        await brute(sql`archived = 0`),
        step,
      );
      strictEqual(
        (await get(app, "/api/sessions?limit=1&archived=1")).count,
        await brute(sql`archived = 1`),
        step,
      );
      strictEqual(
        (await get(app, "/api/sessions?limit=1&archived=all")).count,
        await brute(sql`1 = 1`),
        step,
      );
      strictEqual(
        (await get(app, `/api/sessions?limit=1&project=${p.project_id}`)).count,
        await brute(sql`archived = 0 AND project_id = ${p.project_id}`),
        step,
      );
      strictEqual(
        (await get(app, "/api/sessions?limit=1&project=none")).count,
        await brute(sql`archived = 0 AND project_id IS NULL`),
        step,
      );
    };
    const made = [];
    for (let i = 0; i < 6; i++, c.tick()) {
      made.push(await seed(app, `s${i}`, { project_id: p.project_id }));
    }
    const scratch = await createSession(db, app.ctx.clock, { workspace: app.workspace });
    await check("created");
    await appendMessages(db, app.ctx.clock, scratch.session_id, [{ role: "user", content: "hi" }]);
    await check("a scratch session got a message");
    await claimActiveStream(
      db,
      (await createSession(db, app.ctx.clock, { workspace: app.workspace })).session_id,
      "b".repeat(32),
    );
    await check("a run started in an empty session");
    await archiveSession(db, made[0].session_id, true);
    await moveSession(db, made[1].session_id, q.project_id);
    await moveSession(db, made[2].session_id, null);
    await check("archived and moved");
    await app.call("POST", "/api/session/rename", { session_id: made[3].session_id, title: "" });
    await app.call("POST", "/api/session/clear", { session_id: made[3].session_id });
    await check("cleared and unnamed: hidden");
    await app.call("POST", "/api/projects/delete", { project_id: p.project_id });
    await check("project deleted");
    await app.call("POST", "/api/session/delete", { session_id: made[4].session_id });
    await app.call("POST", "/api/session/delete", { session_id: made[0].session_id });
    await check("deleted");
  }));

Deno.test("moveSession() and archiveSession() keep updated_at, so paging order holds", () =>
  withApp(async (app, c) => {
    const a = await seed(app, "a");
    c.tick();
    const b = await seed(app, "b");
    c.tick();
    await moveSession(app.ctx.db, a.session_id, null);
    await archiveSession(app.ctx.db, b.session_id, false);
    const page = await get(app, "/api/sessions?limit=1");
    strictEqual(page.sessions[0].session_id, b.session_id);
    strictEqual(
      (await get(app, `/api/sessions?limit=1&cursor=${page.next_cursor}`)).sessions[0]
        .session_id,
      a.session_id,
    );
  }));

Deno.test("GET / renders the sidebar's first page; /partials/sidebar?cursor= the next ones, a header only where a group starts", () =>
  withApp(async (app, c) => {
    const now = 1_700_000_000.25;
    for (let i = 0; i < 200; i++) {
      c.set(now - 40 * 86_400 + i * 60); // 200 old sessions, one minute apart: all "Older"
      await seed(app, `old ${i}`);
    }
    for (let i = 0; i < 5; i++) {
      c.set(now - 100 + i);
      await seed(app, `today ${i}`);
    }
    c.set(now);
    const page = await (await app.request("GET", "/?tz_offset=0")).text();
    const rows = (html: string) =>
      [...html.matchAll(/class="session-row" data-session-id="(\w+)"/g)].map((m) => m[1]);
    const labels = (html: string) =>
      [...html.matchAll(/class="session-group-label">([^<]+)</g)].map((m) => m[1]);
    strictEqual(rows(page).length, 80);
    assertEquals(labels(page), ["Today", "Older"]);
    const cursorOf = (html: string) => /data-next-cursor="([^"]*)"/.exec(html)?.[1] ?? "";
    match(page, /data-count="205"/);

    const seen = rows(page);
    const allLabels = labels(page);
    let cursor = cursorOf(page);
    while (cursor) {
      const frag =
        await (await app.request("GET", `/partials/sidebar?tz_offset=0&cursor=${cursor}`)).text();
      ok(frag.startsWith("<div data-sidebar-page"), frag.slice(0, 80));
      seen.push(...rows(frag));
      allLabels.push(...labels(frag));
      cursor = cursorOf(frag);
    }
    strictEqual(seen.length, 205);
    strictEqual(new Set(seen).size, 205);
    assertEquals(allLabels, ["Today", "Older"], "no header repeated across pages");
  }));

Deno.test("the sidebar's search shows the first 100 matches and says how many there are", () =>
  withApp(async (app, c) => {
    for (let i = 0; i < 130; i++, c.tick()) await seed(app, `zeppelin ${i}`);
    const frag = await (await app.request("GET", "/partials/sidebar?q=zeppelin")).text();
    match(frag, /<h2 class="session-group-label">100 of 130 results<\/h2>/);
    strictEqual([...frag.matchAll(/class="session-row"/g)].length, 100);
  }));
