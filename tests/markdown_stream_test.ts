import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { lexMarkdown, preloadRenderers, renderMarkdown } from "../lib/markdown/render.ts";
import { mathReady } from "../lib/markdown/math.ts";
import { languageReady } from "../lib/markdown/highlight.ts";
import {
  createStreamRenderer,
  type StreamRenderer,
  type StreamUpdate,
} from "../lib/markdown/stream.ts";
import { assertSafeHtml, seeded } from "./markdown_html.ts";

/** What the island shows: settled blocks (appended, dropped on reset) and the tail. */
class Screen {
  blocks: string[] = [];
  tail = "";
  apply(u: StreamUpdate) {
    if (u.reset) this.blocks = [];
    this.blocks.push(...u.settled);
    this.tail = u.tail;
  }
  get html() {
    return this.blocks.join("") + this.tail;
  }
}

const CORPUS: Record<string, string> = {
  prose: "# Title\n\nFirst paragraph with *emphasis*, **strong** and `code`.\nA second line.\n\n" +
    "## Section\n\nAnother paragraph, with a [link](https://example.com) and www.example.org.\n\n" +
    "> A quote\n> over two lines\n\n---\n\nThe end.\n",
  table: "Results:\n\n| Model | Score | Notes |\n|:------|------:|:-----:|\n| a | 1.0 | ok |\n" +
    "| b | 2.5 | `x|y` |\n| c | 3 | **bold** |\n\nAfter the table.\n\n| one |\n|---|\n| 1 |",
  code: "Here is code:\n\n```python\ndef f(x):\n    return x * 2\n\n\n# blank lines inside\n" +
    "print(f(3))\n```\n\nAnd TypeScript:\n\n```ts\nconst a: number = 1;\n```\nDirectly after.\n\n" +
    "```\nplain\n```\n\n    indented code\n\n    more indented\n\nText.",
  unclosedFence: "Start\n\n```js\nconsole.log(1);\n\n\nconsole.log(2);",
  math: "Inline $e^{i\\pi} + 1 = 0$ and \\(a^2\\).\n\n$$\n\\int_0^1 x^2\\,dx = \\frac13\n$$\n\n" +
    "Text then display:\n$$\n\\sum_i x_i\n$$\n\\[\n\\mathbf{v}\n\\]\n\nPrices $5 and $10.\n\n" +
    "$$ a + b $$ on one line.",
  lists: "Steps:\n\n1. one\n2. two\n   - nested *a*\n   - nested b\n\n3. three after a blank\n\n" +
    "Then text.\n\n- [x] done\n- [ ] todo\n\n- loose\n\n- list\n\n  with continuation\n\n" +
    "10. ten\n11. eleven\n\nEnd.",
  mixed: "Intro\n\n<div>raw **html**</div>\n\n<script>alert(1)</script>\n\nA setext\n===\n\n" +
    "Another\n---\n\n* star list\n+ plus list\n\n1) paren list\n\n***\n\nline one  \nline two\\\n" +
    "line three\n\n![img](/a.png) and ![remote](https://x.example/a.png)\n\n~~strike~~ done",
  refs:
    'See [the docs][docs] and [Other].\n\nMiddle paragraph.\n\n[docs]: https://docs.example "Docs"\n' +
    "[other]: /other\n\nTail text [docs].",
  crlf: "Windows\r\nline endings\r\n\r\n- a\r\n- b\r\n\r\n```\r\ncode\r\n```\r\n",
};

/** Split `text` into chunks: every character, fixed sizes, or seeded random sizes. */
function chunkings(text: string): [string, string[]][] {
  const rand = seeded(text.length);
  const random: string[] = [];
  for (let i = 0; i < text.length;) {
    const n = 1 + Math.floor(rand() * 12);
    random.push(text.slice(i, i + n));
    i += n;
  }
  const bySize = (n: number) => text.match(new RegExp(`[^]{1,${n}}`, "g")) ?? [];
  return [["chars", [...text]], ["7", bySize(7)], ["random", random], ["whole", [text]]];
}

async function stream(chunks: string[], each?: (r: StreamRenderer) => void) {
  const screen = new Screen();
  const r = createStreamRenderer();
  for (const c of chunks) {
    screen.apply(r.push(c));
    each?.(r);
  }
  screen.apply(await r.finish());
  return { screen, r };
}

const topLevelBlocks = (text: string) => lexMarkdown(text).filter((t) => t.type !== "space").length;

