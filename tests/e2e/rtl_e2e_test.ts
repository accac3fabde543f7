// Right-to-left in a real browser: with the `language` setting "ar" the page is
// <html lang="ar" dir="rtl"> and the layout mirrors through logical CSS properties (the
// sidebar on the right, the send button at the composer's inline end, the row menu opening
// from the "…" button towards the page and its submenus to the left, the phone drawer sliding
// in from the right); English keeps the layout it always had. Every check is real geometry.
import { ok as assert, strictEqual } from "node:assert/strict";
import {
  type BrowserHarness,
  browserTest,
  type Page,
  waitForIslands,
  withAppInBrowser,
} from "./browser.ts";
import { seedApp } from "./seed.ts";

type Box = { x: number; y: number; width: number; height: number };

async function box(page: Page, selector: string): Promise<Box> {
  const b = await page.locator(selector).first().boundingBox();
  assert(b, `${selector} has a box`);
  return b;
}

const center = (b: Box) => b.x + b.width / 2;
const right = (b: Box) => b.x + b.width;
/** Equal within a pixel (boxes are fractional). */
const near = (a: number, b: number, what: string) =>
  assert(Math.abs(a - b) <= 1.5, `${what}: ${a} is not ${b}`);

/** Open a session row's "…" menu, then the Move to project submenu by hovering it. */
async function openRowMenus(page: Page) {
  const row = page.locator(".session-row", {
    has: page.locator(".session-title", { hasText: "Explain the approval queue" }),
  });
  await row.hover();
  await row.locator(".session-menu-btn").click();
  await page.locator(".menu[data-level='0']").waitFor();
  await page.locator("[data-menu-action='move']").hover();
  await page.locator(".menu[data-level='1']").waitFor();
  return {
    button: (await row.locator(".session-menu-btn").boundingBox())!,
    menu: await box(page, ".menu[data-level='0']"),
    sub: await box(page, ".menu[data-level='1']"),
  };
}

interface Run {
  page: Page;
  browser: BrowserHarness;
  session: string;
  url: string;
}

/** A seeded console in `language`, its transcript open on a desktop-sized page. */
function rtlTest(name: string, language: string, fn: (r: Run) => Promise<void>) {
  browserTest(name, () =>
    withAppInBrowser({}, async ({ app, url, browser }) => {
      const seeded = await seedApp(app, { dark: true });
      const saved = await app.call("POST", "/api/settings", { language });
      strictEqual(saved.status, 200);
      const page = await browser.newPage({ width: 1280, height: 800 });
      await page.goto(`${url}/?session=${seeded.withTranscript}`);
      await waitForIslands(page);
      await fn({ page, browser, session: seeded.withTranscript, url });
      browser.assertNoErrors();
    }));
}

