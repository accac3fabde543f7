// Issue 19 §5, zoom and text size: the console at 1280×800 on a 2× screen and at a real 200%
// zoom (a 1280×800 window at 200% is a 640×400 CSS-pixel viewport at device scale 2), each
// with the default and the largest text size (`font_size` = "large"). Real geometry, not
// looks: the composer's textarea and send button are in the viewport and on top (what a click
// at their centre hits), the top bar's controls sit inside the viewport without overlapping,
// the sidebar (or its drawer) opens with whole, readable rows, the Control Center fits and
// scrolls to its last control, and every button of an approval card (from the fake provider)
// can be seen and reached. Screenshots go to /tmp/hermes-screenshots-zoom/.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { browserTest, gotoHydrated, type Page } from "./browser.ts";
import { startHarness } from "../fixtures/engine_harness.ts";
import { seedConsole } from "./seed.ts";
import { launchZoomBrowser } from "./zoom.ts";

const SHOTS = "/tmp/hermes-screenshots-zoom";

const CASES = [
  { name: "1280x800", width: 1280, height: 800 },
  { name: "zoom200", width: 640, height: 400 },
] as const;
const FONT_SIZES = ["default", "large"] as const;

/** One element's geometry as a user meets it. */
interface Seen {
  what: string;
  x: number;
  y: number;
  right: number;
  bottom: number;
  /** A click at its centre lands on it (nothing covers it). */
  hit: boolean;
  /** What a click at its centre lands on instead. */
  cover: string;
  /** An ancestor that clips overflow cuts part of it off. */
  clippedBy: string | null;
  /** Its own text is cut vertically (content taller than the box that shows it). */
  textCut: boolean;
}

/** The visible elements matching `selector`, measured in the page. */
function measure(page: Page, selector: string): Promise<Seen[]> {
  return page.evaluate((sel) => {
    const name = (el: Element) =>
      el.getAttribute("aria-label") || el.getAttribute("data-choice") ||
      (el.textContent ?? "").trim().slice(0, 40) || `${el.tagName.toLowerCase()}.${el.className}`;
    return [...document.querySelectorAll(sel)].filter((el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden";
    }).map((el) => {
      const r = el.getBoundingClientRect();
      const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      let clippedBy: string | null = null;
      for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.overflowX === "visible" && s.overflowY === "visible") continue;
        const c = a.getBoundingClientRect();
        if (
          r.left < c.left - 1 || r.right > c.right + 1 || r.top < c.top - 1 ||
          r.bottom > c.bottom + 1
        ) {
          clippedBy = `${a.tagName.toLowerCase()}.${a.className}`;
          break;
        }
      }
      const h = el as HTMLElement;
      const textCut = getComputedStyle(h).overflowY !== "visible" &&
        h.scrollHeight > h.clientHeight + 1;
      return {
        what: name(el),
        x: r.left,
        y: r.top,
        right: r.right,
        bottom: r.bottom,
        hit: !!top && (top === el || el.contains(top)),
        cover: top ? `${top.tagName.toLowerCase()}.${top.className}` : "nothing",
        clippedBy,
        textCut,
      };
    });
  }, selector);
}

/** The problems a user would meet with these elements in a `w`×`h` viewport. */
function problemsOf(seen: Seen[], w: number, h: number, opts: { hit?: boolean } = {}): string[] {
  const out: string[] = [];
  for (const s of seen) {
    if (s.x < -0.5 || s.y < -0.5 || s.right > w + 0.5 || s.bottom > h + 0.5) {
      out.push(
        `"${s.what}" leaves the viewport (${Math.round(s.x)},${Math.round(s.y)})–` +
          `(${Math.round(s.right)},${Math.round(s.bottom)})`,
      );
    }
    if (s.clippedBy) out.push(`"${s.what}" is cut off by ${s.clippedBy}`);
    if (s.textCut) out.push(`"${s.what}" has its text cut`);
    if (opts.hit !== false && !s.hit) out.push(`"${s.what}" is covered by ${s.cover}`);
  }
  return out;
}

/** Pairs of boxes that overlap (more than a hairline). */
function overlaps(seen: Seen[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < seen.length; i++) {
    for (let j = i + 1; j < seen.length; j++) {
      const a = seen[i], b = seen[j];
      const ox = Math.min(a.right, b.right) - Math.max(a.x, b.x);
      const oy = Math.min(a.bottom, b.bottom) - Math.max(a.y, b.y);
      if (ox > 1 && oy > 1) out.push(`"${a.what}" overlaps "${b.what}"`);
    }
  }
  return out;
}