// First, while nothing is loaded in this module: blocks wait for KaTeX and grammars.

Deno.test("createStreamRenderer() settles math and code only once their renderers load", async () => {
  ok(!mathReady() && !languageReady("rust"));
  let loaded: () => void;
  const loadedOnce = new Promise<void>((resolve) => (loaded = resolve));
  const r = createStreamRenderer({ onRenderersLoaded: () => loaded() });
  const first = r.push("Math $x^2$ here.\n\n```rust\nfn main() {}\n```\n\nNext paragraph\n");
  deepStrictEqual(first.settled, [], "nothing settles before KaTeX is loaded");
  ok(first.tail.includes('class="math-pending"'), "math shows as its source meanwhile");
  await loadedOnce;
  // One load callback may cover only part; wait until everything the text needs is there.
  while (!(mathReady() && languageReady("rust"))) await new Promise((r) => setTimeout(r, 5));
  const second = r.push("");
  strictEqual(second.settled.length, 2, "math paragraph and code block settle after loading");
  ok(second.settled[0].includes('class="katex"'));
  ok(second.settled[1].includes("hljs-keyword"));
  const done = await r.finish();
  strictEqual(r.html, renderMarkdown(r.text));
  strictEqual(done.tail, "");
});

Deno.test("createStreamRenderer() ends equal to renderMarkdown() for every chunking", async () => {
  await preloadRenderers();
  for (const [name, text] of Object.entries(CORPUS)) {
    const expected = renderMarkdown(text);
    for (const [how, chunks] of chunkings(text)) {
      const { screen, r } = await stream(chunks);
      strictEqual(screen.html, expected, `${name} streamed by ${how}`);
      strictEqual(r.html, expected, `${name} (renderer's own view) by ${how}`);
      strictEqual(r.text, text.replace(/\r\n?/g, "\n"));
      assertSafeHtml(screen.html);
    }
  }
});

Deno.test("createStreamRenderer() shows the same HTML as a full render after every chunk", async () => {
  await preloadRenderers();
  for (const [name, text] of Object.entries(CORPUS)) {
    if (name === "refs") continue; // forward references resolve only once defined
    const screen = new Screen();
    const r = createStreamRenderer();
    for (const c of chunkings(text)[0][1]) {
      screen.apply(r.push(c));
      strictEqual(screen.html, renderMarkdown(r.text), `${name} at ${JSON.stringify(r.text)}`);
    }
  }
});

Deno.test("createStreamRenderer() renders each settled block exactly once", async () => {
  await preloadRenderers();
  for (const [name, text] of Object.entries(CORPUS)) {
    if (name === "refs") continue;
    const { r, screen } = await stream([...text]);
    strictEqual(r.stats.resets, 0, name);
    strictEqual(r.stats.settledBlocks, topLevelBlocks(text), `${name}: one render per block`);
    strictEqual(screen.tail, "", "finish() settles everything");
  }
});

Deno.test("createStreamRenderer() settles blocks while streaming, keeping the tail short", async () => {
  await preloadRenderers();
  const paragraphs = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} with *some* text.`);
  const text = paragraphs.join("\n\n");
  let settledBeforeFinish = 0;
  const { r } = await stream([...text], (r) => {
    settledBeforeFinish = r.stats.settledBlocks;
  });
  strictEqual(settledBeforeFinish, 39, "all but the last paragraph settle before finish()");
  strictEqual(r.stats.settledBlocks, 40);
  strictEqual(r.stats.tailRenders, text.length + 1, "one tail render per push and finish");
  // Every tail holds at most the last two paragraphs: never the whole message.
  const r2 = createStreamRenderer();
  for (const c of text) {
    const u = r2.push(c);
    ok((u.tail.match(/<p>/g) ?? []).length <= 2, `tail grew: ${u.tail}`);
  }
});

Deno.test("createStreamRenderer() keeps a code fence live until it closes", async () => {
  await preloadRenderers();
  const text = CORPUS.code;
  const r = createStreamRenderer();
  const fenceStart = text.indexOf("```python");
  const fenceEnd = text.indexOf("```\n", fenceStart + 3) + 4;
  let settledInside = -1;
  for (let i = 0; i < text.length; i++) {
    r.push(text[i]);
    if (i === fenceStart + 12) settledInside = r.stats.settledBlocks;
    if (i > fenceStart + 12 && i < fenceEnd) {
      strictEqual(r.stats.settledBlocks, settledInside, `settled inside the fence at ${i}`);
    }
  }
  ok(r.stats.settledBlocks > settledInside, "blocks after the fence settle");
  await r.finish();
  strictEqual(r.html, renderMarkdown(text));
});

