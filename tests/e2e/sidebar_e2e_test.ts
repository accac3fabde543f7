// The sidebar in a real browser against the real app: search over titles and message text
// with highlighted (and escaped) snippets, the row menu (rename inline, pin and the pin cap,
// archive and the archive view, duplicate, export, delete with confirmation), projects
// (create with a colour, move, filter, rename, delete) and refreshing without a reload.
// Every test fails on a console error it did not expect; screenshots go to the run's dir.
import { deepStrictEqual as assertEquals, ok as assert, strictEqual } from "node:assert/strict";
import type { TestApp } from "../helpers.ts";
import {
  type BrowserHarness,
  browserTest,
  type Page,
  waitForIslands,
  withAppInBrowser,
} from "./browser.ts";
import { seedApp, type SeededConsole } from "./seed.ts";
import { appendMessages } from "../../lib/sessions/messages.ts";
import { createSession } from "../../lib/sessions/sessions.ts";
import { sessionEvents } from "../../lib/sessions/session_events.ts";
import { sql } from "../../lib/storage/db.ts";

interface Fixture {
  app: TestApp;
  seeded: SeededConsole;
  url: string;
  browser: BrowserHarness;
  page: Page;
}

/** A seeded console served on loopback with a browser page; everything closed afterwards. */
function sidebarTest(name: string, fn: (f: Fixture) => Promise<void>) {
  browserTest(name, () =>
    withAppInBrowser({}, async ({ app, url, browser }) => {
      const seeded = await seedApp(app, { dark: true });
      const page = await browser.newPage();
      await fn({ app, seeded, url, browser, page });
    }));
}

const row = (page: Page, title: string) =>
  page.locator(".session-row", { has: page.locator(".session-title", { hasText: title }) });

async function openRowMenu(page: Page, title: string) {
  const r = row(page, title);
  await r.hover();
  await r.locator(".session-menu-btn").click();
  await page.locator(".menu[data-level='0']").waitFor();
}

/** Console errors other than the failed loads of the API answers a test provoked. */
const unexpected = (errors: string[], ...statuses: number[]) =>
  errors.filter((e) => !statuses.some((s) => e.includes(`status of ${s}`)));

sidebarTest("search finds message text and shows the match highlighted and escaped", async (f) => {
  const { app, page, browser } = f;
  const clock = () => app.ctx.clock();
  const hit = await createSession(app.ctx.db, clock, {
    workspace: app.workspace,
    title: "Weekly sync",
  });
  await appendMessages(app.ctx.db, clock, hit.session_id, [
    { role: "user", content: "Where did the <b>zeppelin</b> manifest go?" },
    { role: "assistant", content: "It moved to docs/." },
  ]);
  const tricky = await createSession(app.ctx.db, clock, {
    workspace: app.workspace,
    title: '<img src=x onerror="alert(1)"> zeppelins',
  });
  await appendMessages(app.ctx.db, clock, tricky.session_id, [{ role: "user", content: "hi" }]);

  await page.goto(`${f.url}/`);
  await waitForIslands(page);
  const marker = await page.evaluate(() => ((globalThis as { __kept?: number }).__kept = 42));
  await page.locator("#session-search").fill("zeppelin");
  const results = page.locator("[data-group='results']");
  await results.waitFor();
  strictEqual(await results.locator(".session-group-label").textContent(), "2 results");

  // The title match first, highlighted, with its markup shown as text.
  const titleRow = page.locator(`.session-row[data-session-id="${tricky.session_id}"]`);
  strictEqual(
    await titleRow.locator(".session-title").textContent(),
    '<img src=x onerror="alert(1)"> zeppelins',
  );
  strictEqual(await titleRow.locator(".session-title mark").textContent(), "zeppelins");
  strictEqual(await page.locator(".session-list img").count(), 0, "no markup from a title");

  // The content match shows the snippet with the word marked and the user's tags as text.
  const contentRow = page.locator(`.session-row[data-session-id="${hit.session_id}"]`);
  const snippet = contentRow.locator(".session-snippet");
  assert((await snippet.textContent())!.includes("<b>zeppelin</b> manifest"));
  strictEqual(await snippet.locator("mark").textContent(), "zeppelin");
  strictEqual(await snippet.locator("b").count(), 0, "snippet text is escaped");
  strictEqual(new URL(page.url()).searchParams.get("q"), "zeppelin", "the URL keeps the search");
  strictEqual(
    await page.evaluate(() => (globalThis as { __kept?: number }).__kept),
    marker,
    "results arrived without a page reload",
  );
  await browser.screenshot(page, "sidebar-search");

  // The same view is rendered by the server on reload (and without JavaScript).
  await page.reload();
  await results.waitFor();
  strictEqual(await page.locator("#session-search").inputValue(), "zeppelin");
  strictEqual(await snippet.locator("mark").textContent(), "zeppelin");

  // Escape clears the search and brings the grouped list back.
  await page.locator("#session-search").press("Escape");
  await page.locator("[data-group='today']").waitFor();
  strictEqual(await results.count(), 0);
  strictEqual(new URL(page.url()).searchParams.get("q"), null);
  assertEquals(browser.errors, []);
});

