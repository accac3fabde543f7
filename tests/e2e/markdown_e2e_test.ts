// The markdown renderer in a real browser, bundled the way islands are (esbuild, ESM, code
// splitting): a message streamed in small deltas and applied per animation frame ends as
// the same DOM as a one-shot render, KaTeX and grammars are fetched only when a message
// needs them (KaTeX with its stylesheet), and no console error is logged.
import { ok, strictEqual } from "node:assert/strict";
import * as esbuild from "esbuild";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { copyKatexAssets, KATEX_OUT } from "../../tools/copy_vendor_assets.ts";
import { browserTest, launchBrowser } from "./browser.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

const ENTRY = `
import { ensureRenderers, renderMarkdown } from "./lib/markdown/render.ts";
import { applyStreamUpdate, createStreamRenderer } from "./lib/markdown/stream.ts";

/** Stream text in deltas of size n; one push per animation frame; return the final DOM. */
async function stream(text, n) {
  const root = document.createElement("div");
  root.className = "prose";
  document.body.append(root);
  let queued = "";
  let frame = 0;
  const r = createStreamRenderer({ onRenderersLoaded: () => schedule() });
  const flush = () => { frame = 0; const d = queued; queued = ""; applyStreamUpdate(root, r.push(d)); };
  const schedule = () => { frame ||= requestAnimationFrame(flush); };
  for (let i = 0; i < text.length; i += n) {
    queued += text.slice(i, i + n);
    schedule();
    if ((i / n) % 3 === 0) await new Promise((res) => setTimeout(res, 0));
  }
  await new Promise((res) => requestAnimationFrame(res));
  applyStreamUpdate(root, await r.finish());
  root.querySelector(":scope > .md-tail")?.remove();
  await ensureRenderers(text);
  const expected = document.createElement("div");
  expected.innerHTML = renderMarkdown(text);
  return { html: root.innerHTML, expected: expected.innerHTML, stats: r.stats };
}
globalThis.mdTest = { stream };
`;

const TYPES: Record<string, string> = {
  ".js": "text/javascript",
  ".css": "text/css",
  ".woff2": "font/woff2",
  ".html": "text/html",
};

browserTest(
  "markdown streams in Chromium: final DOM equals a full render; KaTeX loads on demand",
  async () => {
    await copyKatexAssets();
    let files: Map<string, Uint8Array>;
    try {
      const built = await esbuild.build({
        absWorkingDir: ROOT,
        stdin: { contents: ENTRY, resolveDir: ROOT, loader: "ts" },
        bundle: true,
        splitting: true,
        format: "esm",
        platform: "browser",
        target: ["es2022"],
        minify: true,
        outdir: join(ROOT, "b"),
        entryNames: "entry",
        write: false,
        logLevel: "silent",
      });
      files = new Map(built.outputFiles.map((f) => [`/b/${f.path.split("/").at(-1)}`, f.contents]));
    } finally {
      await esbuild.stop();
    }
    const requests: string[] = [];
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
      const path = new URL(req.url).pathname;
      requests.push(path);
      let body: Uint8Array | undefined = files.get(path);
      if (path === "/") {
        body = new TextEncoder().encode(
          '<!doctype html><meta charset="utf-8"><title>md</title><body>' +
            '<script type="module" src="/b/entry.js"></script></body>',
        );
      } else if (path.startsWith("/static/katex/") && !path.includes("..")) {
        body = await Deno.readFile(join(KATEX_OUT, path.slice("/static/katex/".length)))
          .catch(() => undefined);
      }
      if (path === "/favicon.ico") return new Response(null, { status: 204 });
      if (!body) return new Response("not found", { status: 404 });
      const type = path === "/" ? "text/html" : TYPES[extname(path)] ?? "application/octet-stream";
      return new Response(body as Uint8Array<ArrayBuffer>, { headers: { "content-type": type } });
    });
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${server.addr.port}/`);
      await page.waitForFunction(() => "mdTest" in globalThis);
      const initial = requests.filter((p) => p.startsWith("/b/"));

      const plain = "# Plan\n\nFirst *step*, then **another**.\n\n- a\n- b\n\n| x | y |\n" +
        "|---|---|\n| 1 | 2 |\n\nDone for $5 or $10.";
      const p1 = await page.evaluate((t) =>
        (globalThis as unknown as {
          mdTest: { stream(t: string, n: number): Promise<{ html: string; expected: string }> };
        }).mdTest.stream(t, 3), plain);
      strictEqual(p1.html, p1.expected);
      const lazy = requests.filter((p) => p.startsWith("/b/") && !initial.includes(p));
      strictEqual(lazy.length, 0, `no lazy chunk for plain text: ${lazy.join(", ")}`);
      ok(!requests.some((p) => p.startsWith("/static/katex/")), "no KaTeX stylesheet yet");

      const rich = "Euler: $e^{i\\pi} + 1 = 0$.\n\n$$\n\\int_0^1 x^2\\,dx = \\frac{1}{3}\n$$\n\n" +
        "```ts\nconst answer: number = 42;\n```\n\n<img src=x onerror=alert(1)>\n\nEnd.";
      const p2 = await page.evaluate((t) =>
        (globalThis as unknown as {
          mdTest: { stream(t: string, n: number): Promise<{ html: string; expected: string }> };
        }).mdTest.stream(t, 2), rich);
      strictEqual(p2.html, p2.expected);
      ok(p2.html.includes('class="katex"') && p2.html.includes("hljs-keyword"), p2.html);
      ok(requests.includes("/static/katex/katex.min.css"), "KaTeX's stylesheet was added");
      const font = await page.evaluate(() =>
        getComputedStyle(document.querySelector(".katex")!).fontFamily
      );
      ok(font.includes("KaTeX_Main"), `KaTeX CSS applies: ${font}`);
      strictEqual(await page.locator("img").count(), 0, "raw HTML stayed text");
      strictEqual(await page.locator(".code-block .code-copy").count(), 1);
      await browser.screenshot(page, "markdown-streamed");
      browser.assertNoErrors();
    } finally {
      await browser.close();
      await server.shutdown();
    }
  },
);
