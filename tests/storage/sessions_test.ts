import {
  deepStrictEqual as assertEquals,
  match,
  ok,
  rejects,
  strictEqual,
} from "node:assert/strict";
import { join } from "node:path";
import { createTestApp, type TestApp } from "../helpers.ts";
import {
  appendMessages,
  listMessages,
  type NewMessage,
  truncateMessages,
  updateMessage,
} from "../../lib/sessions/messages.ts";
import {
  addUsage,
  claimActiveStream,
  clearActiveStreams,
  getSession,
  normalizeTitle,
  setActiveStream,
} from "../../lib/sessions/sessions.ts";
import { NotFoundError } from "../../lib/errors.ts";
import { sql } from "../../lib/storage/db.ts";

type Json = Record<string, unknown>;
type Session = Json & { session_id: string; messages?: Json[] };

/** A clock the test moves by hand, so updated_at comparisons are exact. */
function manualClock(start = 1_700_000_000) {
  let now = start;
  const clock = () => now;
  return { clock, tick: (s = 1) => (now += s) };
}

async function newSession(app: TestApp, body: Json = {}): Promise<Session> {
  const { status, body: res } = await app.call<{ session: Session }>(
    "POST",
    "/api/session/new",
    body,
  );
  strictEqual(status, 200, JSON.stringify(res));
  return res.session;
}

async function addTurn(app: TestApp, sid: string, user: string, assistant = `re: ${user}`) {
  return await appendMessages(app.ctx.db, app.ctx.clock, sid, [
    { role: "user", content: user },
    { role: "assistant", content: assistant },
  ]);
}

async function withApp(
  fn: (app: TestApp, tick: (s?: number) => number) => Promise<void>,
): Promise<void> {
  const { clock, tick } = manualClock();
  const app = await createTestApp({ clock });
  try {
    await fn(app, tick);
  } finally {
    await app.close();
  }
}

Deno.test("POST /api/session/new creates an empty Untitled session in the default workspace", () =>
  withApp(async (app) => {
    const s = await newSession(app);
    match(s.session_id, /^[0-9a-f]{12}$/);
    strictEqual(s.title, "Untitled");
    strictEqual(s.workspace, await Deno.realPath(app.workspace));
    assertEquals(s.messages, []);
    strictEqual(s.message_count, 0);
    strictEqual(s.pinned, false);
    strictEqual(s.archived, false);
    strictEqual(s.is_streaming, false);
    strictEqual(s.active_stream_id, null);
    strictEqual(s.project_id, null);
    for (
      const key of ["created_at", "updated_at", "input_tokens", "output_tokens", "model"]
    ) ok(key in s, `missing ${key}`);
  }));

Deno.test("POST /api/session/new accepts a model and a workspace under the home dir", () =>
  withApp(async (app) => {
    const sub = join(app.workspace, "..", "elsewhere");
    await Deno.mkdir(sub);
    const s = await newSession(app, { model: "gpt-x", model_provider: "openai", workspace: sub });
    strictEqual(s.model, "gpt-x");
    strictEqual(s.model_provider, "openai");
    strictEqual(s.workspace, await Deno.realPath(sub));
  }));

Deno.test("POST /api/session/new refuses untrusted, missing and non-directory workspaces", () =>
  withApp(async (app) => {
    const outside = await Deno.makeTempDir({ prefix: "hermes-outside-" });
    try {
      for (const workspace of ["/etc", outside, join(app.workspace, "nope"), "relative/dir"]) {
        const res = await app.call("POST", "/api/session/new", { workspace });
        strictEqual(res.status, 400, `${workspace}: ${JSON.stringify(res.body)}`);
        ok(typeof res.body.error === "string");
      }
      const file = join(app.workspace, "f.txt");
      await Deno.writeTextFile(file, "x");
      strictEqual((await app.call("POST", "/api/session/new", { workspace: file })).status, 400);
      // A symlink under home that points outside is judged by its real path.
      const link = join(app.workspace, "link-out");
      await Deno.symlink(outside, link);
      strictEqual((await app.call("POST", "/api/session/new", { workspace: link })).status, 400);
      // Once registered, the outside directory is trusted.
      const add = await app.call("POST", "/api/workspaces/add", { path: outside });
      strictEqual(add.status, 200, JSON.stringify(add.body));
      const s = await newSession(app, { workspace: outside });
      strictEqual(s.workspace, await Deno.realPath(outside));
    } finally {
      await Deno.remove(outside, { recursive: true });
    }
  }));

