// The live transcript in Chromium against the real app and a scripted provider: an answer
// streams in as markdown (table, highlighted code, KaTeX) and ends identical to the server's
// render; a turn with several tools reads as ONE collapsed Activity row that expands and stays
// expanded after a reload; a reload in the middle of an answer resumes it without doubling a
// word. Every test fails on any console error and saves screenshots.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { browserTest } from "./browser.ts";
import { transcriptFixture } from "./transcript_harness.ts";

const ANSWER = [
  "Here is the **comparison** you asked for.",
  "",
  "| Store | Latency | Durable |",
  "|---|---:|:---:|",
  "| SQLite WAL | 0.2 ms | yes |",
  "| In-memory | 0.01 ms | no |",
  "",
  "```ts",
  "export function add(a: number, b: number): number {",
  "  return a + b; // sum",
  "}",
  "```",
  "",
  "And Euler's identity: $e^{i\\pi}+1=0$.",
].join("\n");

browserTest("a streamed answer renders its table, highlighted code and math", async () => {
  const f = await transcriptFixture();
  try {
    f.h.fake.enqueue({ text: ANSWER, chunkSize: 7, delayMs: 8 });
    await f.open();
    await f.send("Compare the stores, show code and a formula");
    // The user bubble appears at once, on this page (no navigation).
    await f.page.waitForSelector(".turns-live .msg-user-bubble");
    strictEqual(
      await f.page.locator(".turns-live .msg-user-bubble").textContent(),
      "Compare the stores, show code and a formula",
    );
    await f.page.waitForSelector(".turns-live .prose table");
    await f.browser.screenshot(f.page, "transcript-streaming");
    await f.settled();
    const prose = f.page.locator(".turns-live .prose");
    strictEqual(await prose.count(), 1);
    strictEqual(await prose.locator("table tbody tr").count(), 2);
    strictEqual(
      await prose.locator("pre.code-block code.hljs .hljs-keyword").first().textContent(),
      "export",
    );
    ok(await prose.locator(".katex").count() >= 1, "KaTeX rendered the formula");
    strictEqual(await prose.locator(".math-pending").count(), 0);
    strictEqual(
      await f.page.locator(".turns-live .activity").count(),
      0,
      "no tools: no activity row",
    );
    await f.browser.screenshot(f.page, "transcript-streamed");
    const live = await prose.innerHTML();

    // One delegated listener gives every code block's Copy button its behaviour.
    await f.browser.context.grantPermissions(["clipboard-read", "clipboard-write"], {
      origin: f.h.url,
    });
    const copy = prose.locator(".code-copy");
    await copy.click();
    await f.page.waitForSelector('.code-copy[data-state="copied"]');
    strictEqual(
      await f.page.evaluate(() => navigator.clipboard.readText()),
      "export function add(a: number, b: number): number {\n  return a + b; // sum\n}",
    );

    // The streamed DOM equals what the server renders for the settled message.
    await f.page.reload();
    await f.page.waitForSelector("#transcript-history .prose");
    const settled = await f.page.locator("#transcript-history .prose").innerHTML();
    strictEqual(live, settled);
    strictEqual(await f.page.locator("#transcript-history .prose .katex").count() >= 1, true);
    await f.browser.screenshot(f.page, "transcript-settled");
    f.browser.assertNoErrors();
  } finally {
    await f.close();
  }
});

