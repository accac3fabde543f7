// The workspace panel in a real browser against the real app: closed by default, opened by
// the top bar toggle and painted open by the SERVER after a reload (no flash: it works with
// scripts blocked), the lazy file tree, previews (TypeScript highlighted, markdown rendered,
// an image) whose renderers load only when needed, and the git badge of a git workspace.
import { deepStrictEqual as assertEquals, ok as assert, strictEqual } from "node:assert/strict";
import { deflateSync } from "node:zlib";
import { join } from "node:path";
import { browserTest, type Page, waitForIslands, withAppInBrowser } from "./browser.ts";
import { seedApp } from "./seed.ts";
import { git } from "../git_fixture.ts";

/** A solid-colour RGB PNG (a real image the browser decodes). */
function solidPng(width: number, height: number, [r, g, b]: number[]): Uint8Array {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Uint8Array) => {
    let c = 0xffffffff;
    for (const x of bytes) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Uint8Array) => {
    const out = new Uint8Array(12 + data.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, data.length);
    out.set(new TextEncoder().encode(type), 4);
    out.set(data, 8);
    view.setUint32(8 + data.length, crc(out.subarray(4, 8 + data.length)));
    return out;
  };
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const raw = new Uint8Array(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) raw.set([r, g, b], y * (1 + width * 3) + 1 + x * 3);
  }
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", new Uint8Array(deflateSync(raw))),
    chunk("IEND", new Uint8Array()),
  ];
  const png = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (png.set(p, at), at += p.length);
  return png;
}

async function writeWorkspace(root: string): Promise<void> {
  await Deno.mkdir(join(root, "src/lib"), { recursive: true });
  await Deno.mkdir(join(root, "docs"), { recursive: true });
  await Deno.writeTextFile(
    join(root, "src/lib/util.ts"),
    "// Sums two numbers.\nexport function add(a: number, b: number): number {\n" +
      '  return a + b;\n}\n\nexport const greeting = "hello <world>";\n',
  );
  await Deno.writeTextFile(
    join(root, "README.md"),
    "# Project notes\n\nSome **bold** words and `inline code`.\n\n- first\n- second\n\n" +
      "![diagram](docs/diagram.png)\n\n<script>alert(1)</script>\n",
  );
  await Deno.writeFile(join(root, "docs/diagram.png"), solidPng(160, 96, [198, 172, 143]));
}

const hasGit = await new Deno.Command("git", { args: ["--version"], stdout: "null" }).output()
  .then((o) => o.success, () => false);

/** Paths of the visible tree rows, in order. */
const treePaths = (page: Page) =>
  page.locator("[data-file-tree] [role=treeitem]:visible").evaluateAll((els) =>
    els.map((e) => (e as HTMLElement).dataset.path)
  );

browserTest(
  "the panel opens, is painted open by the server after a reload, and closes",
  async () => {
    await withAppInBrowser({}, async ({ app, url: base, browser }) => {
      const seeded = await seedApp(app, { dark: true });
      await writeWorkspace(app.workspace);
      const page = await browser.newPage();
      const url = `${base}/?session=${seeded.withTranscript}`;
      await page.goto(url);
      await waitForIslands(page);
      const panel = page.locator("#workspace-panel");
      const toggle = page.locator(".topbar [data-action='toggle-workspace']");
      strictEqual(await panel.isVisible(), false, "closed by default");
      strictEqual(await toggle.getAttribute("aria-expanded"), "false");

      await toggle.click();
      await panel.waitFor();
      strictEqual(await toggle.getAttribute("aria-expanded"), "true");
      await page.locator("[data-file-tree] [data-path='README.md']").waitFor();
      assertEquals(await treePaths(page), ["docs", "src", "README.md"]);
      await browser.screenshot(page, "panel-open");

      // Reload: the server itself renders the panel open with the root folder listed.
      const res = await page.reload();
      const html = await res!.text();
      assert(html.includes('data-workspace-panel="open"'), "the first paint has the panel open");
      assert(/data-path="README\.md"/.test(html), "and the tree's root rows");
      assert(html.includes('aria-expanded="true"'), "the toggle says it is open");

      // Proof there is no flash: with every script blocked, the panel is still open.
      const bare = await browser.newPage();
      await bare.route("**/*.js", (route) => route.abort());
      await bare.goto(url);
      assert(await bare.locator("#workspace-panel").isVisible(), "open without any JavaScript");
      assert(await bare.locator("[data-path='src']").isVisible());
      await bare.close();

      await toggle.click();
      await panel.waitFor({ state: "hidden" });
      const closedHtml = await (await page.reload())!.text();
      assert(closedHtml.includes('data-workspace-panel="closed"'), "closing is remembered too");
      strictEqual(await panel.isVisible(), false);
      // Only the failed loads of the blocked scripts may have been reported.
      assertEquals(browser.errors.filter((e) => !e.includes("ERR_FAILED")), []);
    });
  },
);

