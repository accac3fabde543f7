// The original's route names where ours differ, answering as the original does and delegating
// to the one implementation we have: the OIDC start, a share's JSON, DELETE /api/prompts,
// POST /api/auth/passkeys, the manifest's and the favicon's usual paths, the clarify poll, the
// transcription probe, /api/model/set, CSP reports, client events, the session draft and the
// empty-session sweeps; plus the built-in personalities, /api/models groups for a provider the
// config chose without a key, and POST /api/default-model writing config.yaml.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { createTestApp, type TestApp } from "./helpers.ts";
import { startOidcProvider } from "./fixtures/oidc_provider.ts";
import { appendMessages } from "../lib/sessions/messages.ts";
import { createSession, findSession, setActiveStream } from "../lib/sessions/sessions.ts";
import { askClarify } from "../lib/approvals/clarify.ts";
import { sql } from "../lib/storage/db.ts";

const PASSWORD = "correct horse battery staple";

type Json = Record<string, unknown>;

async function session(app: TestApp, title = "Untitled", messages = 0): Promise<string> {
  const { session_id } = await createSession(app.ctx.db, app.ctx.clock, {
    workspace: app.workspace,
    title,
  });
  if (messages) {
    await appendMessages(app.ctx.db, app.ctx.clock, session_id, [
      { role: "user", content: "Please summarize this." },
      { role: "assistant", content: "Here is a concise summary." },
    ]);
  }
  return session_id;
}

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

Deno.test("GET /api/auth/oidc/start redirects to the provider as /login does; 404 when not configured", async () => {
  await withApp(async (app) => {
    const off = await app.call<Json>("GET", "/api/auth/oidc/start");
    strictEqual(off.status, 404);
    match(String(off.body.error), /not configured/);
  });
  const callback = "http://localhost:8787/api/auth/oidc/callback";
  const idp = await startOidcProvider([callback], { alice: { email: "alice@example.com" } });
  try {
    await withApp(async (app) => {
      const res = await app.request("GET", "/api/auth/oidc/start?next=/insights", undefined, {
        host: "localhost:8787",
      });
      strictEqual(res.status, 302, await res.clone().text());
      const location = new URL(res.headers.get("location") ?? "");
      ok(location.href.startsWith(idp.issuer), location.href);
      strictEqual(location.searchParams.get("code_challenge_method"), "S256");
      strictEqual(location.searchParams.get("redirect_uri"), callback);
      match(res.headers.get("set-cookie") ?? "", /^hermes_oidc_state=/);
    }, {
      env: {
        HERMES_WEBUI_PASSWORD: PASSWORD,
        HERMES_WEBUI_OIDC_ISSUER: idp.issuer,
        HERMES_WEBUI_OIDC_CLIENT_ID: idp.clientId,
        HERMES_WEBUI_OIDC_CLIENT_SECRET: idp.clientSecret,
        HERMES_WEBUI_OIDC_ALLOWED_EMAILS: "alice@example.com",
      },
    });
  } finally {
    await idp.close();
  }
});

Deno.test("GET /api/share/<token> is the share's JSON, public, and 404 once revoked", async () => {
  await withApp(async (app) => {
    const login = await app.request("POST", "/api/auth/login", { password: PASSWORD });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
    const sid = await session(app, "Shared Test", 2);
    const created = await app.call<{ share: { token: string } }>(
      "POST",
      "/api/share/create",
      { session_id: sid },
      { cookie },
    );
    strictEqual(created.status, 200);
    const token = created.body.share.token;

    const res = await app.request("GET", `/api/share/${token}`); // no login
    strictEqual(res.status, 200);
    strictEqual(res.headers.get("x-robots-tag"), "noindex, nofollow");
    match(res.headers.get("cache-control") ?? "", /no-store/);
    const share = (await res.json()).share;
    strictEqual(share.title, "Shared Test");
    strictEqual(share.message_count, 2);
    deepStrictEqual(share.messages, [
      { role: "user", content: "Please summarize this." },
      { role: "assistant", content: "Here is a concise summary." },
    ]);
    ok(!("workspace" in share) && !("session_id" in share), "nothing private in the JSON");

    strictEqual((await app.request("GET", "/api/share/list")).status, 401, "list stays private");
    strictEqual((await app.request("GET", "/api/share/not-a-token")).status, 404);
    const revoked = await app.call("POST", "/api/share/revoke", { token }, { cookie });
    strictEqual(revoked.status, 200);
    const gone = await app.call<Json>("GET", `/api/share/${token}`);
    strictEqual(gone.status, 404);
    strictEqual(gone.body.error, "Shared conversation not found");
  }, { env: { HERMES_WEBUI_PASSWORD: PASSWORD } });
});

