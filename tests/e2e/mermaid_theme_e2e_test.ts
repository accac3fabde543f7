// Mermaid diagrams in Chromium (issue 29): drawn in the console's colours — in the dark theme
// their lines and labels keep at least 3:1 against the diagram's field — and drawn again in the
// new colours when the theme changes; a share link's page draws them too (one script of ours,
// under its CSP); and while a diagram streams it reads as a quiet placeholder, never as a code
// block labelled "m".
import { notStrictEqual, ok, strictEqual } from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest } from "./browser.ts";
import { transcriptFixture } from "./transcript_harness.ts";

const DIAGRAM = [
  "```mermaid",
  "flowchart LR",
  "  A[Request] -->|valid| B(Handler)",
  "  B --> C{Cached?}",
  "  C -->|yes| D[Reply]",
  "```",
].join("\n");

interface Legibility {
  field: string;
  fieldLuminance: number;
  /** Edges and arrowheads: their stroke (or fill) and its contrast with the field. */
  lines: { color: string; ratio: number }[];
  /** Every text label and its contrast with the field. */
  labels: { text: string; color: string; ratio: number }[];
}

/**
 * The diagram image's SVG, laid out in the page (hidden), with each line's and label's computed
 * colour measured against the image's background: what the reader sees.
 */
function legibility(page: Page, img: string): Promise<Legibility> {
  return page.locator(img).first().evaluate((el) => {
    const rgb = (css: string) => (css.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const lum = (css: string) => {
      const [r, g, b] = rgb(css).map((c) => {
        const s = c / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const ratio = (a: string, b: string) => {
      const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
      return (hi + 0.05) / (lo + 0.05);
    };
    const image = el as HTMLImageElement;
    const field = getComputedStyle(image).backgroundColor;
    const host = document.createElement("div");
    host.style.cssText = "position:fixed;left:-10000px;top:0";
    host.innerHTML = decodeURIComponent(image.src.split(",")[1]);
    document.body.append(host);
    try {
      const painted = (c: string) => c && c !== "none" && !/rgba\(.*,\s*0\)$/.test(c);
      const lines = [
        ...[...host.querySelectorAll(".flowchart-link, .edgePath path, path.path")].map((p) =>
          getComputedStyle(p).stroke
        ),
        ...[...host.querySelectorAll("marker path")].map((p) => getComputedStyle(p).fill),
      ].filter(painted).map((color) => ({ color, ratio: ratio(color, field) }));
      const labels = [...host.querySelectorAll("text")]
        .filter((t) => t.textContent?.trim())
        .map((t) => {
          const color = getComputedStyle(t.querySelector("tspan") ?? t).fill;
          return { text: t.textContent!.trim(), color, ratio: ratio(color, field) };
        });
      return { field, fieldLuminance: lum(field), lines, labels };
    } finally {
      host.remove();
    }
  });
}

function assertLegible(l: Legibility, where: string): void {
  ok(l.lines.length >= 3, `${where}: edges measured (${l.lines.length})`);
  ok(l.labels.length >= 5, `${where}: labels measured (${l.labels.map((x) => x.text)})`);
  for (const line of l.lines) {
    ok(
      line.ratio >= 3,
      `${where}: a line ${line.color} on ${l.field} is ${line.ratio.toFixed(2)}:1`,
    );
  }
  for (const label of l.labels) {
    ok(
      label.ratio >= 3,
      `${where}: "${label.text}" ${label.color} on ${l.field} is ${label.ratio.toFixed(2)}:1`,
    );
  }
}

for (const size of [{ width: 1280, height: 860 }, { width: 390, height: 844 }]) {
  browserTest(
    `mermaid diagrams are legible in the dark theme and follow a theme change (${size.width}px)`,
    async () => {
      const f = await transcriptFixture(size);
      const { page, h } = f;
      try {
        // The reader chose the dark theme (not "system"): the case that drew a light box.
        strictEqual((await h.call("POST", "/api/settings", { theme: "dark" })).status, 200);
        await f.open();
        strictEqual(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
        h.fake.enqueue({ text: `The request path:\n\n${DIAGRAM}\n` });
        await f.send("Draw the request path");
        await f.settled();
        const img = ".turns-live img.mermaid-diagram";
        await page.locator(img).waitFor();
        const dark = await legibility(page, img);
        assertLegible(dark, "dark");
        ok(dark.fieldLuminance < 0.1, `a dark field in the dark theme: ${dark.field}`);
        await f.browser.screenshot(page, `mermaid-dark-${size.width}`);

        const before = await page.locator(img).getAttribute("src");
        await page.locator('.topbar [data-action="toggle-theme"]').click();
        strictEqual(await page.evaluate(() => document.documentElement.dataset.theme), "light");
        await page.waitForFunction(
          ([sel, src]) =>
            document.querySelector<HTMLImageElement>(sel!)?.getAttribute("src") !== src,
          [img, before],
        );
        const light = await legibility(page, img);
        assertLegible(light, "light");
        notStrictEqual(light.field, dark.field, "the field follows the theme");
        notStrictEqual(light.labels[0].color, dark.labels[0].color, "so do the labels");
        await f.browser.screenshot(page, `mermaid-light-${size.width}`);
        f.browser.assertNoErrors();
      } finally {
        await f.close();
      }
    },
  );
}

browserTest("a share link's page draws the session's mermaid diagram", async () => {
  const f = await transcriptFixture({ width: 1024, height: 800 });
  const { page, h } = f;
  try {
    await f.open();
    h.fake.enqueue({ text: `Here it is:\n\n${DIAGRAM}\n` });
    await f.send("Draw it for the share");
    await f.settled();
    const res = await h.call("POST", "/api/share/create", { session_id: h.sessionId });
    strictEqual(res.status, 200);
    const share = await page.goto(`${h.url}${res.body.share.url}`);
    const csp = share?.headers()["content-security-policy"] ?? "";
    const scriptSrc = csp.split(";").map((d) => d.trim()).find((d) => d.startsWith("script-src"));
    strictEqual(scriptSrc, "script-src 'self'", "this origin's bundles only, never inline");
    await page.locator(".share-main img.mermaid-diagram").waitFor();
    const svg = await page.locator(".share-main img.mermaid-diagram").evaluate((e) =>
      decodeURIComponent((e as HTMLImageElement).src.split(",")[1])
    );
    ok(svg.startsWith("<svg") && svg.includes("Handler"), svg.slice(0, 80));
    ok(!/<script/i.test(svg) && !/\son[a-z]+\s*=/i.test(svg), "inert, as in the console");
    strictEqual(await page.locator("pre.mermaid-source").count(), 1, "the source is kept, hidden");
    assertLegible(await legibility(page, ".share-main img.mermaid-diagram"), "share");
    await f.browser.screenshot(page, "mermaid-share");
    f.browser.assertNoErrors();
  } finally {
    await f.close();
  }
});

browserTest(
  "a mermaid block being streamed shows a quiet placeholder, then the diagram",
  async () => {
    const f = await transcriptFixture({ width: 1280, height: 860 });
    const { page, h } = f;
    try {
      await f.open();
      // Held right after the fence's first letter: the moment a code block labelled "m" showed.
      h.fake.enqueue({ text: ["The flow:\n\n", "```m", "ermaid\nflowchart LR\n"], hang: 2 });
      await f.send("Draw the flow");
      const prose = page.locator(".turns-live .prose[data-state='streaming']");
      const placeholder = prose.locator(".md-diagram-pending");
      await placeholder.waitFor();
      strictEqual(await placeholder.textContent(), "Diagram…");
      strictEqual(
        await prose.locator("pre.code-block").count(),
        0,
        "no code block while streaming",
      );
      strictEqual(await page.locator(".code-lang", { hasText: /^m$/ }).count(), 0);
      const muted = await placeholder.evaluate((el) => {
        const probe = document.createElement("span");
        probe.style.color = "var(--text-muted)";
        el.append(probe);
        const same = getComputedStyle(probe).color === getComputedStyle(el).color;
        probe.remove();
        return same;
      });
      ok(muted, "the placeholder is in the muted text colour");
      await f.browser.screenshot(page, "mermaid-streaming-placeholder");
      await page.locator(".composer .btn-stop").click();
      await f.settled();

      // Complete (the next block has begun) while the answer still streams: drawn at once.
      h.fake.enqueue({ text: [`Again:\n\n${DIAGRAM}\n\n`, "And then", " more"], hang: 2 });
      await f.send("Draw it again");
      const live = page.locator(".turns-live .prose[data-state='streaming']");
      await live.locator("img.mermaid-diagram").waitFor();
      strictEqual(await live.locator(".md-diagram-pending").count(), 0);
      await f.browser.screenshot(page, "mermaid-streaming-drawn");
      await page.locator(".composer .btn-stop").click();
      await f.settled();
      f.browser.assertNoErrors();
    } finally {
      await f.close();
    }
  },
);
