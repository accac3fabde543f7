// The agent's extensions in the Control Center, in a real browser: adding a stdio MCP server
// (tests/fixtures/mcp_server.ts) through the form connects it and lists its tools, reconnecting
// keeps it connected, a broken one shows its error, toggles and delete go through the API;
// skills are created, disabled, edited and deleted; memory files are saved.
import { deepStrictEqual, match, ok as assert, strictEqual } from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { parseDocument } from "yaml";
import { browserTest, type Page, withAppInBrowser } from "./browser.ts";

const FIXTURE = fileURLToPath(new URL("../fixtures/mcp_server.ts", import.meta.url));
const REPO = fileURLToPath(new URL("../..", import.meta.url));
const DENO_DIR = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME") ?? "/root"}/.cache/deno`;

async function openTab(page: Page, tab: string): Promise<void> {
  await page.locator('[data-action="control-center"]').click();
  await page.waitForSelector("[data-cc-dialog]");
  await page.locator(`[data-cc-tab="${tab}"]`).click();
}

browserTest(
  "MCP panel: add a stdio server, see it connected with its tools, reconnect, edit, delete",
  async () => {
    await withAppInBrowser({
      configYaml: "# my settings\nmodel:\n  provider: custom\n  base_url: http://127.0.0.1:9/v1\n",
      env: { DENO_DIR, LANG: "C.UTF-8" },
    }, async ({ app, url, browser }) => {
      const page = await browser.newPage();
      await page.goto(`${url}/`);
      await openTab(page, "mcp");
      await page.waitForSelector("[data-cc-block=mcp] .cc-empty");

      await page.locator('[data-cc-action="mcp-new"]').click();
      const form = page.locator('form[data-cc-form="mcp-save"]');
      await form.waitFor();
      strictEqual(
        await page.evaluate(() => document.activeElement?.id),
        "cc-mcp-name",
        "the new form takes focus on its first field",
      );
      // Missing command: said in place, nothing written.
      await form.locator("#cc-mcp-name").fill("fixture");
      await form.locator('[type="submit"]').click();
      await page.waitForSelector('[data-cc-status="mcp-form"][data-tone="error"]');
      strictEqual(await form.locator("#cc-mcp-command").getAttribute("aria-invalid"), "true");

      await form.locator("#cc-mcp-command").fill(Deno.execPath());
      await form.locator("#cc-mcp-args").fill(
        ["run", "-A", "--quiet", FIXTURE, "fixture"].join("\n"),
      );
      await form.locator("#cc-mcp-env").fill(
        "DENO_DIR=${DENO_DIR}\nFIXTURE_TOKEN=literal-secret-9876",
      );
      await form.locator("#cc-mcp-cwd").fill(REPO);
      await browser.screenshot(page, "mcp-form-filled");
      await form.locator('[type="submit"]').click();

      const row = page.locator('[data-mcp-server="fixture"]');
      await page.waitForSelector('[data-mcp-server="fixture"][data-status="connected"]', {
        timeout: 60_000,
      });
      const { body: tools } = await app.call<{ tools: Array<{ server: string }> }>(
        "GET",
        "/api/mcp/tools",
      );
      const count = tools.tools.filter((t) => t.server === "fixture").length;
      assert(count >= 2, "the fixture has tools");
      strictEqual(
        (await row.locator(".cc-badge").textContent())!.trim(),
        `Connected · ${count} tools`,
      );
      match(
        (await page.locator('[data-cc-status="mcp"]').textContent())!,
        new RegExp(`fixture connected: ${count} tools`),
      );
      await browser.screenshot(page, "mcp-connected");

      // Written to config.yaml, the comment kept.
      const text = await Deno.readTextFile(app.ctx.config.configPath);
      assert(text.startsWith("# my settings"));
      const written = (parseDocument(text).toJS() as {
        mcp_servers: Record<string, Record<string, unknown>>;
      }).mcp_servers.fixture;
      deepStrictEqual(written.args, ["run", "-A", "--quiet", FIXTURE, "fixture"]);
      deepStrictEqual(written.env, {
        DENO_DIR: "${DENO_DIR}",
        FIXTURE_TOKEN: "literal-secret-9876",
      });

      // Reconnect: still connected.
      await row.locator('[data-cc-action="mcp-reload"]').click();
      await page.waitForSelector('[data-cc-status="mcp"]:text("fixture connected")');
      strictEqual(await row.getAttribute("data-status"), "connected");
      await page.locator('[data-cc-action="mcp-reload-all"]').click();
      await page.waitForSelector('[data-cc-status="mcp"]:text("1 server connected.")');

      // Edit: the secret comes back masked and, saved unchanged, stays the same secret.
      await row.locator('[data-cc-action="mcp-edit"]').click();
      await form.waitFor();
      const envShown = await form.locator("#cc-mcp-env").inputValue();
      assert(!envShown.includes("literal-secret-9876"), `env is masked: ${envShown}`);
      assert(envShown.includes("DENO_DIR=${DENO_DIR}"), "an ${ENV} reference is shown as is");
      strictEqual(await form.locator("#cc-mcp-name").getAttribute("readonly"), "");
      await form.locator("#cc-mcp-approval").selectOption("allow");
      await form.locator('[type="submit"]').click();
      await page.waitForSelector(
        '[data-mcp-server="fixture"][data-status="connected"] >> text=auto-approve',
      );
      const after = (parseDocument(await Deno.readTextFile(app.ctx.config.configPath)).toJS() as {
        mcp_servers: Record<string, { env: Record<string, string>; approval: string }>;
      }).mcp_servers.fixture;
      strictEqual(
        after.env.FIXTURE_TOKEN,
        "literal-secret-9876",
        "the masked value kept the secret",
      );
      strictEqual(after.approval, "allow");

      // Disable, then enable (which reconnects).
      await row.locator('[data-cc-action="mcp-toggle"]').click({ force: true });
      await page.waitForSelector('[data-mcp-server="fixture"][data-status="disabled"]');
      await page.locator('[data-mcp-server="fixture"] [data-cc-action="mcp-toggle"]').click({
        force: true,
      });
      await page.waitForSelector('[data-mcp-server="fixture"][data-status="connected"]', {
        timeout: 60_000,
      });

      // A server that cannot start shows why.
      await page.locator('[data-cc-action="mcp-new"]').click();
      await form.locator("#cc-mcp-name").fill("broken");
      await form.locator("#cc-mcp-command").fill("/nonexistent/mcp-server-binary");
      await form.locator('[type="submit"]').click();
      await page.waitForSelector(
        '[data-mcp-server="broken"][data-status="error"] [data-mcp-error]',
      );
      strictEqual(
        await page.locator('[data-cc-status="mcp"]').getAttribute("data-tone"),
        "error",
      );
      await browser.screenshot(page, "mcp-with-error");

      // Delete asks first.
      await page.locator('[data-mcp-server="broken"] [data-cc-action="mcp-edit"]').click();
      await form.locator("[data-cc-ask]").click();
      await form.locator('[data-cc-action="mcp-delete"]').click();
      await page.waitForSelector('[data-mcp-server="broken"]', { state: "detached" });
      deepStrictEqual(
        (await app.call<{ servers: Array<{ name: string }> }>("GET", "/api/mcp/servers")).body
          .servers.map((s) => s.name),
        ["fixture"],
      );
      browser.assertNoErrors();
    });
  },
);