Deno.test("POST /api/session/new: invalid JSON and wrong field types are 400s", () =>
  withApp(async (app) => {
    const bad = await app.call("POST", "/api/session/new", "{not json", {
      "content-type": "application/json",
    });
    strictEqual(bad.status, 400);
    match(String(bad.body.error), /Invalid JSON/);
    const wrong = await app.call("POST", "/api/session/new", { model: 42 });
    strictEqual(wrong.status, 400);
    match(String(wrong.body.error), /model/);
  }));

Deno.test("POST /api/session/new applies the project's default workspace and model", () =>
  withApp(async (app) => {
    const ws = join(app.workspace, "proj-ws");
    await Deno.mkdir(ws);
    const { body: created } = await app.call<{ project: Json }>("POST", "/api/projects/create", {
      name: "Work",
    });
    const pid = created.project.project_id as string;
    const bind = await app.call("POST", "/api/projects/bind", {
      project_id: pid,
      workspaces: [ws],
      model: "claude-x",
      model_provider: "anthropic",
    });
    strictEqual(bind.status, 200, JSON.stringify(bind.body));
    const s = await newSession(app, { project_id: pid });
    strictEqual(s.project_id, pid);
    strictEqual(s.workspace, await Deno.realPath(ws));
    strictEqual(s.model, "claude-x");
    strictEqual(s.model_provider, "anthropic");
    // An explicit request wins over the binding.
    const s2 = await newSession(app, { project_id: pid, workspace: app.workspace, model: "m2" });
    strictEqual(s2.workspace, await Deno.realPath(app.workspace));
    strictEqual(s2.model, "m2");
    strictEqual(s2.model_provider, null);
    const missing = await app.call("POST", "/api/session/new", { project_id: "000000000000" });
    strictEqual(missing.status, 404);
  }));

Deno.test("GET /api/session returns the full session; no id → 400, unknown → 404", () =>
  withApp(async (app) => {
    const s = await newSession(app);
    await addTurn(app, s.session_id, "hello");
    const { status, body } = await app.call<{ session: Session }>(
      "GET",
      `/api/session?session_id=${s.session_id}`,
    );
    strictEqual(status, 200);
    strictEqual(body.session.message_count, 2);
    assertEquals(body.session.messages!.map((m) => [m.role, m.content, m.idx]), [
      ["user", "hello", 0],
      ["assistant", "re: hello", 1],
    ]);
    assertEquals(body.session.tool_calls, []);
    strictEqual((await app.call("GET", "/api/session")).status, 400);
    const unknown = await app.call("GET", "/api/session?session_id=abcdefabcdef");
    strictEqual(unknown.status, 404);
    ok(typeof unknown.body.error === "string");
    const meta = await app.call<{ session: Session }>(
      "GET",
      `/api/session?session_id=${s.session_id}&messages=0`,
    );
    strictEqual(meta.body.session.messages, undefined);
    strictEqual(meta.body.session.message_count, 2);
  }));

Deno.test("GET /api/session pages with msg_limit (last N) and msg_before", () =>
  withApp(async (app) => {
    const s = await newSession(app);
    for (let i = 0; i < 5; i++) await addTurn(app, s.session_id, `q${i}`); // 10 messages
    const page = async (qs: string) =>
      (await app.call<{ session: Session }>("GET", `/api/session?session_id=${s.session_id}${qs}`))
        .body.session;
    const last3 = await page("&msg_limit=3");
    assertEquals(last3.messages!.map((m) => m.idx), [7, 8, 9]);
    strictEqual(last3._messages_truncated, true);
    strictEqual(last3._messages_offset, 7);
    strictEqual(last3.message_count, 10);
    const older = await page("&msg_limit=3&msg_before=7");
    assertEquals(older.messages!.map((m) => m.idx), [4, 5, 6]);
    strictEqual(older._messages_offset, 4);
    const first = await page("&msg_limit=500&msg_before=2");
    assertEquals(first.messages!.map((m) => m.idx), [0, 1]);
    strictEqual(first._messages_truncated, false);
    strictEqual(first._messages_offset, 0);
    const all = await page("&msg_limit=500");
    strictEqual(all.messages!.length, 10);
    strictEqual(all._messages_truncated, false);
    for (const bad of ["0", "501", "abc", "2.5", "-1"]) {
      const res = await app.call("GET", `/api/session?session_id=${s.session_id}&msg_limit=${bad}`);
      strictEqual(res.status, 400, `msg_limit=${bad}`);
      match(String(res.body.error), /msg_limit/);
    }
  }));

