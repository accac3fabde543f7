import { deepStrictEqual as assertEquals, match, ok, strictEqual } from "node:assert/strict";
import { createTestApp, type TestApp } from "../helpers.ts";
import { addUsage } from "../../lib/sessions/sessions.ts";
import { appendMessages } from "../../lib/sessions/messages.ts";
import { sql } from "../../lib/storage/db.ts";

type Json = Record<string, unknown>;

async function withApp(fn: (app: TestApp) => Promise<void>): Promise<void> {
  let now = 1_700_000_000;
  const app = await createTestApp({ clock: () => (now += 0.5) });
  try {
    await fn(app);
  } finally {
    await app.close();
  }
}

/** A session with a realistic transcript: text, tool calls, tool results, reasoning, extras. */
async function richSession(app: TestApp): Promise<string> {
  const { body } = await app.call<{ session: Json }>("POST", "/api/session/new", {
    model: "gpt-x",
    model_provider: "openai",
  });
  const sid = body.session.session_id as string;
  await app.call("POST", "/api/session/rename", { session_id: sid, title: "Deploy <notes> & co" });
  await appendMessages(app.ctx.db, app.ctx.clock, sid, [
    {
      role: "user",
      content: "List files <script>alert(1)</script>",
      attachments: [{ filename: "a.png", path: "a.png" }],
    },
    {
      role: "assistant",
      content: "",
      reasoning: "I should call ls",
      tool_calls: [{
        id: "call_1",
        type: "function",
        function: { name: "ls", arguments: '{"path":"."}' },
      }],
      turn_id: "t1",
    },
    { role: "tool", content: "a.txt\nb.txt", tool_call_id: "call_1", name: "ls", turn_id: "t1" },
    {
      role: "assistant",
      content: "Two files: `a.txt` and ```b.txt```",
      turn_id: "t1",
      usage_note: { x: 1 },
    },
    {
      role: "user",
      content: [{ type: "text", text: "and this image?" }, {
        type: "image_url",
        image_url: { url: "data:," },
      }],
    },
  ]);
  await app.ctx.db.run(
    sql`INSERT INTO tool_calls (session_id, tool_call_id, turn_id, name, args, status, result,
          started_at, duration)
        VALUES (${sid}, 'call_1', 't1', 'ls', '{"path":"."}', 'completed', 'a.txt', 1700000001,
          0.25)`,
  );
  await addUsage(app.ctx.db, sid, { input_tokens: 120, output_tokens: 30, estimated_cost: 0.0042 });
  await app.call("POST", "/api/session/pin", { session_id: sid, pinned: true });
  return sid;
}

async function exportAs(app: TestApp, sid: string, format: string) {
  const res = await app.request("GET", `/api/session/export?session_id=${sid}&format=${format}`);
  return { res, text: await res.text() };
}

Deno.test("GET /api/session/export serves json, md and html as hermes-<sid>.<ext> attachments", () =>
  withApp(async (app) => {
    const sid = await richSession(app);
    for (
      const [format, type] of [["json", "application/json"], ["md", "text/markdown"], [
        "html",
        "text/html",
      ]]
    ) {
      const { res } = await exportAs(app, sid, format);
      strictEqual(res.status, 200, format);
      ok(res.headers.get("content-type")!.startsWith(type), format);
      strictEqual(
        res.headers.get("content-disposition"),
        `attachment; filename="hermes-${sid}.${format}"`,
      );
    }
    const dflt = await app.request("GET", `/api/session/export?session_id=${sid}`);
    strictEqual(
      dflt.headers.get("content-disposition"),
      `attachment; filename="hermes-${sid}.json"`,
    );
    await dflt.body?.cancel();
    strictEqual(
      (await app.call("GET", `/api/session/export?session_id=${sid}&format=pdf`)).status,
      400,
    );
    strictEqual((await app.call("GET", "/api/session/export?format=json")).status, 400);
    strictEqual((await app.call("GET", "/api/session/export?session_id=000000000000")).status, 404);
  }));