Deno.test("DELETE /api/prompts removes a prompt saved in the original's shape", async () => {
  await withApp(async (app) => {
    const saved = await app.call<{ prompt: { id: string } }>("POST", "/api/prompts", {
      label: "Standup",
      text: "Summarize yesterday",
    });
    strictEqual(saved.status, 200);
    const id = saved.body.prompt.id;
    deepStrictEqual((await app.call("DELETE", "/api/prompts", { id })).body, {
      ok: true,
      deleted: true,
    });
    const list = await app.call<{ prompts: Array<{ id: string }> }>("GET", "/api/prompts");
    ok(!list.body.prompts.some((p) => p.id === id));
    strictEqual((await app.call("DELETE", "/api/prompts", {})).status, 400);
  });
});

Deno.test("POST /api/auth/passkeys lists the credentials in the original's shape; login needed", async () => {
  await withApp(async (app) => {
    deepStrictEqual((await app.call("POST", "/api/auth/passkeys")).body, {
      credentials: [],
      disabled: true,
    });
  });
  await withApp(async (app) => {
    strictEqual((await app.request("POST", "/api/auth/passkeys")).status, 401);
    const login = await app.request("POST", "/api/auth/login", { password: PASSWORD });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
    const listed = await app.call("POST", "/api/auth/passkeys", undefined, { cookie });
    strictEqual(listed.status, 200);
    deepStrictEqual(listed.body, { credentials: [] });
  }, { env: { HERMES_WEBUI_PASSWORD: PASSWORD } });
});

Deno.test("/manifest.webmanifest and /favicon.ico answer without login", async () => {
  await withApp(async (app) => {
    const manifest = await app.request("GET", "/manifest.webmanifest");
    strictEqual(manifest.status, 200);
    match(manifest.headers.get("content-type") ?? "", /^application\/manifest\+json/);
    const same = await app.request("GET", "/manifest.json");
    deepStrictEqual(await manifest.json(), await same.json());

    const icon = await app.request("GET", "/favicon.ico");
    strictEqual(icon.status, 200);
    strictEqual(icon.headers.get("content-type"), "image/svg+xml");
    match(await icon.text(), /<svg/);
  }, { env: { HERMES_WEBUI_PASSWORD: PASSWORD } });
});

Deno.test("GET /api/clarify/pending shows the open question until it is answered", async () => {
  await withApp(async (app) => {
    deepStrictEqual((await app.call("GET", "/api/clarify/pending")).body, {
      pending: null,
      pending_count: 0,
    });
    const sid = await session(app);
    deepStrictEqual((await app.call("GET", `/api/clarify/pending?session_id=${sid}`)).body, {
      pending: null,
      pending_count: 0,
    });
    const answer = askClarify(app.ctx.tools.clarify, {
      sessionId: sid,
      question: "Which option?",
      choices: ["A", "B"],
    });
    const open = await app.call<{ pending: Json; pending_count: number }>(
      "GET",
      `/api/clarify/pending?session_id=${sid}`,
    );
    strictEqual(open.body.pending_count, 1);
    strictEqual(open.body.pending.question, "Which option?");
    deepStrictEqual(open.body.pending.choices_offered, ["A", "B"]);
    strictEqual(open.body.pending.session_id, sid);
    strictEqual(open.body.pending.kind, "clarify");
    const responded = await app.call("POST", "/api/clarify/respond", {
      session_id: sid,
      clarify_id: open.body.pending.clarify_id,
      response: "B",
    });
    strictEqual(responded.status, 200);
    strictEqual(await answer, "B");
    strictEqual(
      (await app.call<Json>("GET", `/api/clarify/pending?session_id=${sid}`)).body.pending,
      null,
    );
    strictEqual(
      (await app.call("GET", `/api/clarify/pending?session_id=${"x".repeat(129)}`)).status,
      400,
    );
  });
});

