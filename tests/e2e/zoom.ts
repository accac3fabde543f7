// The zoom tests' browser: Chromium on a 2× screen, as a window zoomed to 200% renders (a
// W×H window at 200% is a W/2×H/2 CSS-pixel viewport at device scale 2).
import { type BrowserHarness, ensureIslandsBuilt, launchBrowser } from "./browser.ts";

/**
 * Build the islands if needed, make the screenshot folder `shots` and launch a browser context
 * at device scale 2; the caller sets each page's viewport and closes the context.
 */
export async function launchZoomBrowser(shots: string): Promise<BrowserHarness> {
  await ensureIslandsBuilt();
  await Deno.mkdir(shots, { recursive: true });
  return await launchBrowser({ deviceScaleFactor: 2 });
}
