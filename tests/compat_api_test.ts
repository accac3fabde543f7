// The original Hermes WebUI's HTTP contract, route by route, where the console used to differ:
// headers on every answer, approvals with any session id, yolo/undo/retry/compress/import
// shapes, session status/usage/truncate/clear/delete, insights, auth status, /login with auth
// off, /session/<id> deep links, /health (and its deep check), workspaces, legacy POST /api/chat.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp, type TestApp } from "./helpers.ts";
import { startHarness } from "./fixtures/engine_harness.ts";
import { NO_TOOL_HOOKS } from "../lib/engine/engine_options.ts";
import { manifest } from "../routes.gen.ts";
import { sql } from "../lib/storage/db.ts";

async function withApp(
  fn: (app: TestApp) => Promise<void>,
  opts: Parameters<typeof createTestApp>[0] = {},
): Promise<void> {
  const app = await createTestApp(opts);
  try {
    await fn(app);
  } finally {
    await app.close();
  }
}

type Row = { session_id: string; title: string; workspace: string; message_count: number };

async function imported(app: TestApp, messages: Array<{ role: string; content: string }>) {
  const res = await app.call<{ ok: boolean; session: Row & { messages: unknown[] } }>(
    "POST",
    "/api/session/import",
    { title: "Imported", messages },
  );
  strictEqual(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

const TURNS = [
  { role: "user", content: "first question" },
  { role: "assistant", content: "first answer" },
  { role: "user", content: "second question, which is the one to undo" },
  { role: "assistant", content: "second answer" },
];

/** Every route path of the manifest with its parameters filled in. */
function manifestPaths(): string[] {
  return Object.keys(manifest.routes)
    .filter((f) => !/\/_(app|middleware)\.tsx?$/.test(f))
    .map((f) =>
      f.replace(/^\.\/routes/, "").replace(/\.(tsx?|jsx?)$/, "").replace(/\/index$/, "")
        .replace(/\[\.\.\.[^\]]+\]/g, "x/y").replace(/\[[^\]]+\]/g, "x") || "/"
    );
}

Deno.test("every JSON answer carries nosniff, DENY and same-origin; every /api answer no-store", async () => {
  await withApp(async (app) => {
    const paths = manifestPaths();
    ok(paths.length > 50, `the manifest lists the routes (${paths.length})`);
    let jsonAnswers = 0;
    let errors = 0;
    for (const path of [...paths, "/api/definitely-not-a-route"]) {
      for (const method of ["GET", "POST"]) {
        const res = await app.request(method, path, method === "POST" ? {} : undefined);
        const where = `${method} ${path} → ${res.status}`;
        const type = res.headers.get("content-type") ?? "";
        await res.body?.cancel().catch(() => {}); // streams end here
        if (type.startsWith("application/json")) {
          jsonAnswers++;
          strictEqual(res.headers.get("x-content-type-options"), "nosniff", where);
          strictEqual(res.headers.get("x-frame-options"), "DENY", where);
          strictEqual(res.headers.get("referrer-policy"), "same-origin", where);
        }
        if (res.status >= 400) errors++;
        if (path.startsWith("/api/")) {
          match(res.headers.get("cache-control") ?? "", /no-store/, where);
        }
      }
    }
    ok(jsonAnswers > 100 && errors > 50, `JSON answers ${jsonAnswers}, errors ${errors}`);
  });
});

Deno.test("POST /api/session/import answers {ok, session} with the messages in it", async () => {
  await withApp(async (app) => {
    const body = await imported(app, TURNS);
    strictEqual(body.ok, true);
    strictEqual(body.session.messages.length, 4);
    strictEqual(body.session.title, "Imported");
  });
});