Deno.test("GET /api/sessions lists newest first and hides empty Untitled sessions", () =>
  withApp(async (app, tick) => {
    const empty = await newSession(app);
    tick();
    const a = await newSession(app);
    await addTurn(app, a.session_id, "a");
    tick();
    const b = await newSession(app);
    await addTurn(app, b.session_id, "b");
    tick();
    const named = await newSession(app);
    await app.call("POST", "/api/session/rename", { session_id: named.session_id, title: "Named" });
    tick();
    await addTurn(app, a.session_id, "a again"); // a becomes the newest
    const { status, body } = await app.call<{ sessions: Session[]; archived_count: number }>(
      "GET",
      "/api/sessions",
    );
    strictEqual(status, 200);
    const ids = body.sessions.map((s) => s.session_id);
    assertEquals(ids, [a.session_id, named.session_id, b.session_id]);
    ok(!ids.includes(empty.session_id));
    strictEqual(body.archived_count, 0);
    strictEqual(typeof (body as Json).server_time, "number");
    ok(!("messages" in body.sessions[0]), "list rows are compact");
  }));

Deno.test("GET /api/sessions leaves archived sessions out unless include_archived=1", () =>
  withApp(async (app) => {
    const s = await newSession(app);
    await addTurn(app, s.session_id, "x");
    const arch = await app.call<{ session: Session }>("POST", "/api/session/archive", {
      session_id: s.session_id,
      archived: true,
    });
    strictEqual(arch.status, 200);
    strictEqual(arch.body.session.archived, true);
    const plain = await app.call<{ sessions: Session[]; archived_count: number }>(
      "GET",
      "/api/sessions",
    );
    assertEquals(plain.body.sessions, []);
    strictEqual(plain.body.archived_count, 1);
    const all = await app.call<{ sessions: Session[] }>("GET", "/api/sessions?include_archived=1");
    assertEquals(all.body.sessions.map((x) => x.session_id), [s.session_id]);
  }));

Deno.test("POST /api/session/rename trims, cuts to 80 chars and turns blank into Untitled", () =>
  withApp(async (app) => {
    const s = await newSession(app);
    const rename = (title: unknown) =>
      app.call<{ session: Session }>("POST", "/api/session/rename", {
        session_id: s.session_id,
        title,
      });
    strictEqual((await rename("  Plan the trip  ")).body.session.title, "Plan the trip");
    const long = "x".repeat(100);
    strictEqual((await rename(long)).body.session.title, "x".repeat(80));
    strictEqual((await rename("   ")).body.session.title, "Untitled");
    strictEqual((await rename(42)).status, 400);
    const missing = await app.call("POST", "/api/session/rename", { session_id: s.session_id });
    strictEqual(missing.status, 400);
    match(String(missing.body.error), /title/);
    const unknown = await app.call("POST", "/api/session/rename", {
      session_id: "ffffffffffff",
      title: "t",
    });
    strictEqual(unknown.status, 404);
  }));

Deno.test("normalizeTitle() counts characters, not UTF-16 units, and drops newlines", () => {
  strictEqual(normalizeTitle("😀".repeat(90)), "😀".repeat(80));
  strictEqual(normalizeTitle("line one\nline two"), "line one line two");
  strictEqual(normalizeTitle(undefined), "Untitled");
});

Deno.test("POST /api/session/delete cascades to every dependent row and the attachments", () =>
  withApp(async (app) => {
    const s = await newSession(app);
    const other = await newSession(app);
    const sid = s.session_id;
    await addTurn(app, sid, "hi");
    await addTurn(app, other.session_id, "keep me");
    const db = app.ctx.db;
    const stream = "a".repeat(32);
    await db.run(
      sql`INSERT INTO streams (stream_id, session_id, turn_id, status, started_at)
          VALUES (${stream}, ${sid}, 't', 'done', 1)`,
    );
    await db.run(
      sql`INSERT INTO stream_events (stream_id, seq, event, data, created_at)
          VALUES (${stream}, 1, 'token', '{}', 1)`,
    );
    await db.run(
      sql`INSERT INTO tool_calls (session_id, tool_call_id, name, status, started_at)
          VALUES (${sid}, 'c1', 'shell', 'completed', 1)`,
    );
    await db.run(
      sql`INSERT INTO approvals (approval_id, seq, session_id, command, description, pattern_key,
       status, created_at) VALUES ('ap1', 1, ${sid}, 'rm', 'd', 'rm', 'pending', 1)`,
    );
    await db.run(
      sql`INSERT INTO session_approvals (session_id, pattern_key) VALUES (${sid}, 'rm')`,
    );
    await db.run(
      sql`INSERT INTO usage (session_id, input_tokens, created_at) VALUES (${sid}, 5, 1)`,
    );
    const attachments = join(app.stateDir, "attachments", sid);
    await Deno.mkdir(attachments, { recursive: true });
    await Deno.writeTextFile(join(attachments, "a.txt"), "x");

    const res = await app.call("POST", "/api/session/delete", { session_id: sid });
    strictEqual(res.status, 200);
    assertEquals(res.body, { ok: true });
    for (
      const table of [
        "sessions",
        "messages",
        "streams",
        "tool_calls",
        "approvals",
        "session_approvals",
        "usage",
      ]
    ) {
      const row = await db.get<{ n: number | string }>(
        sql`SELECT count(*) AS n FROM ${sql.raw(table)} WHERE session_id = ${sid}`,
      );
      strictEqual(Number(row?.n), 0, table);
    }
    const events = await db.get<{ n: number | string }>(
      sql`SELECT count(*) AS n FROM stream_events`,
    );
    strictEqual(Number(events?.n), 0);
    await rejects(Deno.stat(attachments), Deno.errors.NotFound);
    strictEqual((await getSession(db, other.session_id)).message_count, 2);
    // Idempotent: deleting again (or an id that never existed) is still ok.
    strictEqual((await app.call("POST", "/api/session/delete", { session_id: sid })).status, 200);
    // A path is never a session id: refused (400) as in the original, not silently ignored.
    strictEqual(
      (await app.call("POST", "/api/session/delete", { session_id: "../../etc" })).status,
      400,
    );
    strictEqual((await app.call("POST", "/api/session/delete", {})).status, 400);
  }));