Deno.test("GET /api/transcribe/capability says whether a recording could be transcribed", async () => {
  await withApp(async (app) => {
    const none = await app.call<Json>("GET", "/api/transcribe/capability");
    strictEqual(none.status, 200);
    strictEqual(none.body.ok, true);
    strictEqual(none.body.available, false);
    strictEqual(none.body.provider, "none");
    match(String(none.body.reason), /no provider is configured/);
  });
  await withApp(async (app) => {
    deepStrictEqual((await app.call("GET", "/api/transcribe/capability")).body, {
      ok: true,
      available: true,
      provider: "openai",
      model: "whisper-1",
    });
  }, { env: { OPENAI_API_KEY: "sk-test-0123456789" } });
  await withApp(async (app) => {
    const anthropic = await app.call<Json>("GET", "/api/transcribe/capability");
    strictEqual(anthropic.body.available, false, "Anthropic has no transcription API");
  }, { env: { ANTHROPIC_API_KEY: "sk-ant-test-0123456789" } });
});

Deno.test("POST /api/model/set writes the main or the auxiliary model to config.yaml", async () => {
  const yaml = "# my settings\nmodel:\n  default: old-model # keep me\nagent:\n  max_steps: 7\n";
  await withApp(async (app) => {
    const main = await app.call<Json>("POST", "/api/model/set", {
      scope: "main",
      model: "gpt-4.1",
      provider: "auto",
    });
    strictEqual(main.status, 200, JSON.stringify(main.body));
    strictEqual(main.body.model, "gpt-4.1");
    strictEqual(main.body.provider, null, "auto pins no provider");
    let text = await Deno.readTextFile(app.ctx.config.configPath);
    match(text, /default: gpt-4\.1 # keep me/);
    match(text, /# my settings/);
    match(text, /max_steps: 7/);
    ok(!text.includes("provider:"));

    const aux = await app.call<Json>("POST", "/api/model/set", {
      scope: "auxiliary",
      task: "title",
      model: "gpt-4.1-mini",
    });
    strictEqual(aux.status, 200, JSON.stringify(aux.body));
    strictEqual(aux.body.effective_model, "gpt-4.1-mini");
    text = await Deno.readTextFile(app.ctx.config.configPath);
    match(text, /auxiliary: gpt-4\.1-mini/);
    const cleared = await app.call<Json>("POST", "/api/model/set", {
      scope: "auxiliary",
      model: "",
    });
    strictEqual(cleared.body.auxiliary, null);

    for (
      const bad of [
        {},
        { scope: "sideways", model: "x" },
        { scope: "main", model: "" },
        { scope: "auxiliary", task: "poetry", model: "x" },
        { scope: 7 },
      ]
    ) {
      const res = await app.call<Json>("POST", "/api/model/set", bad);
      strictEqual(res.status, 400, JSON.stringify(bad));
      ok(String(res.body.error).length > 0);
    }
  }, { configYaml: yaml });
});

Deno.test("POST /api/csp-report takes a browser's report without login or token, bounded", async () => {
  await withApp(async (app) => {
    const page = await app.request("GET", "/login");
    match(page.headers.get("content-security-policy") ?? "", /report-uri \/api\/csp-report/);
    const report = {
      "csp-report": {
        "document-uri": "http://127.0.0.1:8787/login",
        "violated-directive": "script-src 'self'",
        "blocked-uri": "inline",
        "original-policy": "x".repeat(2000),
      },
    };
    const res = await app.request(
      "POST",
      "/api/csp-report",
      JSON.stringify(report),
      { "content-type": "application/csp-report" },
      { proof: false },
    );
    strictEqual(res.status, 204);
    const line = app.logs.find((l) => l.includes("CSP violation"));
    ok(line, app.logs.join("\n"));
    ok(line.includes("script-src"));
    ok(!line.includes("x".repeat(400)), "only the known fields, cut short, reach the log");

    const big = await app.request(
      "POST",
      "/api/csp-report",
      "x".repeat(70 * 1024),
      { "content-type": "application/csp-report" },
      { proof: false },
    );
    strictEqual(big.status, 413);
    strictEqual(
      (await app.request("POST", "/api/csp-report", "{}", { origin: "https://evil.example" }))
        .status,
      403,
      "a foreign page cannot post reports",
    );
  }, { env: { HERMES_WEBUI_PASSWORD: PASSWORD } });
});

Deno.test("POST /api/client-events/log keeps a few bounded fields, refuses bad bodies, rate limits", async () => {
  await withApp(async (app) => {
    const ok1 = await app.call<Json>("POST", "/api/client-events/log", {
      event: "sse_error",
      source: "chat-response",
      url_path: "/session/abc?token=SECRET123#frag",
      reason: "r".repeat(500),
      online: "yes",
      ready_state: 2,
      password: "hunter2",
    });
    deepStrictEqual(ok1.body, { ok: true, event: "sse_error" });
    const line = app.logs.find((l) => l.includes("Client event")) ?? "";
    ok(line.includes("/session/abc"), line);
    ok(!line.includes("SECRET123") && !line.includes("hunter2"), line);
    ok(!line.includes("r".repeat(161)), "reason cut to 160 characters");

    strictEqual((await app.call("POST", "/api/client-events/log", "not json")).status, 400);
    strictEqual((await app.call("POST", "/api/client-events/log", [1, 2])).status, 400);
    strictEqual(
      (await app.call("POST", "/api/client-events/log", { event: "x".repeat(5000) })).status,
      413,
    );
    strictEqual(
      (await app.request("POST", "/api/client-events/log", { event: "x" }, {}, { proof: false }))
        .status,
      403,
      "a write without the page's token",
    );
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      statuses.push((await app.call("POST", "/api/client-events/log", { event: "tick" })).status);
    }
    strictEqual(statuses.filter((s) => s === 429).length, 1, "the 31st event of the minute");
    const limited = await app.call<Json>("POST", "/api/client-events/log", { event: "tick" });
    strictEqual(limited.status, 429);
    strictEqual(limited.body.error, "rate_limited");
  });
});

Deno.test("/api/session/draft stores and returns a per-session composer draft", async () => {
  await withApp(async (app) => {
    const sid = await session(app, "Drafting", 2);
    const before = (await findSession(app.ctx.db, sid))!.updated_at;
    deepStrictEqual((await app.call("GET", `/api/session/draft?session_id=${sid}`)).body, {
      draft: { text: "", files: [] },
    });
    const saved = await app.call("POST", "/api/session/draft", {
      session_id: sid,
      text: "half a thought",
      files: ["notes.md"],
    });
    deepStrictEqual(saved.body, {
      ok: true,
      draft: { text: "half a thought", files: ["notes.md"] },
    });
    const again = await app.call<Json>("POST", "/api/session/draft", {
      session_id: sid,
      text: "half a thought",
    });
    deepStrictEqual(again.body, {
      ok: true,
      draft: { text: "half a thought", files: ["notes.md"] },
      unchanged: true,
    }, "absent files keep the stored ones");
    strictEqual((await findSession(app.ctx.db, sid))!.updated_at, before, "not activity");

    const clamped = await app.call<{ draft: { text: string; files: unknown[] } }>(
      "POST",
      "/api/session/draft",
      { session_id: sid, text: "x".repeat(60_000), files: Array.from({ length: 60 }, (_, i) => i) },
    );
    strictEqual(clamped.body.draft.text.length, 50_000);
    strictEqual(clamped.body.draft.files.length, 50);
    const coerced = await app.call("POST", "/api/session/draft", {
      session_id: sid,
      text: 1234,
      files: { not: "a list" },
    });
    deepStrictEqual(coerced.body, { ok: true, draft: { text: "", files: [] } });
    deepStrictEqual((await app.call("GET", `/api/session/draft?session_id=${sid}`)).body, {
      draft: { text: "", files: [] },
    });

    strictEqual((await app.call("GET", "/api/session/draft")).status, 400);
    strictEqual((await app.call("POST", "/api/session/draft", { text: "x" })).status, 400);
    strictEqual((await app.call("GET", "/api/session/draft?session_id=nope")).status, 404);
    strictEqual(
      (await app.call("POST", "/api/session/draft", { session_id: "nope", text: "x" })).status,
      404,
    );
  });
});

Deno.test("POST /api/sessions/cleanup and cleanup_zero_message sweep empty sessions, never a live one", async () => {
  await withApp(async (app) => {
    const untitled = await session(app);
    const titled = await session(app, "Named but empty");
    const full = await session(app, "Untitled", 2);
    const live = await session(app);
    await setActiveStream(app.ctx.db, live, "stream-live");
    await app.call("POST", "/api/session/draft", { session_id: untitled, text: "gone soon" });

    deepStrictEqual((await app.call("POST", "/api/sessions/cleanup")).body, {
      ok: true,
      cleaned: 1,
      skipped_active: 1,
    });
    strictEqual(await findSession(app.ctx.db, untitled), null);
    ok(await findSession(app.ctx.db, titled), "a titled empty session stays");
    ok(await findSession(app.ctx.db, full));
    const drafts = await app.ctx.db.all(
      sql`SELECT key FROM app_state WHERE key LIKE ${"composer_draft:%"}`,
    );
    strictEqual(drafts.length, 0, "the swept session's draft went with it");

    deepStrictEqual((await app.call("POST", "/api/sessions/cleanup_zero_message")).body, {
      ok: true,
      cleaned: 1,
      skipped_active: 1,
    });
    strictEqual(await findSession(app.ctx.db, titled), null);
    ok(await findSession(app.ctx.db, full), "a session with messages is never swept");
    ok(await findSession(app.ctx.db, live), "a live run keeps its session");
    strictEqual(
      (await app.request("POST", "/api/sessions/cleanup", undefined, {}, { proof: false }))
        .status,
      403,
    );
  });
});

Deno.test("GET /api/personalities lists the built-in presets when the config names none", async () => {
  await withApp(async (app) => {
    const list = await app.call<{ personalities: Array<{ name: string; description: string }> }>(
      "GET",
      "/api/personalities",
    );
    const names = list.body.personalities.map((p) => p.name);
    strictEqual(names.length, 14);
    ok(names.includes("concise") && names.includes("pirate"), names.join());
    ok(list.body.personalities.every((p) => p.description.length > 0));
    const sid = await session(app);
    const set = await app.call<Json>("POST", "/api/personality/set", {
      session_id: sid,
      name: "pirate",
    });
    strictEqual(set.status, 200);
    strictEqual(set.body.personality, "pirate");
    ok(String(set.body.prompt).length > 0);
  });
});

Deno.test("GET /api/models has a group for a provider the config chose, even without its key", async () => {
  await withApp(async (app) => {
    const res = await app.call<{ groups: Array<Json & { models: Json[] }> }>("GET", "/api/models");
    strictEqual(res.body.groups.length, 1, JSON.stringify(res.body));
    const group = res.body.groups[0];
    strictEqual(group.provider_id, "anthropic");
    strictEqual(group.needs_key, true);
    match(String(group.error), /ANTHROPIC_API_KEY/);
    strictEqual(group.models[0].id, "claude-sonnet-4");
    ok(group.models.length > 1, "the provider's known models too");
  }, { configYaml: "model:\n  provider: anthropic\n  default: claude-sonnet-4\n" });
  await withApp(async (app) => {
    const res = await app.call<{ groups: Array<Json & { models: Json[] }> }>("GET", "/api/models");
    strictEqual(res.body.groups.length, 1, JSON.stringify(res.body));
    strictEqual(res.body.groups[0].provider_id, "openai");
    strictEqual(res.body.groups[0].models[0].id, "openai/gpt-5.4-mini");
  }, { env: { HERMES_WEBUI_DEFAULT_MODEL: "openai/gpt-5.4-mini" } });
  await withApp(async (app) => {
    deepStrictEqual(
      (await app.call<Json>("GET", "/api/models")).body.groups,
      [],
      "nothing configured, nothing listed",
    );
  });
});

Deno.test("POST /api/default-model writes config.yaml, keeping other keys and comments", async () => {
  const yaml = "# hello\nproviders:\n  openai:\n    api_key: ${OPENAI_API_KEY} # env\n";
  await withApp(async (app) => {
    const res = await app.call<Json>("POST", "/api/default-model", {
      model: "gpt-4.1",
      provider: "openai",
    });
    strictEqual(res.status, 200);
    strictEqual(res.body.default_model, "gpt-4.1");
    const text = await Deno.readTextFile(app.ctx.config.configPath);
    match(text, /# hello/);
    match(text, /api_key: \$\{OPENAI_API_KEY\} # env/);
    match(text, /model:\n {2}provider: openai\n {2}default: gpt-4\.1/);
  }, { configYaml: yaml, env: { OPENAI_API_KEY: "sk-test-0123456789" } });
});