Deno.test("createStreamRenderer() waits for the next block's first line before settling", () => {
  // "2" alone is a paragraph that ends the list; "2. b" continues it (and makes it loose).
  const r = createStreamRenderer();
  r.push("1. a\n\n2");
  strictEqual(r.stats.settledBlocks, 0);
  r.push(". b\n");
  r.push("\nEnd\n");
  strictEqual(r.stats.settledBlocks, 1);
  strictEqual(r.html, renderMarkdown(r.text));
});

Deno.test("createStreamRenderer() resets settled blocks when a later definition links them", async () => {
  await preloadRenderers();
  const text = CORPUS.refs;
  for (const [how, chunks] of chunkings(text)) {
    const updates: StreamUpdate[] = [];
    const screen = new Screen();
    const r = createStreamRenderer();
    for (const c of chunks) {
      const u = r.push(c);
      updates.push(u);
      screen.apply(u);
    }
    const last = await r.finish();
    updates.push(last);
    screen.apply(last);
    strictEqual(screen.html, renderMarkdown(text), how);
    ok(screen.html.includes('href="https://docs.example"'), how);
    if (how !== "whole") {
      ok(updates.some((u) => u.reset), `${how}: a reset re-links the first paragraph`);
      strictEqual(r.stats.resets, 1, how);
    }
  }
});

Deno.test("createStreamRenderer() handles \\r\\n split across chunks", async () => {
  const r = createStreamRenderer();
  r.push("a\r");
  r.push("\nb\r");
  r.push("\r\nc\r");
  await r.finish();
  strictEqual(r.text, "a\nb\n\nc\n");
  strictEqual(r.html, renderMarkdown("a\r\nb\r\rc\r"));
});

Deno.test("createStreamRenderer() passes render options to every block", async () => {
  const opts = { remoteImages: "inline" as const };
  const text = "![a](https://x.example/a.png)\n\nmore\n\n![b](https://x.example/b.png)";
  const r = createStreamRenderer(opts);
  for (const c of text) r.push(c);
  await r.finish();
  strictEqual(r.html, renderMarkdown(text, opts));
  strictEqual((r.html.match(/<img /g) ?? []).length, 2);
});

Deno.test("createStreamRenderer() matches a full render at every step of random documents", async () => {
  await preloadRenderers();
  const rand = seeded(7);
  const lines = [
    "text line",
    "para $x$ end",
    "a $b$ and \\(c\\)",
    "- item",
    "- ",
    "-",
    "* star",
    "+ plus",
    "- [ ] task",
    "  - nested",
    "\t- tab item",
    "1. one",
    "2. two",
    "10. ten",
    "2)",
    "1.",
    "  1. nested ordered",
    "  indented two",
    "    code four",
    "     five",
    "```",
    "```py",
    "  ```",
    "~~~",
    "$$",
    "$",
    "$$ y $$",
    "x^2",
    "\\[",
    "\\]",
    "| a | b |",
    "|---|---|",
    "| 1 | 2 |",
    "> quote",
    ">",
    "   > nested quote",
    "# head",
    "Setext",
    "===",
    "---",
    "***",
    "<div>",
    "<https://x.example>",
    "",
    "",
    "",
    "    ",
    " \t",
  ];
  for (let n = 0; n < 250; n++) {
    const count = 2 + Math.floor(rand() * 20);
    const doc = Array.from({ length: count }, () => lines[Math.floor(rand() * lines.length)])
      .join("\n");
    const screen = new Screen();
    const r = createStreamRenderer();
    for (let i = 0; i < doc.length;) {
      const size = 1 + Math.floor(rand() * 5);
      screen.apply(r.push(doc.slice(i, i + size)));
      i += size;
      strictEqual(screen.html, renderMarkdown(r.text), `at ${JSON.stringify(r.text)}`);
    }
    screen.apply(await r.finish());
    strictEqual(screen.html, renderMarkdown(doc), JSON.stringify(doc));
    strictEqual(r.stats.resets, 0, `settled a block too early in ${JSON.stringify(doc)}`);
  }
});

Deno.test("createStreamRenderer() refuses text after finish()", async () => {
  const r = createStreamRenderer();
  r.push("done");
  await r.finish();
  throws(() => r.push("more"), /after finish/);
});