browserTest(
  "a turn with several tools shows one collapsed Activity row that stays open",
  async () => {
    const f = await transcriptFixture();
    try {
      await Deno.writeTextFile(`${f.h.workspace}/README.md`, "# Demo\nA small project.\n");
      await Deno.mkdir(`${f.h.workspace}/src`);
      await Deno.writeTextFile(`${f.h.workspace}/src/main.ts`, "console.log('hi');\n");
      f.h.fake.enqueue(
        {
          reasoning: "List the files, then read the README and the entry point.",
          text: "Let me look around.",
          toolCalls: [
            { name: "list_directory", args: { path: "." } },
            { name: "read_file", args: { path: "README.md" } },
            { name: "read_file", args: { path: "src/main.ts" } },
            { name: "read_file", args: { path: "missing.txt" } },
            {
              name: "todo",
              args: {
                todos: [
                  { id: "1", content: "Read the README", status: "completed" },
                  { id: "2", content: "Summarise the layout", status: "in_progress" },
                ],
              },
            },
          ],
          delayMs: 5,
        },
        { text: "It is a tiny TypeScript project that prints `hi`.", delayMs: 5 },
      );
      await f.open();
      await f.send("What is in this repo?");
      await f.settled();
      const live = f.page.locator(".turns-live .turn").last();
      strictEqual(await live.locator("details.activity").count(), 1, "ONE activity row");
      strictEqual(
        await live.locator("details.activity > summary").textContent(),
        "Activity: 5 tools",
      );
      strictEqual(await live.locator("details.activity[open]").count(), 0, "collapsed by default");
      // The failed read is visible without opening anything.
      strictEqual(await live.locator(".attention-row").count(), 1);
      ok((await live.locator(".attention-row").textContent())!.includes("missing.txt"));
      // Issue 14: the interim narration stays in its place inside the Activity (quiet) once the
      // turn has a final answer; the answer alone is prose outside it.
      deepStrictEqual(
        (await live.locator(":scope > .prose").allTextContents()).map((t) => t.trim()),
        ["It is a tiny TypeScript project that prints hi."],
      );
      strictEqual(
        (await live.locator("details.activity .activity-note").textContent())!.trim(),
        "Let me look around.",
      );
      await f.browser.screenshot(f.page, "activity-collapsed");

      await live.locator("details.activity > summary").click();
      await f.page.waitForSelector(".turns-live details.activity[open]");
      strictEqual(await live.locator(".tool-card").count(), 5);
      deepStrictEqual(
        await live.locator(".tool-card").evaluateAll((els) =>
          els.map((e) => e.getAttribute("data-status"))
        ),
        ["completed", "completed", "completed", "error", "completed"],
      );
      deepStrictEqual(await live.locator(".plan li").allTextContents(), [
        "✓Read the README",
        "›Summarise the layout",
      ]);
      await live.locator(".tool-card").nth(1).locator(".tool-head").click();
      await f.page.waitForSelector(".tool-card[data-open] .tool-result");
      ok(
        (await live.locator(".tool-card[data-open] .tool-result").textContent())!.includes(
          "A small project.",
        ),
      );
      await f.browser.screenshot(f.page, "activity-expanded");
      await f.page.evaluate(() => document.documentElement.setAttribute("data-theme", "dark"));
      await f.browser.screenshot(f.page, "activity-expanded-dark");
      await f.page.evaluate(() => document.documentElement.setAttribute("data-theme", "light"));

      // After a reload the (now server-rendered) turn is still expanded.
      await f.page.reload();
      await f.page.waitForSelector("#transcript-history details.activity");
      await f.page.waitForFunction(() =>
        [...document.querySelectorAll("hermes-island")].every((el) =>
          el.hasAttribute("data-hydrated")
        )
      );
      await f.page.waitForSelector("#transcript-history details.activity[open]");
      strictEqual(await f.page.locator("#transcript-history details.activity").count(), 1);
      strictEqual(await f.page.locator("#transcript-history .tool-card").count(), 5);
      strictEqual(await f.page.locator("#transcript-history .plan li").count(), 2);
      await f.browser.screenshot(f.page, "activity-after-reload");
      f.browser.assertNoErrors();
    } finally {
      await f.close();
    }
  },
);