const terminal = (command: string) => ({ name: "terminal", args: { command } });

browserTest(
  "zoom 200% and large text: composer, top bar, sidebar, Control Center, approval card fit",
  async () => {
    const browser = await launchZoomBrowser(SHOTS);
    const h = await startHarness();
    try {
      await h.call("POST", "/api/settings", { theme: "dark" });
      const seeded = await seedConsole(h.app.ctx.db, h.app.ctx.clock(), h.workspace);
      const page = await browser.newPage();
      const problems: string[] = [];
      const shots: string[] = [];
      const shot = async (name: string) => {
        const path = join(SHOTS, `${name}.png`);
        await page.screenshot({ path, animations: "disabled" });
        shots.push(path);
      };

      for (const fontSize of FONT_SIZES) {
        strictEqual((await h.call("POST", "/api/settings", { font_size: fontSize })).status, 200);
        for (const c of CASES) {
          const tag = `${c.name}-${fontSize}`;
          const report = (where: string, list: string[]) =>
            problems.push(...list.map((p) => `[${tag}] ${where}: ${p}`));
          await page.setViewportSize({ width: c.width, height: c.height });
          await gotoHydrated(page, `${h.url}/?session=${seeded.withTranscript}`);
          strictEqual(
            await page.evaluate(() => document.documentElement.dataset.fontSize ?? "default"),
            fontSize,
          );
          strictEqual(await page.evaluate(() => devicePixelRatio), 2);
          await shot(`${tag}-chat`);

          // The composer: its textarea and send button are on screen and on top.
          await page.locator("#composer-input").fill("Does this still fit?");
          report(
            "composer",
            problemsOf(await measure(page, "#composer-input, .btn-send"), c.width, c.height),
          );
          // A long draft grows the textarea only so far (a quarter of a short window), then it
          // scrolls: the transcript keeps room and Send stays on screen.
          await page.locator("#composer-input").fill(
            Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n"),
          );
          const grown = await page.locator("#composer-input").evaluate((el) => ({
            height: el.getBoundingClientRect().height,
            scrolls: getComputedStyle(el).overflowY === "auto" && el.scrollHeight > el.clientHeight,
            transcript: document.querySelector(".transcript")!.getBoundingClientRect().height,
          }));
          if (!grown.scrolls) report("composer", ["a long draft does not scroll"]);
          if (grown.height > (c.height <= 500 ? 0.25 * c.height : 280) + 1) {
            report("composer", [`a long draft grows to ${Math.round(grown.height)}px`]);
          }
          if (grown.transcript < 0.2 * c.height) {
            report("composer", [`the transcript shrinks to ${Math.round(grown.transcript)}px`]);
          }
          report(
            "composer, long draft",
            problemsOf(await measure(page, ".btn-send"), c.width, c.height),
          );
          await shot(`${tag}-long-draft`);
          await page.locator("#composer-input").fill("");

          // The top bar: every control inside the viewport, none over another.
          const bar = await measure(
            page,
            ".topbar > .topbar-drawer-btn, .topbar > .topbar-context, .topbar-actions > *",
          );
          report("top bar", problemsOf(bar, c.width, c.height));
          report("top bar", overlaps(bar));

          // The sidebar, or its drawer: opened, its rows whole and readable.
          const burger = page.locator(".topbar-drawer-btn");
          if (await burger.isVisible()) {
            await burger.click();
            await page.waitForFunction(() =>
              document.querySelector("#sidebar")!.getBoundingClientRect().left >= 0
            );
          }
          await page.locator("#sidebar .session-row").first().waitFor();
          await shot(`${tag}-sidebar`);
          report(
            "sidebar",
            problemsOf(await measure(page, "#sidebar .sidebar-head > *"), c.width, c.height),
          );
          const rows = await measure(page, "#sidebar .session-title");
          // Rows wholly inside the list's scroll box (the one at its edge is half scrolled).
          const list = (await page.locator("#sidebar .session-list").boundingBox())!;
          const inView = rows.filter((r) => r.y >= list.y && r.bottom <= list.y + list.height);
          if (inView.length < 2) report("sidebar", [`only ${inView.length} chats visible`]);
          report("sidebar", problemsOf(inView, c.width, c.height, { hit: false }));
          for (const r of inView) {
            if (r.right - r.x < 80) {
              report("sidebar", [`"${r.what}" is squeezed to ${r.right - r.x}px`]);
            }
          }
          if (await burger.isVisible() && (await burger.getAttribute("aria-expanded")) === "true") {
            await page.keyboard.press("Escape");
            await page.locator("#sidebar").waitFor({ state: "hidden" });
          }

          // The Control Center: inside the viewport, and its panel scrolls to its last control.
          if (!(await page.locator('[data-action="control-center"]').isVisible())) {
            await page.locator('[data-action="toggle-sidebar"]').first().click();
          }
          await page.locator('[data-action="control-center"]').click();
          await page.waitForSelector('[data-cc-dialog][role="dialog"]');
          for (const tab of ["appearance", "preferences"]) {
            await page.locator(`[data-cc-tab="${tab}"]`).click();
            await page.locator(`[data-cc-tab="${tab}"][aria-selected="true"]`).waitFor();
            report(
              `Control Center ${tab}`,
              problemsOf(await measure(page, "[data-cc-dialog]"), c.width, c.height, {
                hit: false,
              }),
            );
            const last = page.locator('[role="tabpanel"]:not([hidden])').locator(
              "button:visible, input:visible, select:visible, textarea:visible",
            ).last();
            await last.scrollIntoViewIfNeeded();
            // A switch's input is invisible under its drawn track: the label is what is seen.
            await last.evaluate((el) =>
              (getComputedStyle(el).opacity === "0" ? el.closest("label") ?? el : el)
                .setAttribute("data-zoom-probe", "")
            );
            report(
              `Control Center ${tab} last control`,
              problemsOf(await measure(page, "[data-zoom-probe]"), c.width, c.height),
            );
            await page.evaluate(() =>
              document.querySelector("[data-zoom-probe]")?.removeAttribute("data-zoom-probe")
            );
            await shot(`${tag}-control-center-${tab}`);
          }
          const tabs = await measure(
            page,
            '[data-cc-tab][aria-selected="true"], [data-cc-dialog] .cc-close',
          );
          report("Control Center tabs", problemsOf(tabs, c.width, c.height));
          // The tab list scrolls to its last tab.
          const lastTab = page.locator("[data-cc-tab]").last();
          await lastTab.scrollIntoViewIfNeeded();
          report(
            "Control Center last tab",
            problemsOf(
              await measure(page, ".cc-tabs > [data-cc-tab]:last-of-type"),
              c.width,
              c.height,
            ),
          );
          await page.keyboard.press("Escape");
          await page.waitForSelector("[data-cc-layer]", { state: "detached" });

          // An approval card from the fake provider: every button seen and reachable.
          const sid = await h.newSession();
          await gotoHydrated(page, `${h.url}/?session=${sid}`);
          await h.fake.enqueue({ toolCalls: [terminal("rm -rf build/")] }, { text: "Kept it." });
          await page.locator("#composer-input").fill("Clean the build folder");
          await page.keyboard.press("Enter");
          const card = page.locator(".approval-card");
          await card.waitFor();
          // Its choices, then the deny-with-a-reason form.
          for (const state of ["choices", "deny"]) {
            if (state === "deny") await card.locator('[data-choice="deny-open"]').click();
            const controls = card.locator("button:visible, textarea:visible");
            const n = await controls.count();
            if (n < 2) report(`approval ${state}`, [`only ${n} controls`]);
            for (let i = 0; i < n; i++) {
              // Scrolled to as Tab would (blur first: the card focuses "Allow once" itself).
              await controls.nth(i).evaluate((el: HTMLElement) => {
                (document.activeElement as HTMLElement | null)?.blur();
                el.focus();
              });
              await controls.nth(i).evaluate((el) => el.setAttribute("data-zoom-probe", ""));
              report(
                `approval ${state}`,
                problemsOf(await measure(page, "[data-zoom-probe]"), c.width, c.height),
              );
              await controls.nth(i).evaluate((el) => el.removeAttribute("data-zoom-probe"));
            }
            report(`approval ${state}`, overlaps(await measure(page, ".approval-card button")));
            await card.scrollIntoViewIfNeeded();
            await shot(`${tag}-approval-${state}`);
          }
          await card.locator('[data-choice="deny"]').click();
          await card.waitFor({ state: "detached" });
        }
      }
      console.log(`screenshots:\n${shots.join("\n")}`);
      deepStrictEqual(problems, []);
      browser.assertNoErrors();
    } finally {
      await browser.close();
      await h.close();
    }
  },
);