Deno.test("approvals: any session id string; nothing pending is an answer, not an error", async () => {
  await withApp(async (app) => {
    for (const id of ["0123456789ab", "never-used", "x".repeat(128)]) {
      const res = await app.call("GET", `/api/approval/pending?session_id=${id}`);
      strictEqual(res.status, 200, id);
      strictEqual((res.body as { pending: unknown }).pending, null, id);
    }
    strictEqual(
      (await app.call("GET", `/api/approval/pending?session_id=${"x".repeat(129)}`)).status,
      400,
      "a session id is at most 128 chars",
    );
    const respond = await app.call("POST", "/api/approval/respond", {
      session_id: "never-used",
      choice: "deny",
    });
    strictEqual(respond.status, 200);
    deepStrictEqual(
      { ...(respond.body as Record<string, unknown>), pending_count: undefined },
      { ok: true, choice: "deny", resolved: false, pending_count: undefined },
    );
    // Nothing pending in a real session: the same answer.
    const { session } = await imported(app, TURNS);
    const none = await app.call<{ resolved: boolean; choice: string }>(
      "POST",
      "/api/approval/respond",
      { session_id: session.session_id, choice: "once" },
    );
    strictEqual(none.status, 200);
    strictEqual(none.body.resolved, false);
  });
});

Deno.test("GET /api/approval/inject_test accepts any session id string and it can be answered", async () => {
  await withApp(async (app) => {
    const id = "client-made id: not a stored session";
    const q = encodeURIComponent(id);
    const inject = await app.call("GET", `/api/approval/inject_test?session_id=${q}`);
    strictEqual(inject.status, 200, JSON.stringify(inject.body));
    const pending = await app.call<{ pending: { command: string } | null; pending_count: number }>(
      "GET",
      `/api/approval/pending?session_id=${q}`,
    );
    strictEqual(pending.body.pending?.command, "rm -rf build/");
    strictEqual(pending.body.pending_count, 1);
    const answered = await app.call<{ resolved: boolean }>("POST", "/api/approval/respond", {
      session_id: id,
      choice: "deny",
    });
    strictEqual(answered.body.resolved, true);
    const after = await app.call<{ pending: unknown }>(
      "GET",
      `/api/approval/pending?session_id=${q}`,
    );
    strictEqual(after.body.pending, null);
  }, { env: { HERMES_WEBUI_TEST_HOOKS: "1" } });
});

Deno.test("GET /api/session/yolo answers {yolo_enabled} with skip_approvals as its alias", async () => {
  await withApp(async (app) => {
    const { session } = await imported(app, TURNS);
    const sid = session.session_id;
    const off = await app.call("GET", `/api/session/yolo?session_id=${sid}`);
    strictEqual(off.status, 200, "GET used to be a 405");
    deepStrictEqual(off.body, {
      ok: true,
      session_id: sid,
      yolo_enabled: false,
      skip_approvals: false,
    });
    const on = await app.call("POST", "/api/session/yolo", { session_id: sid, enabled: true });
    strictEqual((on.body as { yolo_enabled: boolean }).yolo_enabled, true);
    const read = await app.call<{ yolo_enabled: boolean; skip_approvals: boolean }>(
      "GET",
      `/api/session/yolo?session_id=${sid}`,
    );
    strictEqual(read.body.yolo_enabled, true);
    strictEqual(read.body.skip_approvals, true);
    strictEqual((await app.call("GET", "/api/session/yolo")).status, 400);
  });
});

Deno.test("POST /api/session/undo answers {ok, removed_count, removed_preview}", async () => {
  await withApp(async (app) => {
    const { session } = await imported(app, TURNS);
    const res = await app.call<{ ok: boolean; removed_count: number; removed_preview: string }>(
      "POST",
      "/api/session/undo",
      { session_id: session.session_id },
    );
    strictEqual(res.status, 200);
    strictEqual(res.body.ok, true);
    strictEqual(res.body.removed_count, 2);
    strictEqual(res.body.removed_preview, "second question, which is the one to undo");
  });
});

