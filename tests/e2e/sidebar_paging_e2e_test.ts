// The paged, virtualized sidebar in a real browser: 5,000 sessions, scrolled to the very end
// (pages load as the user scrolls, the DOM stays small), the last session opened; and a session
// created elsewhere appearing at the top without a reload (the sessions events stream).
import { deepStrictEqual as assertEquals, ok as assert, strictEqual } from "node:assert/strict";
import { browserTest, waitForIslands, withAppInBrowser } from "./browser.ts";
import { createSession } from "../../lib/sessions/sessions.ts";
import { appendMessages } from "../../lib/sessions/messages.ts";
import { sessionEvents } from "../../lib/sessions/session_events.ts";
import { scaled } from "../fixtures/scale.ts";

// 1,500 sessions in the default run (many pages, every group), 5,000 in the slow lane.
const SESSIONS = scaled(1_500, 5_000);

browserTest(
  `the sidebar scrolls through ${
    SESSIONS.toLocaleString("en")
  } sessions to the last one and opens it`,
  () => {
    // Ten minutes apart: the list spans five weeks, so every recency group is there.
    let now = 1_700_000_000;
    return withAppInBrowser({ clock: () => (now += 600) }, async ({ app, url, browser }) => {
      const { db, clock } = app.ctx;
      const ids: string[] = [];
      await db.transaction(async (tx) => {
        for (let i = 0; i < SESSIONS; i++) {
          const s = await createSession(tx, clock, {
            workspace: app.workspace,
            title: `Chat number ${i}`,
          });
          ids.push(s.session_id);
        }
      });
      await appendMessages(db, clock, ids[0], [{ role: "user", content: "the oldest one" }]);
      // …which made it the newest; the oldest untouched one is now number 1.
      const last = { id: ids[1], title: "Chat number 1" };

      const page = await browser.newPage();
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`${url}/`);
      await waitForIslands(page);
      await page.locator("[data-vlist][data-virtual]").waitFor({ state: "attached" });

      const sidebarNodes = () =>
        page.evaluate(() => document.querySelector("#sidebar")!.querySelectorAll("*").length);
      const maxNodes = { n: await sidebarNodes() };
      // Where each group header was seen (its position in the whole list): exactly one place each.
      const headers = new Map<string, Set<number>>();
      const noteHeaders = async () => {
        // A locator's evaluate finds the element, then runs on it: a refresh in between (a
        // sessions event) leaves it detached, where every rectangle reads 0. Not what is shown.
        const seen = await page.locator(".session-list").evaluate((list) =>
          !list.isConnected ? [] : [...list.querySelectorAll(".session-group-label")].map((h) =>
            [
              h.textContent ?? "",
              Math.round(
                h.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop,
              ),
            ] as [string, number]
          )
        );
        for (const [label, top] of seen) {
          headers.set(label, (headers.get(label) ?? new Set()).add(top));
        }
      };
      await noteHeaders();
      // Scroll like a user with a wheel, page after page, until the last row is in view.
      const target = page.locator(`.session-row[data-session-id="${last.id}"]`);
      for (let step = 0; step < 2_000 && (await target.count()) === 0; step++) {
        await page.locator(".session-list").evaluate((el) => (el.scrollTop += el.clientHeight));
        await page.waitForTimeout(20);
        if (step % 10 === 0) maxNodes.n = Math.max(maxNodes.n, await sidebarNodes());
        await noteHeaders();
      }
      await target.waitFor();
      maxNodes.n = Math.max(maxNodes.n, await sidebarNodes());
      assert(maxNodes.n <= 1_500, `the sidebar kept ${maxNodes.n} DOM nodes`);
      const loaded = await page.locator(".session-row").count();
      assert(loaded < 200, `only the rows in view are in the DOM (${loaded})`);
      // Every group header once, at one place, across every page loaded on the way.
      assertEquals([...headers.keys()], ["Today", "Yesterday", "This week", "Older"]);
      for (const [label, tops] of headers) strictEqual(tops.size, 1, `${label} at ${[...tops]}`);
      await browser.screenshot(page, "sidebar-paging-end");

      // Clicked as a script: the window of rows may still swap the row's element for a fresh one
      // between a pointer's mousedown and mouseup (no click then), which is the list settling,
      // not what this test is about.
      await target.locator(".session-item").evaluate((a: HTMLElement) => a.click());
      // The navigation itself, not every subresource's load: the islands are awaited next.
      await page.waitForURL((u) => u.searchParams.get("session") === last.id, {
        waitUntil: "commit",
      });
      await waitForIslands(page);
      strictEqual(await page.locator("[data-topbar-title]").textContent(), last.title);
      strictEqual(browser.errors.length, 0, browser.errors.join("\n"));
    });
  },
);

browserTest(
  "a session created elsewhere moves to the top of the sidebar without a reload",
  () =>
    withAppInBrowser({}, async ({ app, url, browser }) => {
      const { db, clock } = app.ctx;
      for (let i = 0; i < 300; i++) {
        await createSession(db, clock, { workspace: app.workspace, title: `Existing ${i}` });
      }
      const page = await browser.newPage();
      await page.goto(`${url}/`);
      await waitForIslands(page);
      await page.locator("[data-vlist][data-virtual]").waitFor({ state: "attached" });
      // Scroll down a few pages first: the rows loaded beyond the first page stay loaded.
      for (let i = 0; i < 8; i++) {
        await page.locator(".session-list").evaluate((el) => (el.scrollTop += el.clientHeight));
        await page.waitForTimeout(50);
      }
      const marker = await page.evaluate(() => (globalThis as { __marker?: number }).__marker = 1);
      // The page's sessions-events stream must be listening before the change it should hear
      // (under load its first connection can come after the page's load).
      for (let i = 0; i < 300 && sessionEvents(app.ctx.db).subscriberCount() === 0; i++) {
        await page.waitForTimeout(100);
      }
      assert(sessionEvents(app.ctx.db).subscriberCount() > 0, "the sidebar subscribed to changes");
      const created = await app.call<{ session: { session_id: string } }>(
        "POST",
        "/api/session/new",
        {},
      );
      await app.call("POST", "/api/session/rename", {
        session_id: created.body.session.session_id,
        title: "Made in another tab",
      });
      await page.locator(".session-list").evaluate((el) => (el.scrollTop = 0));
      const first = page.locator(".session-row").first();
      await page.waitForFunction(() =>
        document.querySelector(".session-row .session-title")?.textContent === "Made in another tab"
      );
      strictEqual(await first.getAttribute("data-session-id"), created.body.session.session_id);
      // No reload happened.
      strictEqual(
        await page.evaluate(() => (globalThis as { __marker?: number }).__marker),
        marker,
      );
      strictEqual(browser.errors.length, 0, browser.errors.join("\n"));
    }),
);