sidebarTest("row menu renames inline, pins up to the cap, duplicates and exports", async (f) => {
  const { app, page, browser, seeded } = f;
  await page.goto(`${f.url}/`);
  await waitForIslands(page);

  // Rename inline (Enter saves), reflected in the list and the API.
  await openRowMenu(page, "Explain the approval queue");
  await browser.screenshot(page, "sidebar-row-menu");
  await page.locator("[data-menu-action='rename']").click();
  const input = page.locator("[data-rename]");
  await input.waitFor();
  strictEqual(await input.inputValue(), "Explain the approval queue");
  await input.fill("Approval queue, explained");
  await input.press("Enter");
  await row(page, "Approval queue, explained").waitFor();
  const id = seeded.byTitle["Explain the approval queue"];
  const after = await app.call<{ session: { title: string } }>(
    "GET",
    `/api/session?session_id=${id}`,
  );
  strictEqual(after.body.session.title, "Approval queue, explained");

  // Escape cancels a rename.
  await openRowMenu(page, "Approval queue, explained");
  await page.locator("[data-menu-action='rename']").click();
  await input.fill("Not this");
  await input.press("Escape");
  await row(page, "Approval queue, explained").waitFor();
  strictEqual(await input.count(), 0);

  // Pin: into the Pinned group.
  await openRowMenu(page, "Approval queue, explained");
  await page.locator("[data-menu-action='pin']").click();
  await page.locator("[data-group='pinned'] .session-row", { hasText: "Approval queue" })
    .waitFor();

  // A third pin fills the cap; a fourth is refused calmly with the server's sentence.
  await app.call("POST", "/api/session/pin", {
    session_id: seeded.byTitle["Rename config keys"],
    pinned: true,
  });
  await openRowMenu(page, "Draft the migration guide");
  await page.locator("[data-menu-action='pin']").click();
  const notice = page.locator("[data-sidebar-notice]");
  await notice.waitFor({ state: "visible" });
  assert((await notice.textContent())!.includes("Up to 3 sessions can be pinned"));
  strictEqual(await notice.getAttribute("data-tone"), "info", "a refusal, not an alarm");
  await browser.screenshot(page, "sidebar-pin-cap");
  // The list shows what the server has: the pin made elsewhere, not the refused one.
  await page.waitForFunction(() =>
    document.querySelectorAll("[data-group='pinned'] .session-row").length === 3
  );
  strictEqual(
    await page.locator("[data-group='pinned'] .session-row", { hasText: "Draft the migration" })
      .count(),
    0,
  );

  // Duplicate: a copy appears in the list.
  await openRowMenu(page, "Benchmark sqlite WAL");
  await page.locator("[data-menu-action='duplicate']").click();
  await page.waitForFunction(() =>
    [...document.querySelectorAll(".session-title")]
      .filter((t) => t.textContent?.includes("Benchmark sqlite WAL")).length === 2
  );

  // Export: Markdown and JSON download links to the export route.
  await openRowMenu(page, "Rename config keys");
  await page.locator("[data-menu-action='export']").click();
  const md = page.locator("[data-menu-action='export-md']");
  await md.waitFor();
  const href = await md.getAttribute("href");
  strictEqual(
    href,
    `/api/session/export?session_id=${seeded.byTitle["Rename config keys"]}&format=md`,
  );
  strictEqual(await md.getAttribute("download"), "");
  const [download] = await Promise.all([page.waitForEvent("download"), md.click()]);
  strictEqual(download.suggestedFilename(), `hermes-${seeded.byTitle["Rename config keys"]}.md`);
  await openRowMenu(page, "Rename config keys");
  await page.locator("[data-menu-action='export']").click();
  const jsonHref = await page.locator("[data-menu-action='export-json']").getAttribute("href");
  const json = await app.request("GET", jsonHref!);
  strictEqual(json.status, 200);
  assert(json.headers.get("content-disposition")!.startsWith("attachment"));
  strictEqual((await json.json()).session_id, seeded.byTitle["Rename config keys"]);
  await page.keyboard.press("Escape");
  await page.keyboard.press("Escape");
  assertEquals(unexpected(browser.errors, 400), []);
});

