// GET /partials/control-center: the Control Center dialog as server-rendered HTML (every tab,
// the open conversation's export links, one panel on its own with `section=`), never carrying
// a stored secret in full; and `/` sending a first run to the setup wizard.
import { ok, strictEqual } from "node:assert/strict";
import { createTestApp, type TestApp } from "./helpers.ts";
import { appendMessages } from "../lib/sessions/messages.ts";
import { createSession } from "../lib/sessions/sessions.ts";
import { CONTROL_TABS } from "../components/ControlCenter.tsx";

async function fragment(app: TestApp, query: string): Promise<string> {
  const res = await app.request("GET", `/partials/control-center${query}`);
  strictEqual(res.status, 200, await res.clone().text());
  strictEqual(res.headers.get("content-type"), "text/html; charset=utf-8");
  strictEqual(res.headers.get("cache-control"), "no-store");
  return await res.text();
}

Deno.test("GET /partials/control-center renders the dialog with every tab and the open chat", async () => {
  const app = await createTestApp();
  try {
    const s = await createSession(app.ctx.db, app.ctx.clock, {
      workspace: app.workspace,
      title: "Plan",
    });
    await appendMessages(app.ctx.db, app.ctx.clock, s.session_id, [
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello" },
    ]);
    const html = await fragment(app, `?session=${s.session_id}&tab=mcp`);
    ok(
      html.startsWith('<div class="cc-layer" data-cc-layer="true" hidden>'),
      "hidden until opened",
    );
    ok(html.includes('role="dialog" aria-modal="true" aria-labelledby="cc-title"'));
    for (const t of CONTROL_TABS) {
      ok(html.includes(`id="cc-tab-${t.id}"`), `tab ${t.id}`);
      ok(html.includes(`data-cc-section="${t.id}"`), `panel ${t.id}`);
    }
    ok(html.includes('aria-selected="true" tabindex="0" data-cc-tab="mcp"'), "the asked tab");
    ok(html.includes(`href="/api/session/export?session_id=${s.session_id}&amp;format=json"`));
    ok(html.includes("Plan</span> · 2 messages"));
    ok(html.includes("data-action") === false, "the dialog holds no opener of its own");
  } finally {
    await app.close();
  }
});

Deno.test("GET /partials/control-center without a conversation offers import only", async () => {
  const app = await createTestApp();
  try {
    const html = await fragment(app, "?session=ffffffffffff");
    ok(html.includes("Open a conversation to export it."));
    ok(!html.includes("/api/session/export"));
    ok(html.includes("data-cc-import"));
  } finally {
    await app.close();
  }
});

Deno.test("GET /partials/control-center never sends a stored secret in full", async () => {
  const app = await createTestApp({
    configYaml: `mcp_servers:
  github:
    command: npx
    env:
      GITHUB_TOKEN: ghp_supersecretvalue1234567890
    headers: {}
  remote:
    url: https://mcp.example.com/mcp
    headers:
      Authorization: Bearer remote-secret-token-abcdef123
`,
  });
  try {
    const saved = await app.call("POST", "/api/settings", {
      provider_keys: { anthropic: "sk-ant-secret-0123456789abcdef" },
    });
    strictEqual(saved.status, 200);
    const pages = [
      await fragment(app, ""),
      await fragment(app, "?section=providers"),
      await fragment(app, "?section=mcp&mcp=github"),
      await fragment(app, "?section=mcp&mcp=remote"),
    ];
    for (const html of pages) {
      for (const secret of ["supersecretvalue", "remote-secret-token", "secret-0123456789"]) {
        ok(!html.includes(secret), `${secret} leaked`);
      }
    }
    ok(pages[1].includes('data-key-state="stored"'), "the stored key is shown as stored");
    ok(pages[2].includes('data-cc-form="mcp-save" data-mode="edit" data-transport="stdio"'));
    ok(pages[3].includes('data-transport="http"'));
    ok(pages[3].includes("Authorization: Bearer "), "the header name and scheme stay readable");
  } finally {
    await app.close();
  }
});

Deno.test("GET /partials/control-center?section= renders one panel; an unknown one is a 400", async () => {
  const app = await createTestApp();
  try {
    const mcp = await fragment(app, "?section=mcp&mcp=");
    ok(!mcp.includes("cc-layer"), "only the panel");
    ok(mcp.includes('data-cc-form="mcp-save" data-mode="new"'));
    const skill = await fragment(app, "?section=skills&skill=");
    ok(skill.includes('data-cc-form="skill-save" data-mode="new"'));
    ok(skill.includes("name: my-skill"), "a new skill starts from the template");
    const missing = await fragment(app, "?section=skills&skill=nope");
    ok(missing.includes("Skill &quot;nope&quot; not found"));
    const system = await fragment(app, "?section=system");
    const sandbox = await app.ctx.tools.commands.status();
    ok(system.includes(`Bubblewrap sandbox ${sandbox.bubblewrap ? "on" : "off"}`));
    const bad = await app.call<{ error: string }>("GET", "/partials/control-center?section=nope");
    strictEqual(bad.status, 400);
    ok(bad.body.error.includes('"section"'));
  } finally {
    await app.close();
  }
});

Deno.test("the language setting renders the page in it: Arabic right-to-left, the Control Center too", async () => {
  const app = await createTestApp();
  try {
    strictEqual((await app.call("POST", "/api/settings", { language: "ar" })).status, 200);
    const page = await app.request("GET", "/", undefined, { "accept-language": "en-US,en" });
    strictEqual(page.status, 200);
    const html = await page.text();
    ok(html.includes('<html lang="ar" dir="rtl"'), html.slice(0, 120));
    const cc = await fragment(app, "?tab=appearance");
    ok(cc.includes(">المظهر</button>"), "the tab names are Arabic");
    ok(
      cc.includes('<option value="ar" lang="ar" selected>العربية</option>'),
      "the picker shows it",
    );
    await app.call("POST", "/api/settings", { language: "auto" });
    const en = await (await app.request("GET", "/", undefined, { "accept-language": "en-US" }))
      .text();
    ok(en.includes('<html lang="en"'), "auto follows the browser again");
    ok((await fragment(app, "?tab=appearance")).includes('<option value="auto" selected>'));
  } finally {
    await app.close();
  }
});

Deno.test("GET / sends a first run to /onboarding until setup is completed or skipped", async () => {
  const app = await createTestApp({
    env: {
      HERMES_WEBUI_SKIP_ONBOARDING: "",
      OLLAMA_HOST: "http://127.0.0.1:9",
      LMSTUDIO_BASE_URL: "http://127.0.0.1:9/v1",
    },
  });
  try {
    const first = await app.request("GET", "/?session=abc");
    strictEqual(first.status, 302);
    strictEqual(first.headers.get("location"), "/onboarding");
    const wizard = await app.request("GET", "/onboarding");
    strictEqual(wizard.status, 200);
    const html = await wizard.text();
    ok(html.includes('<form class="ob" data-ob'));
    ok(html.includes('data-ob-action="skip"'), "the wizard can be skipped");
    await app.call("POST", "/api/settings", { onboarding_completed: true });
    strictEqual((await app.request("GET", "/")).status, 200);
    const again = await (await app.request("GET", "/onboarding")).text();
    ok(again.includes('href="/">Back to the console'), "re-running setup offers a way back");
  } finally {
    await app.close();
  }
});