Deno.test("POST /api/session/pin caps pins at 3 and leaves updated_at alone", () =>
  withApp(async (app, tick) => {
    const sessions = [];
    for (let i = 0; i < 4; i++) sessions.push(await newSession(app));
    tick(10);
    for (const s of sessions.slice(0, 3)) {
      const res = await app.call<{ ok: boolean; session: Session }>("POST", "/api/session/pin", {
        session_id: s.session_id,
        pinned: true,
      });
      strictEqual(res.status, 200);
      strictEqual(res.body.ok, true);
      strictEqual(res.body.session.pinned, true);
      strictEqual(res.body.session.updated_at, s.updated_at);
    }
    const fourth = await app.call("POST", "/api/session/pin", {
      session_id: sessions[3].session_id,
      pinned: true,
    });
    strictEqual(fourth.status, 400);
    strictEqual(fourth.body.error, "Up to 3 sessions can be pinned");
    // Re-pinning an already pinned session is not a 4th pin.
    const again = await app.call("POST", "/api/session/pin", {
      session_id: sessions[0].session_id,
      pinned: true,
    });
    strictEqual(again.status, 200);
    await app.call("POST", "/api/session/pin", {
      session_id: sessions[0].session_id,
      pinned: false,
    });
    const now = await app.call("POST", "/api/session/pin", {
      session_id: sessions[3].session_id,
      pinned: true,
    });
    strictEqual(now.status, 200);
    const unknown = await app.call("POST", "/api/session/pin", {
      session_id: "123456789abc",
      pinned: true,
    });
    strictEqual(unknown.status, 404);
  }));

Deno.test("POST /api/session/archive does not touch updated_at", () =>
  withApp(async (app, tick) => {
    const s = await newSession(app);
    await addTurn(app, s.session_id, "x");
    const before = (await getSession(app.ctx.db, s.session_id)).updated_at;
    tick(100);
    const res = await app.call<{ ok: boolean; session: Session }>("POST", "/api/session/archive", {
      session_id: s.session_id,
      archived: true,
    });
    strictEqual(res.body.session.updated_at, before);
    const back = await app.call<{ session: Session }>("POST", "/api/session/archive", {
      session_id: s.session_id,
      archived: false,
    });
    strictEqual(back.body.session.archived, false);
    strictEqual(back.body.session.updated_at, before);
    strictEqual(
      (await app.call("POST", "/api/session/archive", {
        session_id: "aaaaaaaaaaaa",
        archived: true,
      }))
        .status,
      404,
    );
  }));

Deno.test("POST /api/session/move files a session under a project; unknown project → 404", () =>
  withApp(async (app) => {
    const s = await newSession(app);
    const { body } = await app.call<{ project: Json }>("POST", "/api/projects/create", {
      name: "P",
    });
    const pid = body.project.project_id;
    const moved = await app.call<{ ok: boolean; session: Session }>("POST", "/api/session/move", {
      session_id: s.session_id,
      project_id: pid,
    });
    strictEqual(moved.status, 200);
    strictEqual(moved.body.session.project_id, pid);
    const unknown = await app.call("POST", "/api/session/move", {
      session_id: s.session_id,
      project_id: "0123456789ab",
    });
    strictEqual(unknown.status, 404);
    match(String(unknown.body.error), /Project/);
    const out = await app.call<{ session: Session }>("POST", "/api/session/move", {
      session_id: s.session_id,
      project_id: null,
    });
    strictEqual(out.body.session.project_id, null);
    strictEqual(
      (await app.call("POST", "/api/session/move", {
        session_id: "0123456789ab",
        project_id: null,
      }))
        .status,
      404,
    );
    strictEqual(
      (await app.call("POST", "/api/session/move", { session_id: s.session_id })).status,
      400,
    );
  }));

