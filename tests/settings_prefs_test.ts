// The composer, sidebar and page preferences on the server side (issue 30): POST /api/settings
// names every key with no feature here in `ignored` (kept for the original's clients, offered
// nowhere), the working ones are accepted quietly and painted on <html> from the first frame,
// the title follows the conversation every N turns, task chats leave the list when asked,
// and credentials are masked in GET /api/session unless `api_redact_enabled` is off.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { createTestApp, type TestApp } from "./helpers.ts";
import { startHarness, waitFor } from "./fixtures/engine_harness.ts";
import { NO_TOOL_HOOKS } from "../lib/engine/engine_options.ts";
import { INERT_PREFERENCES, PREFERENCES } from "../lib/settings/preferences.ts";
import { pagePaint, paintStyle } from "../lib/shared/page_preferences.ts";
import { redactText } from "../lib/security/api_redaction.ts";
import { sql } from "../lib/storage/db.ts";

type Settings = Record<string, unknown> & { ignored?: string[] };

async function withApp(fn: (app: TestApp) => Promise<void>): Promise<void> {
  const app = await createTestApp();
  try {
    await fn(app);
  } finally {
    await app.close();
  }
}

/** A valid value for each inert key (what the original's clients send). */
const INERT_VALUES: Record<string, unknown> = {
  check_for_updates: false,
  update_channel: "beta",
  dashboard_plugins: { kanban: true },
  show_cli_sessions: true,
  sync_to_insights: true,
  raw_audio_mode: true,
  auth_disabled_acknowledged: true,
  hide_composer_reasoning: true,
};

Deno.test("POST /api/settings names the keys with no feature here in `ignored`, and keeps them for round trips", async () => {
  await withApp(async (app) => {
    deepStrictEqual(Object.keys(INERT_VALUES).sort(), [...INERT_PREFERENCES].sort());
    const before = (await app.call<Settings>("GET", "/api/settings")).body;
    for (const key of INERT_PREFERENCES) {
      deepStrictEqual(before[key], PREFERENCES[key].default, `${key}: the original's default`);
    }
    const res = await app.call<Settings>("POST", "/api/settings", {
      ...INERT_VALUES,
      sidebar_density: "detailed",
    });
    strictEqual(res.status, 200);
    deepStrictEqual([...res.body.ignored!].sort(), [...INERT_PREFERENCES].sort());
    strictEqual(res.body.sidebar_density, "detailed", "a working key beside them is stored");
    const after = (await app.call<Settings>("GET", "/api/settings")).body;
    for (const [key, value] of Object.entries(INERT_VALUES)) {
      deepStrictEqual(after[key], value, `${key} reads back as sent`);
    }
    ok(!("ignored" in after), "GET has no `ignored`");
  });
});

Deno.test("POST /api/settings accepts the composer, sidebar and page keys without ignoring any", async () => {
  await withApp(async (app) => {
    const body = {
      hide_composer_attach: true,
      hide_composer_mic: true,
      hide_composer_yolo: true,
      hide_composer_workspace: true,
      hide_composer_model: true,
      composer_control_order: ["workspace", "model"],
      hidden_tabs: ["git"],
      tab_order: ["terminal", "files", "git"],
      sidebar_density: "detailed",
      large_text_paste_as_attachment: false,
      auto_title_refresh_every: "5",
      hide_empty_state_suggestions: true,
      hide_empty_state_panel: true,
      new_chat_on_workspace_switch: true,
      show_cron_sessions: false,
      pinned_sessions_limit: 5,
      show_quota_chip: true,
      sound_enabled: true,
      notifications_enabled: true,
      api_redact_enabled: false,
    };
    const res = await app.call<Settings>("POST", "/api/settings", body);
    strictEqual(res.status, 200);
    deepStrictEqual(res.body.ignored, []);
    for (const [key, value] of Object.entries(body)) deepStrictEqual(res.body[key], value, key);
    const refused = await app.call<Settings>("POST", "/api/settings", {
      auto_title_refresh_every: "7",
    });
    deepStrictEqual(refused.body.ignored, ["auto_title_refresh_every"], "only 0, 5, 10 or 20");
  });
});

