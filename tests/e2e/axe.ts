// axe-core in the browser tests: its source put into a page once, so a test can run the rules it
// checks (`globalThis.axe.run(…)`) and report the findings its own way.
import type { Page } from "playwright-core";

const AXE_SOURCE = await Deno.readTextFile(
  new URL("../../node_modules/axe-core/axe.min.js", import.meta.url),
);

/**
 * Put axe-core into `page` unless it is there already. Through the DevTools protocol: the
 * console's Content-Security-Policy (`script-src 'self'`) refuses an injected script tag.
 */
export async function loadAxe(page: Page): Promise<void> {
  if (await page.evaluate(() => "axe" in globalThis)) return;
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send("Runtime.evaluate", { expression: AXE_SOURCE });
  } finally {
    await cdp.detach();
  }
}