Deno.test("POST /api/session/update changes model and workspace; an untrusted workspace is 400", () =>
  withApp(async (app, tick) => {
    const s = await newSession(app);
    tick();
    const res = await app.call<{ session: Session }>("POST", "/api/session/update", {
      session_id: s.session_id,
      model: "m-2",
      model_provider: "openrouter",
    });
    strictEqual(res.status, 200);
    strictEqual(res.body.session.model, "m-2");
    strictEqual(res.body.session.model_provider, "openrouter");
    ok((res.body.session.updated_at as number) > (s.updated_at as number));
    const bad = await app.call("POST", "/api/session/update", {
      session_id: s.session_id,
      workspace: "/proc",
    });
    strictEqual(bad.status, 400);
    strictEqual((await getSession(app.ctx.db, s.session_id)).workspace, s.workspace);
    strictEqual(
      (await app.call("POST", "/api/session/update", { session_id: "000000000000", model: "x" }))
        .status,
      404,
    );
  }));

Deno.test("POST /api/session/duplicate copies the transcript under a new id", () =>
  withApp(async (app) => {
    const s = await newSession(app, { model: "m" });
    await app.call("POST", "/api/session/rename", { session_id: s.session_id, title: "Orig" });
    await addTurn(app, s.session_id, "one");
    const res = await app.call<{ ok: boolean; session: Session }>(
      "POST",
      "/api/session/duplicate",
      {
        session_id: s.session_id,
      },
    );
    strictEqual(res.status, 200);
    const copy = res.body.session;
    ok(copy.session_id !== s.session_id);
    match(copy.session_id, /^[0-9a-f]{12}$/);
    strictEqual(copy.title, "Orig (copy)");
    strictEqual(copy.model, "m");
    strictEqual(copy.message_count, 2);
    const strip = (m: Json[]) =>
      m.map(({ idx, content, role, timestamp }) => ({ idx, content, role, timestamp }));
    assertEquals(
      strip(await listMessages(app.ctx.db, copy.session_id)),
      strip(await listMessages(app.ctx.db, s.session_id)),
    );
    strictEqual(
      (await app.call("POST", "/api/session/duplicate", { session_id: "000000000000" })).status,
      404,
    );
  }));

Deno.test("POST /api/session/branch forks at keep_count and records parent_session_id", () =>
  withApp(async (app) => {
    const s = await newSession(app);
    await addTurn(app, s.session_id, "one");
    await addTurn(app, s.session_id, "two");
    const res = await app.call<{ session: Session; parent_session_id: string }>(
      "POST",
      "/api/session/branch",
      { session_id: s.session_id, keep_count: 2 },
    );
    strictEqual(res.status, 200);
    strictEqual(res.body.session.parent_session_id, s.session_id);
    strictEqual(res.body.parent_session_id, s.session_id);
    strictEqual(res.body.session.message_count, 2);
    assertEquals(
      (await listMessages(app.ctx.db, res.body.session.session_id)).map((m) => m.content),
      ["one", "re: one"],
    );
    const full = await app.call<{ session: Session }>("POST", "/api/session/branch", {
      session_id: s.session_id,
    });
    strictEqual(full.body.session.message_count, 4);
    const empty = await app.call<{ session: Session }>("POST", "/api/session/branch", {
      session_id: s.session_id,
      keep_count: 0,
      title: "Fresh",
    });
    strictEqual(empty.body.session.message_count, 0);
    strictEqual(empty.body.session.title, "Fresh");
    const over = await app.call("POST", "/api/session/branch", {
      session_id: s.session_id,
      keep_count: 9,
    });
    strictEqual(over.status, 400);
    strictEqual((await getSession(app.ctx.db, s.session_id)).message_count, 4, "source untouched");
  }));