browserTest("the tree expands lazily and previews code, markdown and images", async () => {
  await withAppInBrowser({}, async ({ app, url, browser }) => {
    const seeded = await seedApp(app, { dark: true });
    await writeWorkspace(app.workspace);
    const page = await browser.newPage();
    const lists: string[] = [];
    const scripts = new Set<string>();
    page.on("request", (req) => {
      const u = new URL(req.url());
      if (u.pathname === "/api/list") lists.push(u.searchParams.get("path") ?? "");
      if (u.pathname.endsWith(".js")) scripts.add(u.pathname);
    });
    await page.goto(`${url}/?session=${seeded.withTranscript}`);
    await waitForIslands(page);
    await page.locator(".topbar [data-action='toggle-workspace']").click();
    await page.locator("[data-path='src']").waitFor();
    assertEquals(lists, ["."], "only the root is listed");

    // Expand lazily: each folder is listed on its first expand only.
    await page.locator("[data-path='src'] > .tree-row").click();
    await page.locator("[data-path='src/lib']").waitFor();
    strictEqual(await page.locator("[data-path='src']").getAttribute("aria-expanded"), "true");
    // Keyboard: ArrowDown to the folder, ArrowRight expands it.
    await page.locator("[data-path='src']").focus();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowRight");
    await page.locator("[data-path='src/lib/util.ts']").waitFor();
    assertEquals(lists, [".", "src", "src/lib"]);
    await page.locator("[data-path='src'] > .tree-row").click(); // collapse
    await page.locator("[data-path='src'] > .tree-row").click(); // and open again
    assertEquals(lists, [".", "src", "src/lib"], "no second listing");
    assertEquals(await treePaths(page), [
      "docs",
      "src",
      "src/lib",
      "src/lib/util.ts",
      "README.md",
    ]);

    // TypeScript, highlighted; the highlighter arrived only now (a lazy chunk).
    const before = new Set(scripts);
    await page.locator("[data-path='src/lib/util.ts'] > .tree-row").click();
    const code = page.locator("[data-preview-body] .code-view code");
    await code.locator(".hljs-keyword").first().waitFor();
    assertEquals(
      await code.locator(".hljs-keyword").allTextContents(),
      ["export", "function", "return", "export", "const"],
    );
    strictEqual(await code.locator(".hljs-comment").textContent(), "// Sums two numbers.");
    assert((await code.textContent())!.includes('"hello <world>"'), "code text is escaped");
    assert([...scripts].some((s) => !before.has(s)), "a renderer chunk was loaded on demand");
    strictEqual(await page.locator("[data-preview-path]").textContent(), "src/lib/util.ts");
    assert((await page.locator("[data-preview-meta]").textContent())!.startsWith("6 lines"));
    strictEqual(
      await page.locator("[data-preview-download]").getAttribute("href"),
      `/api/file/raw?session_id=${seeded.withTranscript}&path=src%2Flib%2Futil.ts&download=1`,
    );
    await browser.screenshot(page, "panel-preview-ts");

    // Back to the tree (Escape), then markdown: rendered, raw HTML kept as text.
    await page.keyboard.press("Escape");
    await page.locator("[data-file-tree]").waitFor();
    await page.locator("[data-path='README.md'] > .tree-row").click();
    const md = page.locator("[data-preview-body] .preview-markdown");
    await md.locator("h1").waitFor();
    strictEqual(await md.locator("h1").textContent(), "Project notes");
    assertEquals(await md.locator("li").allTextContents(), ["first", "second"]);
    strictEqual(await md.locator("strong").textContent(), "bold");
    strictEqual(await md.locator("script").count(), 0, "raw HTML is not markup");
    // A relative image is served from the workspace.
    const img = md.locator("img");
    await page.waitForFunction(() =>
      (document.querySelector(".preview-markdown img") as HTMLImageElement | null)?.naturalWidth ===
        160
    );
    assert((await img.getAttribute("src"))!.includes("path=docs%2Fdiagram.png"));
    await browser.screenshot(page, "panel-preview-md");
    await page.locator("[data-action='preview-source']").click();
    await page.locator("[data-preview-body] .code-view").waitFor();
    assert(
      (await page.locator("[data-preview-body]").textContent())!.startsWith("# Project notes"),
    );
    await page.locator("[data-action='preview-close']").click();

    // An image.
    await page.locator("[data-path='docs'] > .tree-row").click();
    await page.locator("[data-path='docs/diagram.png'] > .tree-row").click();
    await page.waitForFunction(() =>
      (document.querySelector(".preview-image") as HTMLImageElement | null)?.naturalWidth === 160
    );
    await browser.screenshot(page, "panel-preview-image");
    assertEquals(browser.errors, []);
  });
});

browserTest(
  "the git badge shows the branch and how many files changed",
  async () => {
    await withAppInBrowser({}, async ({ app, url, browser }) => {
      const seeded = await seedApp(app, { dark: true });
      await writeWorkspace(app.workspace);
      const ws = app.workspace;
      await git(ws, "init", "-q", "-b", "feature/panel");
      await git(ws, "add", ".");
      await git(ws, "commit", "-qm", "init");
      await Deno.writeTextFile(join(ws, "src/lib/util.ts"), "export const changed = true;\n");
      await Deno.writeTextFile(join(ws, "NOTES.txt"), "untracked\n");
      const page = await browser.newPage();
      await page.goto(`${url}/?session=${seeded.withTranscript}`);
      await waitForIslands(page);
      await page.locator(".topbar [data-action='toggle-workspace']").click();
      const badge = page.locator("[data-git-badge]");
      await badge.waitFor();
      strictEqual(await badge.locator(".git-branch").textContent(), "feature/panel");
      strictEqual(await badge.locator("[data-dirty-count]").getAttribute("data-dirty-count"), "2");
      assert((await badge.getAttribute("title"))!.includes("1 modified, 1 untracked"));
      await browser.screenshot(page, "panel-git-badge");

      // The refresh button re-reads the tree and git state.
      await Deno.remove(join(ws, "NOTES.txt"));
      await page.locator("[data-action='panel-refresh']").click();
      await page.waitForFunction(() =>
        document.querySelector("[data-dirty-count]")?.getAttribute("data-dirty-count") === "1"
      );
      await page.locator("[data-path='NOTES.txt']").waitFor({ state: "detached" });
      assertEquals(browser.errors, []);
    });
  },
  hasGit ? null : "git is not installed",
);