Deno.test("the Control Center offers the working keys and none of the inert ones", async () => {
  await withApp(async (app) => {
    const html = await (await app.request("GET", "/partials/control-center?tab=preferences"))
      .text();
    for (const key of ["hide_composer_mic", "show_quota_chip", "auto_title_refresh_every"]) {
      ok(html.includes(`data-pref="${key}"`), key);
    }
    ok(html.includes('data-order-pref="composer_control_order"'));
    ok(html.includes('data-order-pref="tab_order"'));
    for (const key of INERT_PREFERENCES) ok(!html.includes(key), `${key} is not offered`);
  });
});

Deno.test("pagePaint() paints hidden controls, orders, density, empty state and the quota chip", () => {
  deepStrictEqual(pagePaint({}), {
    attrs: {
      "data-hide-composer": undefined,
      "data-hidden-tabs": undefined,
      "data-sidebar-density": undefined,
      "data-hide-empty": undefined,
      "data-quota-chip": undefined,
    },
    vars: {},
  });
  const paint = pagePaint({
    hide_composer_mic: true,
    hide_composer_model: true,
    composer_control_order: ["yolo", "nope", "model", "yolo"],
    hidden_tabs: ["terminal", "bogus"],
    tab_order: ["git"],
    sidebar_density: "detailed",
    hide_empty_state_panel: true,
    show_quota_chip: true,
  });
  strictEqual(paint.attrs["data-hide-composer"], "mic model");
  strictEqual(paint.attrs["data-hidden-tabs"], "terminal");
  strictEqual(paint.attrs["data-sidebar-density"], "detailed");
  strictEqual(paint.attrs["data-hide-empty"], "panel");
  strictEqual(paint.attrs["data-quota-chip"], "");
  strictEqual(paint.vars["--composer-order-yolo"], "0");
  strictEqual(paint.vars["--composer-order-model"], "1");
  strictEqual(paint.vars["--composer-order-attach"], "2", "the unlisted follow in their order");
  strictEqual(paint.vars["--tab-order-git"], "0");
  strictEqual(paint.vars["--tab-order-files"], "1");
  ok(paintStyle(paint.vars)!.includes("--tab-order-terminal:2"));
  strictEqual(
    pagePaint({ hidden_tabs: ["files", "git", "terminal"] }).attrs["data-hidden-tabs"],
    undefined,
    "never every tab",
  );
});

Deno.test("the page is painted with the layout preferences from its first frame", async () => {
  await withApp(async (app) => {
    await app.call("POST", "/api/settings", {
      hide_composer_attach: true,
      sidebar_density: "detailed",
      tab_order: ["terminal"],
    });
    const html = await (await app.request("GET", "/")).text();
    const tag = html.match(/<html[^>]*>/)![0];
    ok(tag.includes('data-hide-composer="attach"'), tag);
    ok(tag.includes('data-sidebar-density="detailed"'), tag);
    ok(tag.includes("--tab-order-terminal:0"), tag);
    ok(html.includes('href="/static/page_prefs.css"'));
    ok(html.includes('class="empty-suggestions"'), "the empty state offers suggestions");
  });
});

Deno.test("show_cron_sessions off keeps task chats out of the list, the Tasks chip still shows them", async () => {
  await withApp(async (app) => {
    const add = (id: string, title: string, job: string | null) =>
      app.ctx.db.run(
        sql`INSERT INTO sessions (session_id, title, workspace, created_at, updated_at,
              message_count, cron_job_id)
            VALUES (${id}, ${title}, ${app.workspace}, 1, 1, 2, ${job})`,
      );
    await add("bbbbbbbbbbb1", "Plain chat", null);
    await add("bbbbbbbbbbb2", "Nightly digest run", "job1");
    const list = async (q = "") => await (await app.request("GET", `/partials/sidebar${q}`)).text();
    ok((await list()).includes("Nightly digest run"), "listed by default");
    await app.call("POST", "/api/settings", { show_cron_sessions: false });
    const off = await list();
    ok(off.includes("Plain chat") && !off.includes("Nightly digest run"), "left out");
    ok((await list("?tasks=1")).includes("Nightly digest run"), "the Tasks chip shows it");
  });
});

