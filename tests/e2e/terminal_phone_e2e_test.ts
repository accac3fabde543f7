// Issue 29 leftover: on a phone (390×844) the Terminal tab keeps to the screen. Its grid fits the
// slide-over panel, nothing scrolls sideways, and the conversation behind keeps the whole width
// (the terminal's wide-panel column applied at every width and squeezed the chat to nothing),
// whether the page opened on the phone or a desktop window shrank to one. Screenshots of the
// phone terminal in both themes.
import { ok, strictEqual } from "node:assert/strict";
import { browserTest, type Page, waitForIslands, withAppInBrowser } from "./browser.ts";
import { seedApp } from "./seed.ts";
import { sandboxStatus } from "../../lib/sandbox/bwrap_sandbox.ts";

const sandbox = await sandboxStatus();

interface Fit {
  width: number;
  scrollWidth: number;
  conversation: number;
  grid: { left: number; right: number } | null;
  host: { left: number; right: number } | null;
}

function measure(page: Page): Promise<Fit> {
  return page.evaluate(() => {
    const box = (sel: string) => {
      const r = document.querySelector(sel)?.getBoundingClientRect();
      return r ? { left: r.left, right: r.right } : null;
    };
    return {
      width: innerWidth,
      scrollWidth: document.documentElement.scrollWidth,
      conversation: document.querySelector(".conversation")!.getBoundingClientRect().width,
      grid: box(".term-screen:not([hidden]) .xterm-screen"),
      host: box(".term-screen:not([hidden])"),
    };
  });
}

async function openTerminal(page: Page): Promise<void> {
  const tab = page.locator("[data-panel-tab='terminal']");
  if (!(await tab.isVisible())) {
    await page.locator(".topbar [data-action='toggle-workspace']").click();
  }
  await tab.click();
  await page.locator(".term-screen:not([hidden]) .xterm-screen").waitFor();
}

browserTest(
  "phone: the terminal fits the 390 px screen and leaves the chat its width",
  async () => {
    await withAppInBrowser({}, async ({ app, url, browser }) => {
      const seeded = await seedApp(app);
      const page = await browser.newPage({ width: 390, height: 844 });
      await page.goto(`${url}/?session=${seeded.withTranscript}`);
      await waitForIslands(page);
      await openTerminal(page);
      await page.locator(".term-screen:not([hidden]) .xterm").click();
      await page.keyboard.type("echo phone-fits");
      await page.keyboard.press("Enter");
      await page.waitForFunction(() =>
        [...document.querySelectorAll(".term-screen:not([hidden]) .xterm-rows > div")]
          .some((row) => /^phone-fits\s*$/.test(row.textContent ?? ""))
      );
      const open = await measure(page);
      ok(open.grid && open.grid.left >= 0 && open.grid.right <= open.width, JSON.stringify(open));
      ok(open.grid!.right <= open.host!.right + 0.5, `inside its pane: ${JSON.stringify(open)}`);
      ok(open.scrollWidth <= open.width, `nothing scrolls sideways: ${JSON.stringify(open)}`);
      strictEqual(open.conversation, open.width, "the chat behind keeps the whole width");
      for (const theme of ["dark", "light"] as const) {
        await page.evaluate((t) => document.documentElement.setAttribute("data-theme", t), theme);
        await browser.screenshot(page, `terminal-phone-${theme}`);
      }

      // A desktop window with the terminal open, shrunk to a phone: the chat gets the width back.
      const desk = await browser.newPage({ width: 1280, height: 844 });
      await desk.goto(`${url}/?session=${seeded.withTranscript}`);
      await waitForIslands(desk);
      await openTerminal(desk);
      await desk.setViewportSize({ width: 390, height: 844 });
      await desk.waitForFunction(() =>
        document.querySelector(".conversation")!.getBoundingClientRect().width === innerWidth
      );
      const shrunk = await measure(desk);
      ok(shrunk.scrollWidth <= shrunk.width, JSON.stringify(shrunk));
      browser.assertNoErrors();
    });
  },
  sandbox.bubblewrap ? null : `no bubblewrap sandbox: ${sandbox.message}`,
);