Deno.test("HTML export escapes message content and titles", () =>
  withApp(async (app) => {
    const sid = await richSession(app);
    const { text } = await exportAs(app, sid, "html");
    ok(!text.includes("<script>alert(1)</script>"), "raw script tag leaked");
    ok(text.includes("&lt;script&gt;alert(1)&lt;/script&gt;"));
    ok(text.includes("<title>Deploy &lt;notes&gt; &amp; co</title>"));
    ok(!/<script/i.test(text), "no script elements at all");
    match(text, /I should call ls/);
    match(text, /ls\(\{/);
  }));

Deno.test("Markdown export has the title, roles, tool calls and results", () =>
  withApp(async (app) => {
    const sid = await richSession(app);
    const { text } = await exportAs(app, sid, "md");
    ok(text.startsWith("# Deploy <notes> & co\n"));
    match(text, /## User/);
    match(text, /## Assistant/);
    match(text, /## Tool result · ls/);
    match(text, /\*\*Tool call\*\* `ls`/);
    // Content with triple backticks is fenced with a longer fence.
    match(text, /Two files: `a.txt` and ```b.txt```/);
    match(text, /and this image\?/);
  }));

Deno.test("JSON export → import gives identical messages and metadata under a new id", () =>
  withApp(async (app) => {
    const sid = await richSession(app);
    const { text } = await exportAs(app, sid, "json");
    const exported = JSON.parse(text);
    strictEqual(exported.session_id, sid);
    const res = await app.call<{ session: Json }>("POST", "/api/session/import", text, {
      "content-type": "application/json",
    });
    strictEqual(res.status, 200, JSON.stringify(res.body));
    const imported = res.body.session;
    ok(imported.session_id !== sid);
    match(imported.session_id as string, /^[0-9a-f]{12}$/);
    const original = (await app.call<{ session: Json }>("GET", `/api/session?session_id=${sid}`))
      .body.session;
    assertEquals(imported.messages, original.messages);
    assertEquals(imported.tool_calls, original.tool_calls);
    const keys = [
      "title",
      "workspace",
      "model",
      "model_provider",
      "message_count",
      "created_at",
      "updated_at",
      "last_message_at",
      "pinned",
      "archived",
      "project_id",
      "input_tokens",
      "output_tokens",
      "estimated_cost",
      "parent_session_id",
      "active_stream_id",
      "is_streaming",
    ];
    for (const k of keys) assertEquals(imported[k], original[k], k);
    // Export of the import matches the original export, ids and export time aside.
    const again = JSON.parse((await exportAs(app, imported.session_id as string, "json")).text);
    for (const doc of [exported, again]) {
      delete doc.session_id;
      delete doc.exported_at;
    }
    assertEquals(again, exported);
  }));

Deno.test("POST /api/session/import accepts a bare messages array and fills defaults", () =>
  withApp(async (app) => {
    const res = await app.call<{ session: Json & { messages: Json[] } }>(
      "POST",
      "/api/session/import",
      {
        title: "From elsewhere",
        project_id: "000000000000",
        messages: [{ role: "user", content: "hi" }, { role: "assistant", content: null }],
      },
    );
    strictEqual(res.status, 200, JSON.stringify(res.body));
    const s = res.body.session;
    strictEqual(s.title, "From elsewhere");
    strictEqual(s.workspace, await Deno.realPath(app.workspace));
    strictEqual(s.project_id, null);
    strictEqual(s.message_count, 2);
    assertEquals(s.messages.map((m) => [m.idx, m.role, m.content]), [[0, "user", "hi"], [
      1,
      "assistant",
      "",
    ]]);
    ok(typeof s.messages[0].timestamp === "number");
    const list = await app.call<{ sessions: Json[] }>("GET", "/api/sessions");
    strictEqual(list.body.sessions.length, 1);
  }));

Deno.test("POST /api/session/import without a messages array is 400", () =>
  withApp(async (app) => {
    for (
      const body of [{}, { title: "x" }, { messages: "nope" }, {
        messages: [{ role: "bot", content: "x" }],
      }]
    ) {
      const res = await app.call("POST", "/api/session/import", body);
      strictEqual(res.status, 400, JSON.stringify(body));
      match(String(res.body.error), /messages/);
    }
    const invalid = await app.call("POST", "/api/session/import", "[1,2", {
      "content-type": "application/json",
    });
    strictEqual(invalid.status, 400);
    const list = await app.call<{ sessions: Json[] }>("GET", "/api/sessions?include_archived=1");
    assertEquals(list.body.sessions, []);
  }));

Deno.test("POST /api/session/import over 20 MB is 413", () =>
  withApp(async (app) => {
    const big = JSON.stringify({
      messages: [{ role: "user", content: "x".repeat(21 * 1024 * 1024) }],
    });
    const res = await app.call("POST", "/api/session/import", big, {
      "content-type": "application/json",
    });
    strictEqual(res.status, 413);
  }));