sidebarTest(
  "a change made elsewhere waits while a row's menu is open; archiving from it keeps focus in the list",
  async (f) => {
    const { app, page, browser, seeded } = f;
    await page.goto(`${f.url}/`);
    await waitForIslands(page);
    const listeners = () => sessionEvents(app.ctx.db).subscriberCount();
    for (let i = 0; i < 300 && listeners() === 0; i++) await page.waitForTimeout(100);
    assert(listeners() > 0, "the sidebar listens to the change feed");

    // The menu of a row, opened from the keyboard: focus goes back to its "…" when it closes.
    const target = row(page, "Sketch MCP server settings");
    await target.locator(".session-menu-btn").focus();
    await page.keyboard.press("Enter");
    await page.locator(".menu[data-level='0']").waitFor();
    await target.evaluate((el) => (globalThis as { menuRow?: Element }).menuRow = el);

    // Another chat is renamed elsewhere while the menu is open. A second listener in the page
    // says when the feed has carried that change to the page.
    const heard = page.evaluate(() =>
      new Promise<void>((resolve) => {
        const feed = new EventSource("/api/sessions/events");
        feed.addEventListener("sessions_changed", () => (feed.close(), resolve()));
      })
    );
    for (let i = 0; i < 300 && listeners() < 2; i++) await page.waitForTimeout(50);
    await app.call("POST", "/api/session/rename", {
      session_id: seeded.byTitle["Rename config keys"],
      title: "Renamed elsewhere",
    });
    await heard;
    // Far past the refresh's 120 ms debounce and a loopback fetch: it would have run by now.
    await page.waitForTimeout(1_000);
    assert(
      await page.evaluate(() => (globalThis as { menuRow?: Element }).menuRow?.isConnected),
      "the list was not swapped under the open menu",
    );
    strictEqual(await page.locator(".menu[data-level='0']").count(), 1, "the menu is still open");

    // Archive from the menu: the row leaves, the waiting change shows, focus stays in the list.
    for (let i = 0; i < 12; i++) {
      if (
        await page.evaluate(() => document.activeElement?.matches("[data-menu-action='archive']"))
      ) {
        break;
      }
      await page.keyboard.press("ArrowDown");
    }
    await page.keyboard.press("Enter");
    await target.waitFor({ state: "detached" });
    await row(page, "Renamed elsewhere").waitFor();
    await page.waitForFunction(() =>
      document.activeElement?.matches(".session-list .session-item, .session-list button") ?? false
    );
    assertEquals(browser.errors, []);
  },
);

sidebarTest("archive hides a chat; the archive view lists it and unarchives it", async (f) => {
  const { app, page, browser, seeded } = f;
  await page.goto(`${f.url}/`);
  await waitForIslands(page);
  strictEqual(await page.locator(".archive-toggle").count(), 0, "nothing archived yet");

  // Right-click opens the same menu at the pointer.
  await row(page, "Sketch MCP server settings").click({ button: "right" });
  await page.locator("[data-menu-action='archive']").click();
  await page.locator(".archive-toggle").waitFor();
  strictEqual(await row(page, "Sketch MCP server settings").count(), 0);
  strictEqual(await page.locator(".archive-count").textContent(), "1");

  await page.locator(".archive-toggle").click();
  await page.locator(".archive-head").waitFor();
  strictEqual(new URL(page.url()).searchParams.get("archived"), "1");
  assertEquals(await page.locator(".session-row .session-title").allTextContents(), [
    "Sketch MCP server settings",
  ]);
  assert((await page.locator(".archive-title").textContent())!.includes("1"));
  await browser.screenshot(page, "sidebar-archive-view");

  // The archive view survives a reload (server-rendered from the URL).
  await page.reload();
  await page.locator(".archive-head").waitFor();

  await openRowMenu(page, "Sketch MCP server settings");
  strictEqual(await page.locator("[data-menu-action='archive']").textContent(), "Unarchive");
  await page.locator("[data-menu-action='archive']").click();
  await page.locator(".session-list-empty", { hasText: "No archived chats." }).waitFor();
  const s = await app.call<{ session: { archived: boolean } }>(
    "GET",
    `/api/session?session_id=${seeded.byTitle["Sketch MCP server settings"]}`,
  );
  strictEqual(s.body.session.archived, false);

  await page.locator(".archive-back").click();
  await row(page, "Sketch MCP server settings").waitFor();
  strictEqual(new URL(page.url()).searchParams.get("archived"), null);
  strictEqual(await page.locator(".archive-toggle").count(), 0);
  assertEquals(browser.errors, []);
});

