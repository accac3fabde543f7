// The composer, workspace-panel, sidebar and new-chat preferences in Chromium (issue 30): each is
// changed through the Control Center (Preferences) or POST /api/settings, and the page follows at
// once and again after a reload. Composer controls hide and reorder; the panel's tabs hide and
// reorder; the sidebar turns detailed and drops task chats; the new-chat screen loses its
// suggestions or its welcome; a long paste becomes a file only while that is on; the quota chip
// shows today's usage; another workspace starts a new chat when asked. Screenshots of the changed
// UI go to /tmp/shots/settings_b/ when that folder exists (both themes, desktop and phone).
import { ok, strictEqual } from "node:assert/strict";
import { browserTest, type Page, screenshotThemes, waitForIslands } from "./browser.ts";
import { transcriptFixture } from "./transcript_harness.ts";
import { sql } from "../../lib/storage/db.ts";

const SHOTS = "/tmp/shots/settings_b";

async function openPreferences(page: Page): Promise<void> {
  await page.locator('[data-action="control-center"]').click();
  await page.waitForSelector('[data-cc-dialog][role="dialog"]');
  await page.locator('[data-cc-tab="preferences"]').click();
  await page.locator("[data-cc-layout]").waitFor();
}

async function closePreferences(page: Page): Promise<void> {
  await page.keyboard.press("Escape");
  await page.locator("[data-cc-layout]").waitFor({ state: "detached" });
}

/** Run `act` and wait until the POST /api/settings it causes has answered 200. */
async function saving(page: Page, act: () => Promise<unknown>): Promise<void> {
  const [res] = await Promise.all([
    page.waitForResponse((r) =>
      r.url().endsWith("/api/settings") && r.request().method() === "POST"
    ),
    act(),
  ]);
  strictEqual(res.status(), 200);
}

/** Flip a switch of the layout options and wait until the server answered. */
async function flip(page: Page, key: string, on: boolean): Promise<void> {
  // The switch's input is see-through over its track: a person clicks the label.
  const box = page.locator(`input[data-pref="${key}"]`);
  strictEqual(await box.isChecked(), !on);
  await saving(page, () => box.locator("..").click());
  strictEqual(await box.isChecked(), on);
}

async function reload(page: Page): Promise<void> {
  await page.reload();
  await waitForIslands(page);
}

const shown = (page: Page, selector: string) =>
  page.locator(selector).first().evaluate((el) => el.getClientRects().length > 0);

const left = (page: Page, selector: string) =>
  page.locator(selector).first().evaluate((el) => el.getBoundingClientRect().left);

browserTest(
  "composer controls hide and reorder from the Control Center, live and after a reload",
  async () => {
    const f = await transcriptFixture({ width: 1280, height: 860 });
    const { page, h } = f;
    try {
      await f.open();
      const attach = '.composer-tool[data-action="attach"]';
      const model = '.composer-chip[data-chip="model"]';
      const workspace = '.composer-chip[data-chip="workspace"]';
      ok(await shown(page, attach));
      ok((await left(page, model)) < (await left(page, workspace)), "model first by default");

      await openPreferences(page);
      await page.locator('[data-cc-block="composer-controls"]').scrollIntoViewIfNeeded();
      await screenshotThemes(page, SHOTS, "cc-layout-options-desktop");
      await flip(page, "hide_composer_attach", true);
      // Workspace moves above model: two steps up (attach, prompts, model, workspace …).
      const up = '[data-order-pref="composer_control_order"] [data-order-id="workspace"] ' +
        '[data-order-move="up"]';
      for (let i = 0; i < 2; i++) {
        await saving(page, () => page.locator(up).click());
      }
      await closePreferences(page);
      ok(!(await shown(page, attach)), "hidden at once");
      ok((await left(page, workspace)) < (await left(page, model)), "reordered at once");

      await reload(page);
      ok(!(await shown(page, attach)), "still hidden after a reload");
      ok((await left(page, workspace)) < (await left(page, model)), "still reordered");
      const settings = (await h.call("GET", "/api/settings")).body;
      strictEqual(settings.hide_composer_attach, true);
      strictEqual(
        settings.composer_control_order.join(),
        "attach,workspace,prompts,model,profile,yolo",
      );

      // Through the API: the model and workspace chips go away on the next load.
      await h.call("POST", "/api/settings", {
        hide_composer_model: true,
        hide_composer_workspace: true,
      });
      await reload(page);
      ok(!(await shown(page, model)) && !(await shown(page, workspace)));
      await screenshotThemes(page, SHOTS, "composer-controls-hidden-desktop");

      // The dictate button and the approvals-off chip (shown while /yolo is on) go too.
      await h.call("POST", "/api/session/yolo", { session_id: h.sessionId, enabled: true });
      await reload(page);
      const yolo = '.composer-chip[data-chip="yolo"]';
      ok(await shown(page, yolo) && await shown(page, ".composer-dictate"));
      await h.call("POST", "/api/settings", { hide_composer_mic: true, hide_composer_yolo: true });
      await reload(page);
      ok(!(await shown(page, yolo)) && !(await shown(page, ".composer-dictate")));
      f.browser.assertNoErrors();
    } finally {
      await f.close();
    }
  },
);