browserTest(
  "a reload or a chat switch mid-answer resumes it without doubling anything",
  async () => {
    const f = await transcriptFixture();
    try {
      const words = Array.from({ length: 120 }, (_, i) => `w${i}`).join(" ");
      f.h.fake.enqueue({ text: `Counting: ${words}. Done.`, chunkSize: 4, delayMs: 25 });
      await f.open();
      await f.send("Count slowly");
      await f.page.waitForFunction(() =>
        (document.querySelector(".turns-live .prose")?.textContent ?? "").includes("w20")
      );
      await f.page.reload();
      // The server painted the partial answer; the island resumes after it.
      const partial = await f.page.locator(".turns-live .prose").textContent();
      ok(
        partial!.startsWith("Counting: w0 w1"),
        `partial answer painted by the server: ${partial}`,
      );
      await f.page.waitForFunction(() =>
        [...document.querySelectorAll("hermes-island")].every((el) =>
          el.hasAttribute("data-hydrated")
        )
      );
      await f.browser.screenshot(f.page, "reload-mid-stream");
      // Switching to another chat and back: the run is still there, still going or done.
      const other = await f.h.newSession();
      await f.open(other);
      strictEqual(await f.page.locator(".turns-live .turn").count(), 0);
      await f.open();
      await f.settled();
      const text = (await f.page.locator(".turns-live .prose").textContent())!.trim();
      strictEqual(text, `Counting: ${words}. Done.`);
      strictEqual(await f.page.locator(".msg-user-bubble").count(), 1, "the user message once");
      f.browser.assertNoErrors();
    } finally {
      await f.close();
    }
  },
);

browserTest(
  "Stop ends the run in place: the partial answer stays with a quiet notice",
  async () => {
    const f = await transcriptFixture();
    try {
      const words = Array.from({ length: 400 }, (_, i) => `w${i}`).join(" ");
      f.h.fake.enqueue({ text: words, chunkSize: 3, delayMs: 20 });
      await f.open();
      await f.send("Count forever");
      await f.page.waitForFunction(() =>
        (document.querySelector(".turns-live .prose")?.textContent ?? "").includes("w10")
      );
      await f.page.locator(".btn-stop").click();
      await f.settled();
      const turn = f.page.locator(".turns-live .turn").last();
      strictEqual(await turn.locator('.turn-notice[data-kind="cancelled"]').count(), 1);
      const text = (await turn.locator(".prose").textContent())!;
      ok(text.startsWith("w0 w1") && !text.includes("w399"), "the partial answer is kept");
      await f.browser.screenshot(f.page, "stopped");
      f.browser.assertNoErrors();
    } finally {
      await f.close();
    }
  },
);

browserTest("a dropped stream is resumed after probing its status, nothing doubled", async () => {
  const f = await transcriptFixture();
  try {
    const words = Array.from({ length: 60 }, (_, i) => `x${i}`).join(" ");
    f.h.fake.enqueue({ text: words, chunkSize: 4, delayMs: 15 });
    await f.open();
    let dropped = 0;
    // The first stream request fails as if the network dropped it.
    await f.page.route("**/api/chat/stream?*", (route) => {
      if (dropped++ === 0) return route.abort("connectionreset");
      return route.continue();
    });
    const probes: string[] = [];
    f.page.on("request", (r) => {
      if (r.url().includes("/api/chat/stream/status")) probes.push(r.url());
    });
    await f.send("Count a bit");
    await f.page.waitForSelector(".turns-live .turn-status");
    strictEqual(
      await f.page.locator(".turns-live .turn-status").textContent(),
      "Connection dropped — reconnecting…",
    );
    await f.browser.screenshot(f.page, "reconnecting");
    await f.settled();
    strictEqual((await f.page.locator(".turns-live .prose").textContent())!.trim(), words);
    ok(probes.length >= 1, "the status route was probed before resuming");
    const unexpected = f.browser.errors.filter((e) => !/ERR_CONNECTION_RESET|net::ERR/.test(e));
    deepStrictEqual(unexpected, []);
  } finally {
    await f.close();
  }
});