Deno.test("POST /api/session/clear empties the transcript and resets the title; refused while streaming", () =>
  withApp(async (app) => {
    const s = await newSession(app);
    await app.call("POST", "/api/session/rename", { session_id: s.session_id, title: "Keep" });
    await addTurn(app, s.session_id, "x");
    await setActiveStream(app.ctx.db, s.session_id, "b".repeat(32));
    const busy = await app.call("POST", "/api/session/clear", { session_id: s.session_id });
    strictEqual(busy.status, 409);
    strictEqual(busy.body.active_stream_id, "b".repeat(32));
    await setActiveStream(app.ctx.db, s.session_id, null);
    const res = await app.call<{ session: Session }>("POST", "/api/session/clear", {
      session_id: s.session_id,
    });
    strictEqual(res.status, 200);
    strictEqual(res.body.session.message_count, 0);
    strictEqual(res.body.session.title, "Untitled", "the original resets the title");
    strictEqual(res.body.session.last_message_at, null);
    assertEquals(await listMessages(app.ctx.db, s.session_id), []);
  }));

Deno.test("POST /api/session/undo drops the last user turn and returns its text", () =>
  withApp(async (app) => {
    const s = await newSession(app);
    await addTurn(app, s.session_id, "first");
    await appendMessages(app.ctx.db, app.ctx.clock, s.session_id, [
      { role: "user", content: "second" },
      {
        role: "assistant",
        content: "",
        tool_calls: [{ id: "c1", type: "function", function: { name: "ls", arguments: "{}" } }],
      },
      { role: "tool", content: "a b", tool_call_id: "c1", name: "ls" },
      { role: "assistant", content: "done" },
    ]);
    const res = await app.call<{ session: Session; removed_count: number; text: string }>(
      "POST",
      "/api/session/undo",
      { session_id: s.session_id },
    );
    strictEqual(res.status, 200);
    strictEqual(res.body.removed_count, 4);
    strictEqual(res.body.text, "second");
    strictEqual(res.body.session.message_count, 2);
    assertEquals(res.body.session.messages!.map((m) => m.content), ["first", "re: first"]);
    await app.call("POST", "/api/session/undo", { session_id: s.session_id });
    const none = await app.call<{ removed_count: number }>("POST", "/api/session/undo", {
      session_id: s.session_id,
    });
    strictEqual(none.body.removed_count, 0);
    strictEqual(
      (await app.call("POST", "/api/session/undo", { session_id: "000000000000" })).status,
      404,
    );
  }));

Deno.test("two undos at once remove two turns: each reads what the other left", () =>
  withApp(async (app) => {
    const s = await newSession(app);
    for (const text of ["one", "two", "three"]) await addTurn(app, s.session_id, text);
    const undo = () =>
      app.call<{ text: string; removed_count: number }>("POST", "/api/session/undo", {
        session_id: s.session_id,
      });
    const answers = await Promise.all([undo(), undo()]);
    assertEquals(answers.map((a) => a.body.text).sort(), ["three", "two"]);
    assertEquals(answers.map((a) => a.body.removed_count), [2, 2]);
    const left = await app.call<{ session: Session }>(
      "GET",
      `/api/session?session_id=${s.session_id}`,
    );
    assertEquals(left.body.session.messages!.map((m) => m.content), ["one", "re: one"]);
  }));

Deno.test("GET /api/sessions/search finds titles and message text with a preview", () =>
  withApp(async (app) => {
    const a = await newSession(app);
    await app.call("POST", "/api/session/rename", {
      session_id: a.session_id,
      title: "Kubernetes upgrade plan",
    });
    await addTurn(app, a.session_id, "kubernetes details");
    const b = await newSession(app);
    await addTurn(app, b.session_id, "how do I drain a kubernetes node safely during maintenance?");
    const titleOnly = await app.call<{ sessions: Array<Session>; count: number; query: string }>(
      "GET",
      "/api/sessions/search?q=kubern",
    );
    strictEqual(titleOnly.status, 200);
    strictEqual(titleOnly.body.query, "kubern");
    assertEquals(titleOnly.body.sessions.map((s) => [s.session_id, s.match_type]), [
      [a.session_id, "title"],
    ]);
    strictEqual(titleOnly.body.sessions[0].match_preview, "Kubernetes upgrade plan");
    const withContent = await app.call<{ sessions: Array<Session>; count: number }>(
      "GET",
      "/api/sessions/search?q=kubernetes%20drain&content=1",
    );
    assertEquals(withContent.body.sessions.map((s) => [s.session_id, s.match_type]), [
      [b.session_id, "content"],
    ]);
    match(String(withContent.body.sessions[0].match_preview), /drain a kubernetes node/);
    strictEqual(withContent.body.count, 1);
    const both = await app.call<{ sessions: Array<Session> }>(
      "GET",
      "/api/sessions/search?q=kubernetes&content=1",
    );
    assertEquals(both.body.sessions.map((s) => s.match_type), ["title", "content"]);
  }));