browserTest("workspace panel tabs hide and reorder, live and after a reload", async () => {
  const f = await transcriptFixture({ width: 1280, height: 860 });
  const { page, h } = f;
  try {
    await f.open();
    await page.locator('.topbar [data-action="toggle-workspace"]').first().click();
    const git = '.panel-tab[data-panel-tab="git"]';
    const terminal = '.panel-tab[data-panel-tab="terminal"]';
    const files = '.panel-tab[data-panel-tab="files"]';
    await page.locator(git).waitFor();
    ok(await shown(page, git));

    await openPreferences(page);
    await saving(page, () => page.locator('input[data-tab-shown="git"]').uncheck());
    const list = '[data-order-pref="tab_order"]';
    for (let i = 0; i < 2; i++) {
      await saving(
        page,
        () => page.locator(`${list} [data-order-id="terminal"] [data-order-move="up"]`).click(),
      );
    }
    await closePreferences(page);
    ok(!(await shown(page, git)), "git tab hidden at once");
    ok((await left(page, terminal)) < (await left(page, files)), "terminal first at once");

    await reload(page);
    if (!(await shown(page, files))) {
      await page.locator('.topbar [data-action="toggle-workspace"]').first().click();
    }
    await page.locator(files).waitFor();
    ok(!(await shown(page, git)), "still hidden after a reload");
    ok((await left(page, terminal)) < (await left(page, files)), "still first");
    const s = (await h.call("GET", "/api/settings")).body;
    strictEqual(s.hidden_tabs.join(), "git");
    strictEqual(s.tab_order.join(), "terminal,files,git");
    await screenshotThemes(page, SHOTS, "panel-tabs-desktop");
    f.browser.assertNoErrors();
  } finally {
    await f.close();
  }
});

browserTest(
  "the sidebar turns detailed and leaves task chats out, live and after a reload",
  async () => {
    const f = await transcriptFixture({ width: 1280, height: 860 });
    const { page, h } = f;
    try {
      await h.app.ctx.db.run(
        sql`INSERT INTO sessions (session_id, title, workspace, created_at, updated_at,
            message_count, cron_job_id)
          VALUES ('cccccccccc01', 'Nightly digest run', ${h.workspace}, 1, 1, 2, 'job1'),
                 ('cccccccccc02', 'Plain chat', ${h.workspace}, 2, 2, 2, NULL)`,
      );
      await f.open();
      const task = '.session-row[data-session-id="cccccccccc01"]';
      await page.locator(task).waitFor();
      ok(!(await shown(page, ".session-meta")), "compact: one line");

      await openPreferences(page);
      await saving(
        page,
        () =>
          page.locator('input[data-pref="sidebar_density"][value="detailed"]').locator("..")
            .click(),
      );
      await flip(page, "show_cron_sessions", false);
      await closePreferences(page);
      ok(await shown(page, ".session-meta"), "detailed at once");
      await page.locator(task).waitFor({ state: "detached" });

      await reload(page);
      ok(await shown(page, ".session-meta"), "still detailed");
      strictEqual(await page.locator(task).count(), 0, "still left out");
      await screenshotThemes(page, SHOTS, "sidebar-detailed-desktop");
      f.browser.assertNoErrors();
    } finally {
      await f.close();
    }
  },
);

