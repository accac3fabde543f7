// A phone in the browser tests: a context of its own on the file's Chromium that reports itself
// as a phone does (touch, mobile viewport, device scale 2), its console errors collected.
import type { BrowserContext, Page } from "playwright-core";
import type { BrowserHarness } from "./browser.ts";

/** The phone's screen unless a test names another (a tablet, say). */
const PHONE_SIZE = { width: 390, height: 844 };

/** A phone's context: touch, mobile viewport, high-DPI; console errors land in `errors`. */
async function phoneContext(
  context: BrowserContext,
  errors: string[],
  size = PHONE_SIZE,
): Promise<BrowserContext> {
  const phone = await context.browser()!.newContext({
    viewport: size,
    hasTouch: true,
    isMobile: true,
    deviceScaleFactor: 2,
    serviceWorkers: "block",
  });
  phone.on("page", (page) => {
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    page.on("pageerror", (e) => errors.push(e.message));
  });
  return phone;
}

/**
 * Run `fn` on a new page of a fresh phone context beside `browser`'s, its console errors pushed
 * to `errors` (the test asserts them); the phone's context is closed whatever happens.
 */
export async function onPhone(
  browser: BrowserHarness,
  errors: string[],
  fn: (page: Page) => Promise<void>,
  size?: { width: number; height: number },
): Promise<void> {
  const phone = await phoneContext(browser.context, errors, size);
  try {
    await fn(await phone.newPage());
  } finally {
    await phone.close();
  }
}