Deno.test("GET /api/sessions/search treats FTS5 syntax in the query as plain text", () =>
  withApp(async (app) => {
    const s = await newSession(app);
    await addTurn(app, s.session_id, 'the foo" function (draft)');
    for (const q of ['foo"(', "AND", "*", '"', "NEAR(", "foo OR", "-foo", "^x", "{a b}", ":"]) {
      const res = await app.call<{ sessions: Session[] }>(
        "GET",
        `/api/sessions/search?q=${encodeURIComponent(q)}&content=1`,
      );
      strictEqual(res.status, 200, `q=${q}: ${JSON.stringify(res.body)}`);
    }
    const hit = await app.call<{ sessions: Session[] }>(
      "GET",
      `/api/sessions/search?q=${encodeURIComponent('foo"(')}&content=1`,
    );
    assertEquals(hit.body.sessions.map((x) => x.session_id), [s.session_id]);
    const empty = await app.call<{ sessions: Session[]; count: number }>(
      "GET",
      "/api/sessions/search?q=",
    );
    assertEquals(empty.body.sessions, []);
    strictEqual(empty.body.count, 0);
  }));

Deno.test("session routes: a body over 20 MB is 413", () =>
  withApp(async (app) => {
    const huge = JSON.stringify({ session_id: "x", title: "a".repeat(21 * 1024 * 1024) });
    const res = await app.call("POST", "/api/session/rename", huge, {
      "content-type": "application/json",
    });
    strictEqual(res.status, 413);
    ok(typeof res.body.error === "string");
  }));

Deno.test("appendMessages() keeps message_count and last_message_at in step, in one transaction", () =>
  withApp(async (app, tick) => {
    const s = await newSession(app);
    tick(5);
    const stored = await addTurn(app, s.session_id, "q");
    assertEquals(stored.map((m) => m.idx), [0, 1]);
    const row = await getSession(app.ctx.db, s.session_id);
    strictEqual(row.message_count, 2);
    strictEqual(row.last_message_at, app.ctx.clock());
    strictEqual(row.updated_at, app.ctx.clock());
    // A bad message in the batch writes nothing at all.
    const bad = [{ role: "user", content: "ok" }, { role: "robot", content: "no" }];
    try {
      await appendMessages(app.ctx.db, app.ctx.clock, s.session_id, bad as unknown as NewMessage[]);
      ok(false, "expected a throw");
    } catch (err) {
      match((err as Error).message, /role/);
    }
    strictEqual((await getSession(app.ctx.db, s.session_id)).message_count, 2);
    strictEqual((await listMessages(app.ctx.db, s.session_id)).length, 2);
    try {
      await appendMessages(app.ctx.db, app.ctx.clock, "000000000000", [{
        role: "user",
        content: "x",
      }]);
      ok(false, "expected a throw");
    } catch (err) {
      ok(err instanceof NotFoundError);
    }
  }));

Deno.test("messages keep multimodal content, tool calls and extra fields verbatim", () =>
  withApp(async (app) => {
    const s = await newSession(app);
    const parts = [{ type: "text", text: "see image" }, {
      type: "image_url",
      image_url: { url: "x" },
    }];
    await appendMessages(app.ctx.db, app.ctx.clock, s.session_id, [
      { role: "user", content: parts, attachments: [{ filename: "a.png" }], custom_flag: true },
      { role: "assistant", content: "hi", reasoning: "thinking", turn_id: "t1" },
    ]);
    const [u, a] = await listMessages(app.ctx.db, s.session_id);
    assertEquals(u.content, parts);
    assertEquals(u.attachments, [{ filename: "a.png" }]);
    strictEqual(u.custom_flag, true);
    strictEqual(a.reasoning, "thinking");
    strictEqual(a.turn_id, "t1");
    strictEqual("tool_calls" in a, false);
    // Multimodal text is still searchable.
    const res = await app.call<{ sessions: Session[] }>(
      "GET",
      "/api/sessions/search?q=image&content=1",
    );
    strictEqual(res.body.sessions.length, 1);
  }));