sidebarTest("projects: create with a colour, move a chat in, filter, rename, delete", async (f) => {
  const { app, page, browser, seeded } = f;
  await page.goto(`${f.url}/`);
  await waitForIslands(page);

  await page.locator("[data-action='project-create']").click();
  const dialog = page.locator("dialog[data-dialog='create-project']");
  await dialog.waitFor();
  await dialog.locator("[data-project-name]").fill("research");
  await dialog.locator(".swatch[data-color='#B59DD9']").click();
  await browser.screenshot(page, "sidebar-project-create");
  await dialog.locator("[data-dialog-confirm]").click();
  const chip = page.locator(".project-chip[data-name='research']");
  await chip.waitFor();
  strictEqual(await chip.getAttribute("data-color"), "#B59DD9");
  const projectId = (await chip.getAttribute("data-project-id"))!;
  strictEqual(await dialog.count(), 0, "the dialog closed");

  // An empty name is refused inside the dialog, which stays open.
  await page.locator("[data-action='project-create']").click();
  await dialog.locator("[data-dialog-confirm]").click();
  assert(await dialog.locator("[data-project-name]:invalid").count() === 1);
  await dialog.press("Escape");
  await dialog.waitFor({ state: "detached" });

  // Move a chat into it from the row menu's submenu.
  await openRowMenu(page, "Dockerfile for arm64");
  await page.locator("[data-menu-action='move']").click();
  await page.locator(`[data-menu-action='move-${projectId}']`).click();
  const moved = row(page, "Dockerfile for arm64");
  await page.waitForFunction(
    (pid) =>
      [...document.querySelectorAll<HTMLElement>(".session-row")]
        .some((r) => r.dataset.projectId === pid),
    projectId,
  );
  strictEqual(await moved.getAttribute("data-project-id"), projectId);
  const s = await app.call<{ session: { project_id: string } }>(
    "GET",
    `/api/session?session_id=${seeded.byTitle["Dockerfile for arm64"]}`,
  );
  strictEqual(s.body.session.project_id, projectId);

  // The chip filters the list.
  await chip.click();
  await page.waitForURL(new RegExp(`project=${projectId}`));
  assertEquals(await page.locator(".session-row .session-title").allTextContents(), [
    "Dockerfile for arm64",
  ]);

  // Right-click the chip: rename, then delete (its chats are kept).
  await page.locator(".project-chip[data-name='research']").click({ button: "right" });
  await page.locator("[data-menu-action='project-rename']").click();
  const edit = page.locator("dialog[data-dialog='rename-project']");
  await edit.locator("[data-project-name]").fill("research notes");
  await edit.locator("[data-dialog-confirm]").click();
  await page.locator(".project-chip[data-name='research notes']").waitFor();

  // …recolour from its Colour submenu…
  await page.locator(".project-chip[data-name='research notes']").click({ button: "right" });
  await page.locator("[data-menu-action='project-color']").click();
  await page.locator(".menu[data-level='1'] [role=menuitemradio]", { hasText: "#E0B15D" }).click();
  await page.waitForFunction(() =>
    document.querySelector<HTMLElement>(".project-chip[data-name='research notes']")?.dataset
      .color === "#E0B15D"
  );

  await page.locator(".project-chip[data-name='research notes']").click({ button: "right" });
  await page.locator("[data-menu-action='project-delete']").click();
  const confirm = page.locator("dialog[data-dialog='delete-project']");
  await confirm.waitFor();
  await browser.screenshot(page, "sidebar-project-delete");
  await confirm.locator("[data-dialog-confirm]").click();
  // It was the active filter: the page shows every chat again.
  await page.waitForURL((u) => !u.searchParams.has("project"));
  strictEqual(await page.locator(".project-chip[data-name='research notes']").count(), 0);
  await row(page, "Dockerfile for arm64").waitFor();
  const kept = await app.call<{ session: { project_id: string | null } }>(
    "GET",
    `/api/session?session_id=${seeded.byTitle["Dockerfile for arm64"]}`,
  );
  strictEqual(kept.body.session.project_id, null);
  assertEquals(browser.errors, []);
});