// The original's own retry (rewind, no run) is tests/storage/session_retry_test.ts.
Deno.test("POST /api/session/retry {run: true} answers {ok, last_user_text, removed_count} and runs", async () => {
  const h = await startHarness();
  try {
    h.app.ctx.runs.configure({ hooks: NO_TOOL_HOOKS });
    h.fake.enqueue({ text: "first" }, { text: "again" });
    await h.stream((await h.start("tell me twice")).stream_id);
    const res = await h.call("POST", "/api/session/retry", {
      session_id: h.sessionId,
      run: true,
    });
    strictEqual(res.status, 200, JSON.stringify(res.body));
    strictEqual(res.body.ok, true);
    strictEqual(res.body.last_user_text, "tell me twice");
    strictEqual(res.body.removed_count, 1);
    ok(res.body.stream_id, "the Composer's shape is kept: the run started");
    const events = (await h.stream(res.body.stream_id)).events.map((e) => e.event);
    ok(events.includes("done"), events.join(","));
  } finally {
    await h.close();
  }
});

Deno.test("POST /api/session/compress with focus_topic answers {ok, session, summary} synchronously", async () => {
  const h = await startHarness();
  try {
    h.app.ctx.runs.configure({ hooks: NO_TOOL_HOOKS });
    h.fake.enqueue({ text: "one" }, { text: "two" }, { text: "SUMMARY of one" });
    await h.stream((await h.start("q1")).stream_id);
    await h.stream((await h.start("q2")).stream_id);
    const res = await h.call("POST", "/api/session/compress", {
      session_id: h.sessionId,
      focus_topic: "the numbers",
    });
    strictEqual(res.status, 200, JSON.stringify(res.body));
    strictEqual(res.body.ok, true);
    strictEqual(res.body.summary, "SUMMARY of one");
    strictEqual(res.body.session.session_id, h.sessionId);
    ok(Array.isArray(res.body.session.messages));
  } finally {
    await h.close();
  }
});

Deno.test("GET /api/session/status and /usage summarize a session; 400 without session_id", async () => {
  await withApp(async (app) => {
    const { session } = await imported(app, TURNS);
    const status = await app.call<Record<string, unknown>>(
      "GET",
      `/api/session/status?session_id=${session.session_id}`,
    );
    strictEqual(status.status, 200);
    strictEqual(status.body.message_count, 4);
    strictEqual(status.body.is_streaming, false);
    strictEqual(status.body.title, "Imported");
    ok(!("messages" in status.body));
    strictEqual((await app.call("GET", "/api/session/status")).status, 400);
    strictEqual((await app.call("GET", "/api/session/status?session_id=0123456789ab")).status, 404);
    const usage = await app.call<Record<string, unknown>>(
      "GET",
      `/api/session/usage?session_id=${session.session_id}`,
    );
    strictEqual(usage.status, 200);
    for (const k of ["input_tokens", "output_tokens", "total_tokens", "cache_read_tokens"]) {
      strictEqual(typeof usage.body[k], "number", k);
    }
    strictEqual((await app.call("GET", "/api/session/usage")).status, 400);
  });
});

Deno.test("POST /api/session/truncate keeps the first keep_count messages; 400 on a missing field", async () => {
  await withApp(async (app) => {
    const { session } = await imported(app, TURNS);
    const res = await app.call<{ ok: boolean; session: { messages: Array<{ content: string }> } }>(
      "POST",
      "/api/session/truncate",
      { session_id: session.session_id, keep_count: 2 },
    );
    strictEqual(res.status, 200, JSON.stringify(res.body));
    deepStrictEqual(res.body.session.messages.map((m) => m.content), [
      "first question",
      "first answer",
    ]);
    strictEqual(
      (await app.call("POST", "/api/session/truncate", { session_id: session.session_id }))
        .status,
      400,
    );
    strictEqual((await app.call("POST", "/api/session/truncate", { keep_count: 1 })).status, 400);
  });
});