browserTest(
  "the new-chat screen: suggestions fill the composer and hide, the welcome hides",
  async () => {
    const f = await transcriptFixture({ width: 1280, height: 860 });
    const { page, h } = f;
    try {
      await page.goto(`${h.url}/`);
      await waitForIslands(page);
      await screenshotThemes(page, SHOTS, "empty-state-desktop");
      const first = page.locator("[data-suggestion]").first();
      await first.click();
      strictEqual(await page.locator("#composer-input").inputValue(), await first.textContent());

      await openPreferences(page);
      await flip(page, "hide_empty_state_suggestions", true);
      await closePreferences(page);
      ok(!(await shown(page, ".empty-suggestions")), "suggestions hidden at once");
      ok(await shown(page, ".empty-welcome"));

      await h.call("POST", "/api/settings", { hide_empty_state_panel: true });
      await reload(page);
      ok(!(await shown(page, ".empty-suggestions")), "still hidden after a reload");
      ok(!(await shown(page, ".empty-welcome")), "the welcome too (set through the API)");

      // Phone: the same screen and the options, both themes.
      await h.call("POST", "/api/settings", {
        hide_empty_state_panel: false,
        hide_empty_state_suggestions: false,
      });
      const phone = await f.browser.newPage({ width: 390, height: 844 });
      await phone.goto(`${h.url}/`);
      await waitForIslands(phone);
      await screenshotThemes(phone, SHOTS, "empty-state-phone");
      await phone.locator(".topbar-drawer-btn").click();
      await openPreferences(phone);
      await phone.locator('[data-cc-block="composer-controls"]').scrollIntoViewIfNeeded();
      await screenshotThemes(phone, SHOTS, "cc-layout-options-phone");
      f.browser.assertNoErrors();
    } finally {
      await f.close();
    }
  },
);

/** Paste `text` into the composer as the browser would (a synthetic clipboard event). */
const paste = (page: Page, text: string) =>
  page.locator("#composer-input").evaluate((el, text) => {
    const data = new DataTransfer();
    data.setData("text/plain", text);
    el.dispatchEvent(
      new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);

browserTest(
  "a long paste becomes a file only while that is on; the quota chip shows today's use",
  async () => {
    const f = await transcriptFixture({ width: 1280, height: 860 });
    const { page, h } = f;
    try {
      h.fake.enqueue({ text: "Hello." });
      await h.stream((await h.start("hi")).stream_id);
      await f.open();
      const long = "line of pasted text\n".repeat(1000);
      await paste(page, long);
      await page.locator(".attachment-chip").first().waitFor();
      await page.locator(".attachment-remove").first().click();
      await page.locator(".attachment-chip").first().waitFor({ state: "detached" });

      await openPreferences(page);
      await flip(page, "large_text_paste_as_attachment", false);
      await flip(page, "show_quota_chip", true);
      await closePreferences(page);
      await paste(page, long);
      strictEqual(await page.locator(".attachment-chip").count(), 0, "the paste stays text");
      const chip = page.locator('.composer-quota[data-chip="quota"]');
      await chip.waitFor();
      ok(/\d/.test((await chip.textContent()) ?? ""), "today's tokens");

      await reload(page);
      await chip.waitFor();
      await paste(page, long);
      strictEqual(await page.locator(".attachment-chip").count(), 0, "still text after a reload");
      await screenshotThemes(page, SHOTS, "composer-quota-chip-desktop");
      const phone = await f.browser.newPage({ width: 390, height: 844 });
      await phone.goto(`${h.url}/?session=${h.sessionId}`);
      await waitForIslands(phone);
      await screenshotThemes(phone, SHOTS, "composer-phone");
      f.browser.assertNoErrors();
    } finally {
      await f.close();
    }
  },
);

browserTest(
  "another workspace starts a new chat when new_chat_on_workspace_switch is on",
  async () => {
    const f = await transcriptFixture({ width: 1280, height: 860 });
    const { page, h } = f;
    try {
      h.fake.enqueue({ text: "Hello." });
      await h.stream((await h.start("hi")).stream_id);
      const other = await Deno.makeTempDir({ prefix: "hermes-ws-" });
      await h.call("POST", "/api/workspaces/add", { path: other });
      await f.open();
      await openPreferences(page);
      await flip(page, "new_chat_on_workspace_switch", true);
      await closePreferences(page);
      await page.locator('.composer-chip[data-chip="workspace"]').click();
      const option = page.locator(`.workspace-option[data-path="${await Deno.realPath(other)}"]`);
      await Promise.all([page.waitForURL((u) => !u.search.includes(h.sessionId)), option.click()]);
      await waitForIslands(page);
      const id = new URL(page.url()).searchParams.get("session")!;
      ok(id && id !== h.sessionId, "a new chat opened");
      const before =
        (await h.call("GET", `/api/session?session_id=${h.sessionId}&messages=0`)).body;
      strictEqual(before.session.workspace, h.workspace, "the open chat kept its workspace");
      const after = (await h.call("GET", `/api/session?session_id=${id}&messages=0`)).body;
      strictEqual(after.session.workspace, await Deno.realPath(other));
      f.browser.assertNoErrors();
    } finally {
      await f.close();
    }
  },
);