rtlTest(
  "Arabic mirrors the layout: sidebar right, send at the inline end, menus leftwards",
  "ar",
  async ({ page, browser, session, url }) => {
    const root = await page.evaluate(
      () => [document.documentElement.lang, document.documentElement.dir],
    );
    strictEqual(root.join(), "ar,rtl");
    strictEqual((await page.locator(".btn-new-chat").textContent())?.trim(), "محادثة جديدة");
    await browser.screenshot(page, "rtl-ar-desktop");

    // The sidebar holds the right edge; the conversation is to its left.
    const sidebar = await box(page, "#sidebar");
    assert(sidebar.x >= 640, `the sidebar is on the right half (x = ${sidebar.x})`);
    near(right(sidebar), 1280, "the sidebar's right edge is the window's");
    const conversation = await box(page, ".conversation");
    assert(right(conversation) <= sidebar.x + 1, "the conversation sits left of the sidebar");

    // Composer: send at the inline end (left), the attach button at the inline start (right).
    const composer = await box(page, ".composer");
    const send = await box(page, ".btn-send");
    assert(center(send) < center(composer), "the send button is on the composer's left");
    near(
      send.x - composer.x,
      right(composer) - right(await box(page, ".composer-tools > :first-child")),
      "send mirrors the first tool",
    );

    // Top bar: the title at the right, the actions at the left.
    const title = await box(page, ".topbar-title");
    const actions = await box(page, ".topbar-actions");
    assert(actions.x < title.x, "the top bar's actions are left of the title");

    // A row: its time at the left end, the title at the right.
    const row = page.locator(".session-row").nth(1);
    const rowTitle = (await row.locator(".session-title").boundingBox())!;
    const rowTime = (await row.locator(".session-time").boundingBox())!;
    assert(right(rowTime) < rowTitle.x, "the time is left of the title");

    // The row menu starts at the "…" button's left edge and extends into the page; the
    // submenu opens to its left, and its chevron points there.
    const { button, menu, sub } = await openRowMenus(page);
    near(menu.x, button.x, "the menu is aligned to the button's inline end");
    assert(right(sub) <= menu.x + 1, "the submenu opens to the left");
    await browser.screenshot(page, "rtl-ar-desktop-menu");
    // Keys follow the direction: ArrowRight leaves the submenu, ArrowLeft enters it again.
    await page.locator(".menu[data-level='1'] [role^='menuitem']").first().focus();
    await page.keyboard.press("ArrowRight");
    await page.locator(".menu[data-level='1']").waitFor({ state: "detached" });
    await page.keyboard.press("ArrowLeft");
    await page.locator(".menu[data-level='1']").waitFor();
    await page.keyboard.press("Escape");
    await page.keyboard.press("Escape");

    // The workspace panel opens on the left edge.
    await page.locator(".topbar [data-action='toggle-workspace']").click();
    await page.locator(".workspace-panel").waitFor();
    near((await box(page, ".workspace-panel")).x, 0, "the workspace panel is on the left edge");
    await browser.screenshot(page, "rtl-ar-desktop-panel");

    // Phone: the drawer waits off the right edge and slides in from there.
    const phone = await browser.newPage({ width: 390, height: 844 });
    await phone.goto(`${url}/?session=${session}`);
    await waitForIslands(phone);
    assert((await box(phone, "#sidebar")).x >= 390 - 1, "the closed drawer is off the right edge");
    const phoneComposer = await box(phone, ".composer");
    assert(center(await box(phone, ".btn-send")) < center(phoneComposer), "send on the left");
    await browser.screenshot(phone, "rtl-ar-phone");
    await phone.locator(".topbar-drawer-btn").click();
    await phone.waitForFunction(() => {
      const r = document.querySelector("#sidebar")!.getBoundingClientRect();
      return Math.abs(r.right - innerWidth) < 1.5;
    });
    assert((await box(phone, "#sidebar")).x > 0, "the open drawer leaves a strip on the left");
    await browser.screenshot(phone, "rtl-ar-phone-drawer");
  },
);

rtlTest(
  "English keeps its layout: sidebar left, send at the right, menus rightwards",
  "en",
  async ({ page, browser, session, url }) => {
    const root = await page.evaluate(
      () => [document.documentElement.lang, document.documentElement.dir],
    );
    strictEqual(root.join(), "en,ltr");
    strictEqual((await page.locator(".btn-new-chat").textContent())?.trim(), "New chat");
    await browser.screenshot(page, "rtl-en-desktop");

    const sidebar = await box(page, "#sidebar");
    near(sidebar.x, 0, "the sidebar is on the left edge");
    assert(right(sidebar) <= 640, "the sidebar is on the left half");
    const composer = await box(page, ".composer");
    assert(center(await box(page, ".btn-send")) > center(composer), "send is on the right");
    assert((await box(page, ".topbar-actions")).x > (await box(page, ".topbar-title")).x);
    const row = page.locator(".session-row").nth(1);
    assert(
      (await row.locator(".session-time").boundingBox())!.x >
        right((await row.locator(".session-title").boundingBox())!),
      "the time is right of the title",
    );

    const { button, menu, sub } = await openRowMenus(page);
    near(right(menu), right(button), "the menu is right-aligned to the button");
    assert(sub.x >= right(menu) - 1, "the submenu opens to the right");
    await browser.screenshot(page, "rtl-en-desktop-menu");
    await page.keyboard.press("Escape");

    const phone = await browser.newPage({ width: 390, height: 844 });
    await phone.goto(`${url}/?session=${session}`);
    await waitForIslands(phone);
    assert(right(await box(phone, "#sidebar")) <= 1, "the closed drawer is off the left edge");
    await browser.screenshot(phone, "rtl-en-phone");
    await phone.locator(".topbar-drawer-btn").click();
    await phone.waitForFunction(() =>
      Math.abs(document.querySelector("#sidebar")!.getBoundingClientRect().left) < 1.5
    );
    await browser.screenshot(phone, "rtl-en-phone-drawer");
  },
);