Deno.test("updateMessage() grows a streaming message in place; truncateMessages() recounts", () =>
  withApp(async (app) => {
    const s = await newSession(app);
    const [, asst] = await appendMessages(app.ctx.db, app.ctx.clock, s.session_id, [
      { role: "user", content: "q" },
      { role: "assistant", content: "" },
    ]);
    await updateMessage(app.ctx.db, s.session_id, asst.idx, { content: "partial" });
    const done = await updateMessage(app.ctx.db, s.session_id, asst.idx, {
      content: "partial answer",
      reasoning: "r",
    });
    strictEqual(done.content, "partial answer");
    strictEqual((await listMessages(app.ctx.db, s.session_id))[1].reasoning, "r");
    await updateMessage(app.ctx.db, s.session_id, asst.idx, { reasoning: null });
    strictEqual((await listMessages(app.ctx.db, s.session_id))[1].reasoning, undefined);
    // The search index follows in-place edits.
    const found = await app.call<{ sessions: Session[] }>(
      "GET",
      "/api/sessions/search?q=answer&content=1",
    );
    strictEqual(found.body.sessions.length, 1);
    try {
      await updateMessage(app.ctx.db, s.session_id, 7, { content: "x" });
      ok(false, "expected a throw");
    } catch (err) {
      ok(err instanceof NotFoundError);
    }
    strictEqual(await truncateMessages(app.ctx.db, s.session_id, 1), 1);
    strictEqual((await getSession(app.ctx.db, s.session_id)).message_count, 1);
  }));

Deno.test("addUsage() accumulates tokens and cost", () =>
  withApp(async (app) => {
    const s = await newSession(app);
    await addUsage(app.ctx.db, s.session_id, { input_tokens: 10, output_tokens: 3 });
    strictEqual((await getSession(app.ctx.db, s.session_id)).estimated_cost, null);
    await addUsage(app.ctx.db, s.session_id, {
      input_tokens: 5,
      output_tokens: 2,
      estimated_cost: 0.25,
    });
    await addUsage(app.ctx.db, s.session_id, { estimated_cost: 0.5 });
    const row = await getSession(app.ctx.db, s.session_id);
    strictEqual(row.input_tokens, 15);
    strictEqual(row.output_tokens, 5);
    strictEqual(row.estimated_cost, 0.75);
  }));

Deno.test("is_streaming follows the active stream id", () =>
  withApp(async (app) => {
    const s = await newSession(app);
    await setActiveStream(app.ctx.db, s.session_id, "c".repeat(32));
    const row = await getSession(app.ctx.db, s.session_id);
    strictEqual(row.is_streaming, true);
    strictEqual(row.active_stream_id, "c".repeat(32));
    // A streaming session shows in the list even before it has messages.
    const list = await app.call<{ sessions: Session[] }>("GET", "/api/sessions");
    assertEquals(list.body.sessions.map((x) => x.session_id), [s.session_id]);
  }));

Deno.test("claimActiveStream() lets exactly one run hold a session", () =>
  withApp(async (app) => {
    const s = await newSession(app);
    const db = app.ctx.db;
    strictEqual(await claimActiveStream(db, s.session_id, "1".repeat(32)), true);
    strictEqual(await claimActiveStream(db, s.session_id, "2".repeat(32)), false);
    strictEqual((await getSession(db, s.session_id)).active_stream_id, "1".repeat(32));
    strictEqual(await clearActiveStreams(db), 1);
    strictEqual((await getSession(db, s.session_id)).is_streaming, false);
    strictEqual(await claimActiveStream(db, s.session_id, "2".repeat(32)), true);
  }));

Deno.test("GET /api/session with msg_limit returns only the tool calls of its page", () =>
  withApp(async (app) => {
    const s = await newSession(app);
    const turn = (id: string): NewMessage[] => [
      { role: "user" as const, content: `run ${id}` },
      {
        role: "assistant" as const,
        content: "",
        tool_calls: [{ id, type: "function" as const, function: { name: "ls", arguments: "{}" } }],
      },
      { role: "tool" as const, content: "a b", tool_call_id: id, name: "ls" },
      { role: "assistant" as const, content: `done ${id}` },
    ];
    await appendMessages(app.ctx.db, app.ctx.clock, s.session_id, [...turn("old"), ...turn("new")]);
    for (const id of ["old", "new"]) {
      await app.ctx.db.run(
        sql`INSERT INTO tool_calls (session_id, tool_call_id, name, status, started_at)
            VALUES (${s.session_id}, ${id}, 'ls', 'completed', 0)`,
      );
    }
    const page = await app.call<{ session: Session & { tool_calls: Json[] } }>(
      "GET",
      `/api/session?session_id=${s.session_id}&msg_limit=4`,
    );
    assertEquals(page.body.session.tool_calls.map((c) => c.tool_call_id), ["new"]);
    const whole = await app.call<{ session: Session & { tool_calls: Json[] } }>(
      "GET",
      `/api/session?session_id=${s.session_id}`,
    );
    assertEquals(whole.body.session.tool_calls.map((c) => c.tool_call_id).sort(), ["new", "old"]);
  }));