Deno.test("POST /api/session/clear wipes the messages and resets the title to Untitled", async () => {
  await withApp(async (app) => {
    const { session } = await imported(app, TURNS);
    const res = await app.call<{ session: Row & { messages: unknown[] } }>(
      "POST",
      "/api/session/clear",
      { session_id: session.session_id },
    );
    strictEqual(res.status, 200);
    strictEqual(res.body.session.title, "Untitled");
    strictEqual(res.body.session.messages.length, 0);
  });
});

Deno.test("POST /api/session/delete refuses a session_id that is a path or carries traversal", async () => {
  await withApp(async (app) => {
    for (const id of ["../../etc", "/etc/passwd", "a/b", "..", "x\\..\\y"]) {
      const res = await app.call("POST", "/api/session/delete", { session_id: id });
      strictEqual(res.status, 400, id);
    }
    strictEqual(
      (await app.call("POST", "/api/session/delete", { session_id: "0123456789ab" })).status,
      200,
    );
  });
});

Deno.test("a new session inherits the last used workspace, not the default", async () => {
  await withApp(async (app) => {
    const other = join(app.workspace, "other");
    await Deno.mkdir(other);
    const first = await app.call<{ session: Row }>("POST", "/api/session/new", {
      workspace: other,
    });
    strictEqual(first.status, 200);
    const second = await app.call<{ session: Row }>("POST", "/api/session/new", {});
    strictEqual(second.body.session.workspace, await Deno.realPath(other));
  });
});

Deno.test("POST /api/workspaces/add of a workspace already listed → 400", async () => {
  await withApp(async (app) => {
    const dir = join(app.workspace, "data");
    await Deno.mkdir(dir);
    strictEqual((await app.call("POST", "/api/workspaces/add", { path: dir })).status, 200);
    const again = await app.call<{ error: string }>("POST", "/api/workspaces/add", { path: dir });
    strictEqual(again.status, 400);
    match(again.body.error, /already/);
    strictEqual(
      (await app.call("POST", "/api/workspaces/add", { path: app.workspace })).status,
      400,
      "the default workspace is always listed",
    );
  });
});

Deno.test("legacy POST /api/chat refuses a workspace outside the trusted roots and answers a turn", async () => {
  const h = await startHarness();
  try {
    h.app.ctx.runs.configure({ hooks: NO_TOOL_HOOKS });
    const outside = await Deno.makeTempDir({ prefix: "hermes-outside-" });
    try {
      const refused = await h.call("POST", "/api/chat", { message: "hi", workspace: outside });
      strictEqual(refused.status, 400, JSON.stringify(refused.body));
      match(refused.body.error, /outside/);
    } finally {
      await Deno.remove(outside, { recursive: true });
    }
    strictEqual((await h.call("POST", "/api/chat", {})).status, 400);
    h.fake.enqueue({ text: "Hello from the legacy route" });
    const res = await h.call("POST", "/api/chat", { message: "hi", session_id: h.sessionId });
    strictEqual(res.status, 200, JSON.stringify(res.body));
    strictEqual(res.body.status, "done");
    strictEqual(res.body.answer, "Hello from the legacy route");
  } finally {
    await h.close();
  }
});

