// Reduced motion in Chromium (issue 19 §4): with `prefers-reduced-motion: reduce` the working
// spinner holds still, nothing transitions, and "Jump to latest" lands at the end at once (no
// scripted scroll anywhere asks for a smooth glide). Without the preference the spinner turns,
// so the check is not vacuous.
import { ok, strictEqual } from "node:assert/strict";
import { browserTest } from "./browser.ts";
import { transcriptFixture } from "./transcript_harness.ts";

/** Record the `behavior` of every scripted scroll (scrollTo/scrollBy/scrollIntoView). */
const RECORD_SCROLLS = `(() => {
  const seen = (window.__scrollBehaviors = []);
  for (const name of ["scrollTo", "scrollBy", "scrollIntoView"]) {
    const orig = Element.prototype[name];
    Element.prototype[name] = function (...a) {
      if (a[0] && typeof a[0] === "object") seen.push(a[0].behavior ?? "auto");
      return orig.apply(this, a);
    };
  }
})();`;

browserTest(
  "reduced motion: a still spinner, no transitions, an instant jump to latest",
  async () => {
    const f = await transcriptFixture({ width: 1280, height: 860 });
    const { page, h } = f;
    try {
      await page.addInitScript(RECORD_SCROLLS);
      await f.open();
      // Motion allowed: the spinner turns (the baseline the reduced case is measured against).
      h.fake.enqueue({ text: "word ".repeat(60), delayMs: 30 });
      await f.send("spin first");
      const spinning = await (await page.waitForFunction(() => {
        const el = document.querySelector(".turn-pending .spinner");
        return el?.isConnected ? getComputedStyle(el).animationName : null;
      })).jsonValue();
      strictEqual(spinning, "hermes-spin");
      await f.settled();

      await page.emulateMedia({ reducedMotion: "reduce" });
      ok(await page.evaluate(() => matchMedia("(prefers-reduced-motion: reduce)").matches));
      // The second answer waits after 100 words until the test stops it: the run is still on
      // when the transcript is scrolled up below, however slow the machine (the pill shows only
      // while an answer runs).
      h.fake.enqueue({ text: "line of the answer\n\n".repeat(40) }, {
        text: "word ".repeat(400),
        delayMs: 40,
        hang: 100,
      });
      await f.send("a long answer first");
      await f.settled();
      await f.send("now stream slowly");
      // Read in the same task that finds it: the pending spinner leaves when tokens arrive, and
      // a detached element's computed style is empty.
      const still = await (await page.waitForFunction(() => {
        const el = document.querySelector(".turn-pending .spinner");
        if (!el?.isConnected) return null;
        const cs = getComputedStyle(el);
        return { name: cs.animationName, transform: cs.transform };
      })).jsonValue() as { name: string; transform: string };
      strictEqual(still.name, "none", "the spinner does not rotate");
      ok(still.transform === "none", `the spinner is not turned (${still.transform})`);
      const send = page.locator("button[data-action='stop']");
      await send.waitFor();
      strictEqual(
        await send.evaluate((el) => getComputedStyle(el).transitionDuration),
        "0s",
        "controls do not transition",
      );
      await f.browser.screenshot(page, "reduced-motion-spinner");

      // Scrolled up to read: the jump lands at the end in the same task as the click.
      const jump = page.locator("[data-jump-latest]");
      await page.locator(".transcript").evaluate((s) => {
        s.scrollTop = getComputedStyle(s).flexDirection === "column-reverse" ? -s.scrollHeight : 0;
        s.dispatchEvent(new Event("scroll"));
      });
      await jump.waitFor();
      const gap = await page.evaluate(() => {
        const s = document.querySelector<HTMLElement>(".transcript")!;
        document.querySelector<HTMLButtonElement>("[data-jump-latest]")!.click();
        return getComputedStyle(s).flexDirection === "column-reverse"
          ? Math.abs(s.scrollTop)
          : s.scrollHeight - s.clientHeight - s.scrollTop;
      });
      ok(gap < 2, `at the end at once, not gliding there (${gap}px away)`);
      strictEqual(
        await page.locator(".transcript").evaluate((s) => getComputedStyle(s).scrollBehavior),
        "auto",
      );
      await page.locator("button[data-action='stop']").click();
      await f.settled();
      const behaviors = await page.evaluate(() =>
        (window as unknown as { __scrollBehaviors: string[] }).__scrollBehaviors
      );
      ok(!behaviors.includes("smooth"), `no smooth scroll was asked for: ${behaviors.join(", ")}`);
      f.browser.assertNoErrors();
    } finally {
      await f.close();
    }
  },
);