browserTest(
  "Skills and memory panels: create, disable, edit, delete a skill; save memory",
  async () => {
    await withAppInBrowser({}, async ({ app, url, browser }) => {
      const page = await browser.newPage();
      await page.goto(`${url}/`);
      await openTab(page, "skills");
      await page.locator('[data-cc-action="skill-new"]').click();
      const form = page.locator('form[data-cc-form="skill-save"]');
      await form.waitFor();
      assert((await form.locator("#cc-skill-content").inputValue()).startsWith("---\nname:"));
      await form.locator("#cc-skill-name").fill("release-notes");
      await form.locator("#cc-skill-content").fill(
        "---\nname: release-notes\ndescription: Draft release notes from merged pull requests.\n---\n\n# Release notes\n\n1. List merged PRs.\n",
      );
      await form.locator('[type="submit"]').click();
      const row = page.locator('[data-skill="release-notes"]');
      await row.waitFor();
      strictEqual(
        await row.locator(".cc-row-meta").textContent(),
        "Draft release notes from merged pull requests.",
      );
      await browser.screenshot(page, "skills-list");

      await row.locator('[data-cc-action="skill-toggle"]').click({ force: true });
      await page.waitForSelector('[data-skill="release-notes"][data-enabled="false"]');
      const listed = await app.call<{ skills: Array<{ name: string; enabled: boolean }> }>(
        "GET",
        "/api/skills",
      );
      deepStrictEqual(listed.body.skills.map((s) => [s.name, s.enabled]), [[
        "release-notes",
        false,
      ]]);

      await page.locator('[data-skill="release-notes"] [data-cc-action="skill-edit"]').click();
      await form.waitFor();
      const content = await form.locator("#cc-skill-content").inputValue();
      assert(content.includes("enabled: false"), "the editor shows the file as saved");
      await form.locator("#cc-skill-content").fill(
        content.replace("1. List merged PRs.", "1. Group by area."),
      );
      await form.locator('[type="submit"]').click();
      await page.waitForSelector('[data-cc-status="skills"]:text("release-notes saved.")');
      const saved = await app.call<{ content: string }>(
        "GET",
        "/api/skills/content?name=release-notes",
      );
      assert(saved.body.content.includes("1. Group by area."));

      await page.locator('[data-skill="release-notes"] [data-cc-action="skill-edit"]').click();
      await form.locator("[data-cc-ask]").click();
      await form.locator('[data-cc-action="skill-delete"]').click();
      await page.waitForSelector('[data-skill="release-notes"]', { state: "detached" });
      strictEqual(
        (await app.call<{ skills: unknown[] }>("GET", "/api/skills")).body.skills.length,
        0,
      );

      // Memory: the counter follows typing; Save writes the file.
      await page.locator('[data-cc-tab="memory"]').click();
      const area = page.locator("#cc-memory-user");
      await area.fill("- Prefers small, reviewed commits.\n- Works in Europe/Berlin.\n");
      match(
        (await page.locator("#cc-memory-user-count").textContent())!,
        /^6\d of 8,000 characters$/,
      );
      await page.locator('form[data-section="user"] [type="submit"]').click();
      await page.waitForSelector('[data-cc-status="memory-user"][data-tone="success"]');
      const memory = await app.call<{ user: string; memory: string }>("GET", "/api/memory");
      strictEqual(
        memory.body.user,
        "- Prefers small, reviewed commits.\n- Works in Europe/Berlin.\n",
      );
      strictEqual(memory.body.memory, "");
      await browser.screenshot(page, "memory-saved");
      browser.assertNoErrors();
    });
  },
);
