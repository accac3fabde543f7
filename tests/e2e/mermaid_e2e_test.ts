// Mermaid diagrams in Chromium: a ```mermaid block in an answer is drawn as an image once the
// answer is final; a hostile diagram (HTML labels with handlers, click callbacks, javascript:
// links, a script tag) is drawn inert — no dialog, no CSP error, nothing executable in the SVG.
// The mermaid library is not part of the page's first load. Desktop and phone.
import { ok, strictEqual } from "node:assert/strict";
import { browserTest } from "./browser.ts";
import { transcriptFixture } from "./transcript_harness.ts";

const HOSTILE = [
  "```mermaid",
  "flowchart TD",
  '  A["<img src=x onerror=alert(1)>Start"] --> B{"<script>alert(2)</script>Check"}',
  "  B -->|yes| C[Done]",
  '  click A call alert(3) "tip"',
  '  click C "javascript:alert(4)" "go"',
  "```",
].join("\n");

for (const size of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  browserTest(`mermaid blocks draw as inert images (${size.width}px)`, async () => {
    const f = await transcriptFixture(size);
    const { page, h } = f;
    try {
      const dialogs: string[] = [];
      page.on("dialog", (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      const scripts: string[] = [];
      page.on("request", (r) => {
        if (r.resourceType() === "script") scripts.push(r.url());
      });
      await f.open();
      const firstLoad = scripts.length;
      h.fake.enqueue({
        text: "Here is the flow:\n\n```mermaid\nsequenceDiagram\n  Alice->>Bob: Hi\n```\n\n" +
          `And another:\n\n${HOSTILE}\n`,
      });
      await f.send("Draw it");
      await f.settled();
      const imgs = page.locator(".turns-live img.mermaid-diagram");
      await imgs.nth(1).waitFor();
      strictEqual(await imgs.count(), 2);
      ok(scripts.length > firstLoad, "the diagram code loaded on demand");
      const svgs = await imgs.evaluateAll((els) =>
        els.map((e) => decodeURIComponent((e as HTMLImageElement).src.split(",")[1]))
      );
      ok(svgs[0].includes("Alice"), "the sequence diagram was drawn");
      for (const svg of svgs) {
        ok(svg.startsWith("<svg"), svg.slice(0, 80));
        ok(!/<script/i.test(svg), "no script element");
        ok(!/\son[a-z]+\s*=/i.test(svg), "no on* attribute");
        ok(!/foreignObject/i.test(svg), "no foreignObject");
        ok(!/javascript:/i.test(svg), "no javascript: link");
      }
      // The source blocks are hidden, not removed; nothing ran.
      strictEqual(await page.locator("pre.mermaid-source").count(), 2);
      const natural = await imgs.first().evaluate((e) => (e as HTMLImageElement).naturalWidth);
      ok(natural > 0, "the image decoded");
      await page.waitForTimeout(300);
      strictEqual(dialogs.length, 0, dialogs.join(", "));
      await f.browser.screenshot(page, `mermaid-${size.width}`);
      // After a reload the server-rendered answer is drawn the same way.
      await f.open();
      await page.locator(".turns img.mermaid-diagram").nth(1).waitFor();
      f.browser.assertNoErrors();
    } finally {
      await f.close();
    }
  });
}