sidebarTest("delete asks first; deleting the open chat creates nothing", async (f) => {
  const { app, page, browser, seeded } = f;
  const id = seeded.byTitle["Rename config keys"];
  const count = async () =>
    Number(
      (await app.ctx.db.get<{ n: number | string }>(sql`SELECT count(*) AS n FROM sessions`))?.n,
    );
  const before = await count();
  await page.goto(`${f.url}/?session=${id}`);
  await waitForIslands(page);

  // Keyboard: Enter on the "…" button opens the menu on its first item; arrows move;
  // Escape closes it and gives focus back.
  const btn = row(page, "Rename config keys").locator(".session-menu-btn");
  await btn.focus();
  await page.keyboard.press("Enter");
  await page.locator(".menu").waitFor();
  strictEqual(await page.evaluate(() => document.activeElement?.textContent), "Rename");
  await page.keyboard.press("ArrowDown");
  strictEqual(await page.evaluate(() => document.activeElement?.textContent), "Pin");
  await page.keyboard.press("End");
  strictEqual(await page.evaluate(() => document.activeElement?.textContent), "Delete…");
  await page.keyboard.press("Escape");
  await page.locator(".menu").waitFor({ state: "detached" });
  assert(await btn.evaluate((b) => b === document.activeElement), "focus returned");

  // Cancel keeps the chat.
  await openRowMenu(page, "Rename config keys");
  await page.locator("[data-menu-action='delete']").click();
  const dialog = page.locator("dialog[data-dialog='delete-session']");
  await dialog.waitFor();
  assert((await dialog.textContent())!.includes("“Rename config keys”"));
  strictEqual(
    await page.evaluate(() => document.activeElement?.textContent),
    "Cancel",
    "a destructive question starts on Cancel",
  );
  await browser.screenshot(page, "sidebar-delete-confirm");
  await dialog.locator("button", { hasText: "Cancel" }).click();
  await dialog.waitFor({ state: "detached" });
  strictEqual(await count(), before);

  // Confirm deletes it; the open chat was deleted, so the page returns to the empty state.
  await openRowMenu(page, "Rename config keys");
  await page.locator("[data-menu-action='delete']").click();
  await dialog.locator("[data-dialog-confirm]").click();
  await page.waitForURL((u) => u.pathname === "/" && !u.searchParams.has("session"));
  await waitForIslands(page);
  await page.locator(".empty-state").waitFor();
  strictEqual(await row(page, "Rename config keys").count(), 0);
  strictEqual(await count(), before - 1, "deleted, and no session was created in its place");
  assertEquals(browser.errors, []);
});

sidebarTest("the list refreshes on hermes:* run events without a reload", async (f) => {
  const { app, page, browser } = f;
  await page.goto(`${f.url}/`);
  await waitForIslands(page);
  await page.evaluate(() => ((globalThis as { __kept?: number }).__kept = 7));
  const clock = () => app.ctx.clock();
  const s = await createSession(app.ctx.db, clock, {
    workspace: app.workspace,
    title: "Fresh run",
  });
  await appendMessages(app.ctx.db, clock, s.session_id, [{ role: "user", content: "go" }]);
  strictEqual(await row(page, "Fresh run").count(), 0);
  await page.evaluate((sid) => {
    dispatchEvent(
      new CustomEvent("hermes:chat-started", {
        cancelable: true,
        detail: {
          session_id: sid,
          stream_id: "f".repeat(32),
          turn_id: "t",
          title: "",
          message: "",
        },
      }),
    );
  }, s.session_id);
  await row(page, "Fresh run").waitFor();
  await app.ctx.db.run(
    sql`UPDATE sessions SET title = 'Fresh run, titled' WHERE session_id = ${s.session_id}`,
  );
  await page.evaluate((sid) => {
    dispatchEvent(
      new CustomEvent("hermes:chat-ended", {
        detail: { session_id: sid, stream_id: "f".repeat(32), reason: "done" },
      }),
    );
  }, s.session_id);
  await row(page, "Fresh run, titled").waitFor();
  strictEqual(await page.evaluate(() => (globalThis as { __kept?: number }).__kept), 7);
  assertEquals(browser.errors, []);
});