Deno.test("GET /api/insights carries cache_read_tokens, total_tokens, the cache hit % and shares", async () => {
  await withApp(async (app) => {
    const { session } = await imported(app, TURNS);
    const now = app.ctx.clock();
    const add = (
      model: string,
      input: number,
      output: number,
      cached: number,
      cost: number,
      t: number,
    ) =>
      app.ctx.db.run(
        sql`INSERT INTO usage (session_id, model, model_provider, input_tokens, output_tokens,
              cached_tokens, cost, created_at)
            VALUES (${session.session_id}, ${model}, 'custom', ${input}, ${output}, ${cached},
              ${cost}, ${t})`,
      );
    await add("big", 300, 100, 150, 0.3, now - 60);
    await add("small", 100, 0, 50, 0.1, now - 30);
    const res = await app.call<Record<string, unknown>>("GET", "/api/insights?days=7");
    strictEqual(res.status, 200, JSON.stringify(res.body));
    strictEqual(res.body.total_input_tokens, 400, "today's fields stay");
    strictEqual(res.body.cache_read_tokens, 200);
    strictEqual(res.body.total_tokens, 500);
    strictEqual(res.body.cache_hit_percent, 50);
    const models = res.body.models as Array<Record<string, number | string>>;
    const big = models.find((m) => m.model === "big")!;
    strictEqual(big.token_share, 80);
    strictEqual(big.turn_share, 50);
    strictEqual(big.cost_share, 75);
    strictEqual(big.cache_read_tokens, 150);
    strictEqual(big.total_tokens, 400);
  });
});

Deno.test("GET /api/auth/status carries the original's fields", async () => {
  await withApp(async (app) => {
    deepStrictEqual((await app.call("GET", "/api/auth/status")).body, {
      auth_enabled: false,
      logged_in: true,
      password_enabled: false,
      passkeys_enabled: false,
      oidc_enabled: false,
    });
  });
});

Deno.test("GET /login with auth off answers 200 with a note instead of a redirect", async () => {
  await withApp(async (app) => {
    const res = await app.request("GET", "/login");
    strictEqual(res.status, 200);
    const html = await res.text();
    match(html, /no password is set/);
    match(html, /href="\/"/);
  });
});

Deno.test("GET /session/<id> opens that session; an unknown id is a clear not-found", async () => {
  await withApp(async (app) => {
    const { session } = await imported(app, TURNS);
    const res = await app.request("GET", `/session/${session.session_id}`);
    strictEqual(res.status, 200);
    const html = await res.text();
    match(html, /second answer/);
    match(html, /<title>Imported/);
    const missing = await app.request("GET", "/session/0123456789ab");
    strictEqual(missing.status, 404);
    match(await missing.text(), /no longer exists/);
  });
});

Deno.test("GET /health carries the liveness fields and the accept-loop heartbeat; ?deep=1 checks paths", async () => {
  await withApp(async (app) => {
    const res = await app.call<Record<string, unknown>>("GET", "/health");
    strictEqual(res.status, 200);
    for (
      const k of ["status", "sessions", "active_streams", "uptime_seconds", "server_started_at"]
    ) {
      ok(k in res.body, k);
    }
    strictEqual(res.body.accept_loop_alive, true);
    strictEqual(typeof res.body.accept_loop_heartbeat_at, "number");
    ok((res.body.accept_loop_heartbeat_age_seconds as number) >= 0);
    ok(!("checks" in res.body), "liveness stays cheap");
    const deep = await app.call<{ status: string; checks: Record<string, { ok: boolean }> }>(
      "GET",
      "/health?deep=1",
    );
    strictEqual(deep.status, 200);
    strictEqual(deep.body.status, "ok");
    deepStrictEqual(Object.keys(deep.body.checks).sort(), [
      "database",
      "projects",
      "sessions",
      "state_dir",
    ]);
    ok(Object.values(deep.body.checks).every((c) => c.ok));
    // A state dir that cannot be written degrades the deep check (503), never liveness.
    await Deno.chmod(app.stateDir, 0o500);
    try {
      const bad = await app.call<{ status: string; checks: Record<string, { ok: boolean }> }>(
        "GET",
        "/health?deep=1",
      );
      if (Deno.uid() !== 0) {
        strictEqual(bad.status, 503);
        strictEqual(bad.body.status, "degraded");
        strictEqual(bad.body.checks.state_dir.ok, false);
      }
      strictEqual((await app.call("GET", "/health")).status, 200);
    } finally {
      await Deno.chmod(app.stateDir, 0o700);
    }
  });
});
