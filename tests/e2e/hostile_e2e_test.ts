// Model output is untrusted: an answer full of markup that would run script if it were HTML
// (event handlers, javascript: links, <script>, SVG, iframes) stays inert text in the live
// stream, in tool cards and after a reload (server render): no dialog opens, no console error
// (a CSP violation would log one), no element carries an on* attribute, no link a script URL.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { browserTest, type Page } from "./browser.ts";
import { transcriptFixture } from "./transcript_harness.ts";

const HOSTILE = [
  "Here you go <img src=x onerror=alert(1)> and <script>alert(2)</script>.",
  "",
  "[click me](javascript:alert(3)) and [data](data:text/html,<script>alert(4)</script>)",
  "",
  '<a href="javascript:alert(5)" onclick="alert(6)">raw link</a>',
  "",
  '<svg onload=alert(7)><circle r=5 /></svg> <iframe src="javascript:alert(8)"></iframe>',
  "",
  "![pic](javascript:alert(9)) <details open ontoggle=alert(10)>x</details>",
  "",
  "```html",
  "<img src=x onerror=alert(11)>",
  "```",
  "",
  "Inline `<b onmouseover=alert(12)>` code and math $\\href{javascript:alert(13)}{x}$.",
].join("\n");

/** Everything in the document that could run script. */
function scriptSurface(page: Page) {
  return page.evaluate(() => {
    const all = [...document.querySelectorAll("*")];
    return {
      handlers: all.flatMap((el) =>
        [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${el.tagName}[${a.name}]`)
      ),
      scriptUrls: all.flatMap((el) =>
        ["href", "src", "action", "formaction", "xlink:href"]
          .map((n) => el.getAttribute(n) ?? "")
          .filter((v) => /^\s*(javascript|data:text\/html|vbscript)/i.test(v))
      ),
      scripts: [...document.scripts]
        .filter((s) => !(s.type === "application/json" || s.src.includes("/static/")))
        .map((s) => s.outerHTML.slice(0, 80)),
      frames: document.querySelectorAll("iframe, object, embed").length,
      svg: document.querySelectorAll(".prose svg").length,
    };
  });
}

browserTest("a hostile answer stays inert text, live and after a reload", async () => {
  const f = await transcriptFixture();
  const { page, h } = f;
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    d.dismiss().catch(() => {});
  });
  try {
    await Deno.writeTextFile(
      join(h.workspace, "evil.html"),
      "<script>alert('tool')</script><img src=x onerror=alert('tool2')>",
    );
    h.fake.enqueue(
      { toolCalls: [{ name: "read_file", args: { path: "evil.html" } }] },
      { text: HOSTILE, chunkSize: 5 },
    );
    await f.open();
    await f.send('Show me <img src=x onerror=alert("user")> please');
    await f.settled();
    // Open the activity and the tool card so the hostile tool result is in the DOM too.
    await page.locator(".turns-live details.activity > summary").click();
    await page.locator(".turns-live .tool-card .tool-head").click();
    await page.waitForSelector(".tool-card[data-open] .tool-result");
    ok(
      (await page.locator(".tool-result").textContent())!.includes(
        "<script>alert('tool')</script>",
      ),
    );
    const prose = (await page.locator(".turns-live .prose").textContent())!;
    ok(prose.includes("<img src=x onerror=alert(1)>"), `raw HTML shows as text: ${prose}`);
    ok(prose.includes("<script>alert(2)</script>"));
    strictEqual(
      await page.locator(".turns-live .msg-user-bubble").textContent(),
      'Show me <img src=x onerror=alert("user")> please',
    );
    await page.locator(".turns-live .prose a").evaluateAll((links) =>
      links.forEach((a) => (a as HTMLAnchorElement).click())
    );
    await f.browser.screenshot(page, "hostile-live");
    deepStrictEqual(await scriptSurface(page), {
      handlers: [],
      scriptUrls: [],
      scripts: [],
      frames: 0,
      svg: 0,
    });

    const streamed = await page.locator(".turns-live .prose").innerHTML();
    await page.reload();
    await page.waitForSelector("#transcript-history .prose");
    strictEqual(
      await page.locator("#transcript-history .prose").innerHTML(),
      streamed,
      "the streamed answer ends exactly as the server renders it",
    );
    await page.waitForFunction(() =>
      [...document.querySelectorAll("hermes-island")].every((el) =>
        el.hasAttribute("data-hydrated")
      )
    );
    // The activity opened before the reload is open again (remembered per turn).
    await page.waitForSelector("#transcript-history details.activity[open]");
    await page.locator("#transcript-history .tool-card .tool-head").click();
    await page.waitForSelector("#transcript-history .tool-card[data-open] .tool-result");
    deepStrictEqual(await scriptSurface(page), {
      handlers: [],
      scriptUrls: [],
      scripts: [],
      frames: 0,
      svg: 0,
    });
    ok(
      (await page.locator("#transcript-history .prose").textContent())!.includes(
        "onerror=alert(1)",
      ),
    );
    await f.browser.screenshot(page, "hostile-settled");
    deepStrictEqual(dialogs, [], "no dialog opened");
    f.browser.assertNoErrors();
  } finally {
    await f.close();
  }
});