Deno.test("auto_title_refresh_every re-titles the chat from its latest exchange every N turns", async () => {
  const h = await startHarness();
  try {
    h.app.ctx.runs.configure({ hooks: NO_TOOL_HOOKS, autoTitle: true });
    await h.call("POST", "/api/settings", { auto_title_refresh_every: "5" });
    const title = async () =>
      (await h.call("GET", `/api/session?session_id=${h.sessionId}&messages=0`)).body.session
        .title as string;
    h.fake.enqueue({ text: "answer 1" }, { text: "First title" });
    await h.stream((await h.start("turn 1")).stream_id);
    await waitFor(async () => (await title()) === "First title" || null);
    for (let n = 2; n <= 4; n++) {
      h.fake.enqueue({ text: `answer ${n}` });
      const { events } = await h.stream((await h.start(`turn ${n}`)).stream_id);
      ok(!events.some((e) => e.event === "title_status"), `no refresh at turn ${n}`);
    }
    h.fake.enqueue({ text: "answer 5" }, { text: "Fifth turn title" });
    const fifth = await h.stream((await h.start("turn 5 about databases")).stream_id);
    ok(fifth.events.some((e) => e.event === "title_status"), "refreshed at turn 5");
    await waitFor(async () => (await title()) === "Fifth turn title" || null);
    const request = JSON.stringify(h.fake.chatRequests.at(-1)!.body.messages);
    ok(request.includes("turn 5 about databases"), "from the latest exchange");
    // A title the person set stays put at the next multiple.
    await h.call("POST", "/api/session/rename", { session_id: h.sessionId, title: "Mine" });
    for (let n = 6; n <= 10; n++) {
      h.fake.enqueue({ text: `answer ${n}` });
      await h.stream((await h.start(`turn ${n}`)).stream_id);
    }
    strictEqual(await title(), "Mine");
  } finally {
    await h.close();
  }
});

Deno.test("GET /api/session masks credentials unless api_redact_enabled is off", async () => {
  await withApp(async (app) => {
    const key = "sk-proj-abcdefghijklmnopqrstuvwxyz0123";
    const imported = await app.call<{ session: { session_id: string } }>(
      "POST",
      "/api/session/import",
      { title: "keys", messages: [{ role: "user", content: `my key is ${key}` }] },
    );
    const id = imported.body.session.session_id;
    const text = async () =>
      JSON.stringify((await app.call("GET", `/api/session?session_id=${id}`)).body);
    const masked = await text();
    ok(!masked.includes(key) && masked.includes("sk-pro...0123"), masked);
    await app.call("POST", "/api/settings", { api_redact_enabled: false });
    ok((await text()).includes(key), "off: the text as stored");
  });
});

Deno.test("redactText() masks keys, tokens, passwords and private keys, and leaves prose alone", () => {
  strictEqual(
    redactText("OPENAI_API_KEY=sk-abcdefghijklmnop12345678"),
    "OPENAI_API_KEY=sk-abc...5678",
  );
  strictEqual(
    redactText("Authorization: Bearer abcdefghijklmnopqrstuvwx"),
    "Authorization: Bearer abcdef...uvwx",
  );
  strictEqual(redactText("postgres://me:hunter2secret@db/x"), "postgres://me:***@db/x");
  strictEqual(redactText('{"api_key": "abcd1234efgh5678ijkl"}'), '{"api_key": "abcd12...ijkl"}');
  strictEqual(redactText("ghp_abcdefghijklmnopqrstuvwxyz0123456789"), "ghp_ab...6789");
  strictEqual(
    redactText("-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----"),
    "[REDACTED PRIVATE KEY]",
  );
  for (const plain of ["max_tokens: 4096", "API_KEY=$OPENAI_API_KEY", "a token of thanks"]) {
    strictEqual(redactText(plain), plain);
  }
});
