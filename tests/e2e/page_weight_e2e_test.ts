// The JavaScript budget as a browser meets it (issue 29): a session page — a multi-step turn with
// its Activity, a markdown answer with code — opened in a fresh browser, on a desktop and on a
// phone, downloads at most 60 KB gzipped of script before any interaction. Counted is every
// script the page requests until the network is idle (islands, page scripts and whatever they
// import at load or when the browser is idle), not only the build's list: a chunk imported
// "lazily" at load still costs the reader its bytes. Each response is gzipped as the build
// counts it (tools/build_islands.ts, level 9).
import { ok } from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { browserTest, launchBrowser, type Page, waitForIslands } from "./browser.ts";
import { transcriptFixture } from "./transcript_harness.ts";
import { PAGE_BUDGET_GZIP } from "../../tools/build_islands.ts";

interface Loaded {
  url: string;
  gzip: number;
}

/** Open `href` and collect every script it loads until the network and the main thread idle. */
async function scriptsLoaded(page: Page, href: string): Promise<Loaded[]> {
  const loaded: Promise<Loaded | null>[] = [];
  page.on("response", (res) => {
    if (res.request().resourceType() !== "script") return;
    loaded.push(
      res.body().then(
        (body) => ({ url: new URL(res.url()).pathname, gzip: gzipSync(body, { level: 9 }).length }),
        () => null,
      ),
    );
  });
  await page.goto(href);
  await waitForIslands(page);
  // Idle twice: what the page defers to an idle callback (or to `load`) starts after the first.
  for (let i = 0; i < 2; i++) {
    await page.waitForLoadState("networkidle");
    await page.evaluate(() =>
      new Promise((r) => requestIdleCallback(() => r(null), { timeout: 3_000 }))
    );
  }
  await page.waitForLoadState("networkidle");
  return (await Promise.all(loaded)).filter((x): x is Loaded => x !== null);
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

browserTest(
  "a session page downloads at most 60 KB gz of JavaScript before any interaction",
  async () => {
    const f = await transcriptFixture();
    try {
      // A chat with what a session page shows: a multi-step turn (Activity, a tool card) and a
      // markdown answer with code and a table.
      f.h.fake.enqueue(
        {
          text: "Reading `README.md` first.",
          toolCalls: [{ name: "read_file", args: { path: "README.md" } }],
        },
        {
          text: "Done.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```ts\nconst x = 1;\n```\n",
        },
      );
      await Deno.writeTextFile(`${f.h.workspace}/README.md`, "# project\n");
      await f.open();
      await f.send("look at the readme");
      await f.settled();

      for (const size of [{ width: 1280, height: 860 }, { width: 390, height: 844 }]) {
        const fresh = await launchBrowser(); // a new context: an empty cache
        try {
          const page = await fresh.newPage(size);
          const scripts = await scriptsLoaded(page, `${f.h.url}/?session=${f.h.sessionId}`);
          ok(
            await page.locator(".transcript-inner details.activity").count() > 0,
            "the page shows the turn's Activity",
          );
          const total = scripts.reduce((n, s) => n + s.gzip, 0);
          const list = scripts.map((s) => `  ${kb(s.gzip).padStart(8)}  ${s.url}`).join("\n");
          console.log(`${size.width}×${size.height}: ${kb(total)} gz in ${scripts.length} scripts`);
          ok(
            total <= PAGE_BUDGET_GZIP,
            `at ${size.width}×${size.height} the page loads ${kb(total)} gz of JavaScript ` +
              `before any interaction (budget ${kb(PAGE_BUDGET_GZIP)}):\n${list}`,
          );
          fresh.assertNoErrors();
        } finally {
          await fresh.close();
        }
      }
      f.browser.assertNoErrors();
    } finally {
      await f.close();
    }
  },
);
