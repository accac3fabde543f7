import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { Marked } from "marked";
import markedKatex from "marked-katex-extension";
import hljs from "highlight.js/lib/core";
import * as esbuild from "esbuild";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import {
  ensureRenderers,
  markdownNeeds,
  needsReady,
  preloadRenderers,
  renderMarkdown,
} from "../lib/markdown/render.ts";
import {
  DECLARED_LANGUAGE_ALIASES,
  LANGUAGE_DEPS,
  languageReady,
  LANGUAGES,
  resolveLanguage,
} from "../lib/markdown/highlight.ts";
import { KATEX_OPTIONS, mathReady } from "../lib/markdown/math.ts";
import { safeUrl } from "../lib/markdown/urls.ts";
import { assertSafeHtml, parseHtml, seeded, squash } from "./markdown_html.ts";

/**
 * Hostile inputs and text each must still show. Raw HTML is text, refused URLs show their
 * markdown source, KaTeX shows what it could not run.
 */
const HOSTILE: [input: string, visible: string[]][] = [
  ["<img src=x onerror=alert(1)>", ["<img src=x onerror=alert(1)>"]],
  ['<img src="x" onerror="alert(1)"/>', ['<img src="x" onerror="alert(1)"/>']],
  ["<script>alert(1)</script>", ["<script>alert(1)</script>"]],
  ["<sCrIpT>alert(1)</ScRiPt>", ["<sCrIpT>alert(1)</ScRiPt>"]],
  ["<svg onload=alert(1)>", ["<svg onload=alert(1)>"]],
  ["<svg><script>alert(1)</script></svg>", ["<svg><script>alert(1)</script></svg>"]],
  ['<iframe src="javascript:alert(1)"></iframe>', ['<iframe src="javascript:alert(1)">']],
  ["<style>body{display:none}</style>", ["<style>body{display:none}</style>"]],
  ['<object data="javascript:alert(1)">', ['<object data="javascript:alert(1)">']],
  ['<form action="javascript:alert(1)"><button>x</button></form>', ["<button>x</button>"]],
  ['<meta http-equiv="refresh" content="0;url=javascript:alert(1)">', ["http-equiv"]],
  ['<base href="javascript:alert(1)//">', ['<base href="javascript:alert(1)//">']],
  ["<details open ontoggle=alert(1)>", ["<details open ontoggle=alert(1)>"]],
  ["<x onclick=alert(1)>text</x>", ["<x onclick=alert(1)>text</x>"]],
  ["<div>**bold** inside html</div>", ["<div>", "bold", "inside html</div>"]],
  ['<a href="javascript:alert(1)">click</a>', ['<a href="javascript:alert(1)">click</a>']],
  ["<a href=javascript:alert(1)>x</a>", ["<a href=javascript:alert(1)>x</a>"]],
  ['<a href="&#106;avascript:alert(1)">x</a>', ["avascript:alert(1)"]],
  ["<!-- --><img src=x onerror=alert(1)>", ["<!-- --><img src=x onerror=alert(1)>"]],
  ["<![CDATA[<img src=x onerror=alert(1)>]]>", ["<img src=x onerror=alert(1)>"]],
  [
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
    ["<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>"],
  ],
  ["&lt;script&gt;alert(1)&lt;/script&gt;", ["<script>alert(1)</script>"]],
  ["*<img src=x onerror=alert(1)>*", ["<img src=x onerror=alert(1)>"]],
  ["> <script>alert(1)</script>", ["<script>alert(1)</script>"]],
  ["| a |\n|---|\n| <img src=x onerror=alert(1)> |", ["<img src=x onerror=alert(1)>"]],
  ["- [ ] <input onfocus=alert(1) autofocus>", ["<input onfocus=alert(1) autofocus>"]],
  ["`<script>alert(1)</script>`", ["<script>alert(1)</script>"]],
  ["[x](javascript:alert(1))", ["[x](javascript:alert(1))"]],
  ["[x](JAVASCRIPT:alert(1))", ["[x](JAVASCRIPT:alert(1))"]],
  ['[x](javascript:alert(1) "t")', ["javascript:alert(1)"]],
  ["[x](<java\tscript:alert(1)>)", ["script:alert(1)"]],
  ["[x](<java\nscript:alert(1)>)", ["script:alert(1)"]],
  ["[x](&#106;avascript:alert(1))", ["avascript:alert(1)"]],
  ["[x](&#x6A;avascript&#x3A;alert(1))", ["avascript"]],
  ["[x](javascript&colon;alert(1))", ["javascript&colon;alert(1)"]],
  ["[x](%6Aavascript:alert(1))", ["%6Aavascript:alert(1)"]],
  ["[x](javascript://%0aalert(1))", ["javascript://%0aalert(1)"]],
  ["[x](vbscript:msgbox(1))", ["vbscript:msgbox(1)"]],
  ["[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)", ["data:text/html"]],
  ["[x](file:///etc/passwd)", ["file:///etc/passwd"]],
  ["![x](javascript:alert(1))", ["![x](javascript:alert(1))"]],
  ["![x](data:image/svg+xml;base64,PHN2Zz4=)", ["data:image/svg+xml"]],
  ["<javascript:alert(1)>", ["<javascript:alert(1)>"]],
  ["[x][ref]\n\n[ref]: javascript:alert(1)", ["[x][ref]"]],
  ["[ref]\n\n[ref]: javascript:alert(1)", ["[ref]"]],
  ['[x](https://ok.example/" onmouseover="alert(1))', ["onmouseover"]],
  ['[x](https://ok.example "t\\" onmouseover=\\"alert(1)")', ["x"]],
  ["[<img src=x onerror=alert(1)>](https://ok.example)", ["<img src=x onerror=alert(1)>"]],
  ['![a" onerror="alert(1)](https://x.example/y.png)', ['a" onerror="alert(1)']],
  ['![a" onerror="alert(1)](/y.png)', []],
  ['https://example.com/"onmouseover="alert(1)', ["onmouseover"]],
  ["www.example.com/<script>", ["<script>"]],
  ['```"><img src=x onerror=1>\ncode\n```', ["code"]],
  ["```js onload=alert(1)\nx\n```", ["x"]],
  ["```<script>\nalert(1)\n```", ["alert(1)"]],
  ["$\\href{javascript:alert(1)}{x}$", ["href"]],
  ["$\\url{javascript:alert(1)}$", ["url"]],
  ["$\\htmlClass{x}{y}$ and $\\htmlStyle{color:red}{z}$", ["htmlClass", "htmlStyle"]],
  ["$$\n\\includegraphics{javascript:alert(1)}\n$$", ["includegraphics"]],
  ["\\[ \\href{javascript:alert(1)}{x} \\]", ["href"]],
  ["$x<img src=x onerror=alert(1)>$", ["x"]],
];

/** Render a message, assert it is safe and shows each `visible` string. */
function check(input: string, visible: string[]) {
  for (const remoteImages of ["link", "inline"] as const) {
    const html = renderMarkdown(input, { remoteImages });
    assertSafeHtml(html, input);
    for (const el of parseHtml(html).elements) {
      for (const attr of ["href", "src"]) {
        ok(!/script:/i.test(el.attrs[attr] ?? ""), `${attr}="${el.attrs[attr]}" for ${input}`);
      }
    }
    const { elements, text: shown } = parseHtml(html);
    // An image's alt text is what it shows in place of the picture.
    const alts = elements.filter((e) => e.tag === "img").map((e) => e.attrs.alt);
    const text = squash([shown, ...alts].join(" "));
    for (const v of visible) {
      ok(text.includes(squash(v)), `"${v}" not visible for ${JSON.stringify(input)}: ${text}`);
    }
  }
}

// These two run first: they see this module's renderers before anything is loaded.

Deno.test("renderMarkdown() shows math and code as escaped source until ensureRenderers()", () => {
  ok(!mathReady());
  const html = renderMarkdown("Euler: $e^{i\\pi}+1=0$\n\n```ts\nconst a = 1 < 2;\n```");
  const { elements } = parseHtml(html);
  const pending = elements.find((e) => e.attrs.class === "math-pending");
  strictEqual(pending?.text, "$e^{i\\pi}+1=0$");
  const code = elements.find((e) => e.tag === "code")!;
  strictEqual(code.attrs.class, "hljs language-ts");
  strictEqual(code.text, "const a = 1 < 2;");
  ok(!elements.some((e) => e.attrs.class?.startsWith("hljs-")), "highlighted before load");
  for (const [input, visible] of HOSTILE) check(input, visible);
});

Deno.test("ensureRenderers() loads only the grammars and KaTeX a message needs", async () => {
  await ensureRenderers("Plain text, a price of $5 and `code`.\n\n    indented code");
  ok(!mathReady(), "no math in the text, KaTeX must not load");
  ok(!languageReady("typescript"));
  const text = "```ts\nlet x = 1;\n```\n\n```py\nx = 1\n```";
  deepStrictEqual(markdownNeeds(text), { math: false, languages: ["typescript", "python"] });
  await ensureRenderers(text);
  ok(languageReady("typescript") && languageReady("python"));
  ok(languageReady("xml") && languageReady("css"), "typescript embeds xml and css");
  ok(!languageReady("rust") && !mathReady());
  ok(needsReady(markdownNeeds(text)));
  await ensureRenderers("Energy $E=mc^2$ here");
  ok(mathReady());
});

Deno.test("renderMarkdown() renders hostile input as inert text (preloaded renderers)", async () => {
  await preloadRenderers();
  ok(HOSTILE.length >= 40);
  for (const [input, visible] of HOSTILE) check(input, visible);
});

Deno.test("renderMarkdown() survives random markdown soup safely", () => {
  const rand = seeded(42);
  const atoms = [
    "<",
    ">",
    "[",
    "]",
    "(",
    ")",
    "!",
    "`",
    "```",
    "$",
    "$$",
    "\\",
    "*",
    "_",
    "|",
    "-",
    "\n",
    "\n\n",
    " ",
    "&",
    "#",
    ":",
    '"',
    "'",
    "javascript:",
    "on",
    "error=",
    "img",
    "script",
    "http://a.b/",
    "x",
    "1.",
    "> ",
    "\t",
    "&#106;",
    "\\[",
    "\\(",
  ];
  for (let i = 0; i < 400; i++) {
    let s = "";
    const n = 1 + Math.floor(rand() * 40);
    for (let j = 0; j < n; j++) s += atoms[Math.floor(rand() * atoms.length)];
    assertSafeHtml(renderMarkdown(s, { remoteImages: "inline" }), s);
  }
});

Deno.test("safeUrl() allows http(s)/mailto/relative links and refuses other schemes", () => {
  const allowed: [string, string][] = [
    ["https://example.com/a?b=c&d#e", "https://example.com/a?b=c&d#e"],
    ["HTTP://EXAMPLE.COM", "HTTP://EXAMPLE.COM"],
    ["mailto:a@example.com", "mailto:a@example.com"],
    ["/docs/a b.md", "/docs/a%20b.md"],
    ["#section", "#section"],
    ["?q=1", "?q=1"],
    ["docs/a:b", "docs/a:b"],
    ["//cdn.example/x", "//cdn.example/x"],
    ["https://例え.jp/パス", "https://%E4%BE%8B%E3%81%88.jp/%E3%83%91%E3%82%B9"],
  ];
  for (const [url, href] of allowed) strictEqual(safeUrl(url, "link")?.href, href, url);
  const refused = [
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " javascript:alert(1)",
    "java\tscript:alert(1)",
    "java\nscript:alert(1)",
    "java\u0000script:alert(1)",
    "\u200bjavascript:alert(1)",
    "&#106;avascript:alert(1)",
    "&#0000106;avascript:alert(1)",
    "&#x6a;avascript:alert(1)",
    "javascript&colon;alert(1)",
    "javascript&#58alert(1)",
    "&amp;#106;avascript:alert(1)",
    "%6Aavascript:alert(1)",
    "vbscript:msgbox(1)",
    "data:text/html,<script>alert(1)</script>",
    "data:image/png;base64,AAAA",
    "file:///etc/passwd",
    "tel:123",
    "C:\\Windows",
    "\ud800",
  ];
  for (const url of refused) strictEqual(safeUrl(url, "link"), null, JSON.stringify(url));
});

Deno.test("safeUrl() allows raster data: images only, and marks remote images", () => {
  deepStrictEqual(safeUrl("data:image/png;base64,iVBORw0KGgo=", "image"), {
    href: "data:image/png;base64,iVBORw0KGgo=",
    remote: false,
  });
  ok(safeUrl("data:image/webp;base64,AAAA", "image"));
  strictEqual(safeUrl("data:image/svg+xml;base64,PHN2Zz4=", "image"), null);
  strictEqual(safeUrl("data:text/html;base64,AAAA", "image"), null);
  strictEqual(safeUrl("data:image/png,<svg onload=alert(1)>", "image"), null);
  strictEqual(safeUrl("mailto:a@b.c", "image"), null);
  strictEqual(safeUrl("https://x.example/a.png", "image")?.remote, true);
  strictEqual(safeUrl("//x.example/a.png", "image")?.remote, true);
  strictEqual(safeUrl("/\\x.example/a.png", "image")?.remote, true);
  strictEqual(safeUrl("/api/file/raw?path=a.png", "image")?.remote, false);
});

Deno.test("renderMarkdown() renders GFM: headings, lists, task lists, tables, strikethrough", () => {
  const html = renderMarkdown([
    "## Plan",
    "",
    "1. first *em*",
    "2. second **strong** ~~old~~",
    "",
    "- [x] done",
    "- [ ] todo",
    "",
    "| Name | Qty |",
    "|:-----|----:|",
    "| a\\|b | 2 |",
    "",
    "> quoted",
    "",
    "---",
  ].join("\n"));
  const { elements } = parseHtml(html);
  const tags = elements.map((e) => e.tag);
  for (const t of ["h2", "ol", "ul", "em", "strong", "del", "table", "blockquote", "hr"]) {
    ok(tags.includes(t), `missing <${t}> in ${html}`);
  }
  const boxes = elements.filter((e) => e.tag === "input");
  deepStrictEqual(boxes.map((b) => "checked" in b.attrs), [true, false]);
  const wrap = elements.find((e) => e.tag === "div" && e.attrs.class === "table-wrap");
  ok(wrap, "tables are wrapped in .table-wrap");
  ok(html.includes('<div class="table-wrap"><table>'), "the wrapper directly holds the table");
  deepStrictEqual(elements.filter((e) => e.tag === "th").map((e) => e.attrs.align), [
    "left",
    "right",
  ]);
  strictEqual(elements.find((e) => e.tag === "td")?.text, "a|b");
});

Deno.test("renderMarkdown() turns single newlines into line breaks, in lists too", () => {
  strictEqual(
    renderMarkdown("Roses\nViolets\n\n- a\n  b"),
    "<p>Roses<br>Violets</p>\n<ul>\n<li>a<br>b</li>\n</ul>\n",
  );
});

Deno.test("renderMarkdown() bounds KaTeX: runaway macros and huge sizes become errors", () => {
  const html = renderMarkdown("Loop $\\def\\a{\\a}\\a$ and $\\rule{100000em}{1em}$ end");
  ok(html.includes("katex-error"), html);
  ok(!/width:\s*100000/.test(html), "maxSize caps the rule");
  ok(parseHtml(html).text.includes("end"));
});

Deno.test("renderMarkdown() gives links rel/target and keeps their text", () => {
  const html = renderMarkdown(
    'See [the docs](https://example.com/docs "Docs"), <https://a.example>, www.b.example ' +
      "and [ref][r].\n\n[r]: /local/path",
  );
  const links = parseHtml(html).elements.filter((e) => e.tag === "a");
  deepStrictEqual(links.map((a) => [a.attrs.href, a.text]), [
    ["https://example.com/docs", "the docs"],
    ["https://a.example", "https://a.example"],
    ["http://www.b.example", "www.b.example"],
    ["/local/path", "ref"],
  ]);
  strictEqual(links[0].attrs.title, "Docs");
  assertSafeHtml(html);
});

Deno.test("renderMarkdown() links remote images unless remoteImages is inline", () => {
  const text = "![chart](https://x.example/c.png) ![local](plot.png)";
  const linked = parseHtml(renderMarkdown(text)).elements;
  const a = linked.find((e) => e.tag === "a")!;
  strictEqual(a.attrs.class, "md-image-link");
  strictEqual(a.attrs.href, "https://x.example/c.png");
  strictEqual(a.text, "chart");
  deepStrictEqual(linked.filter((e) => e.tag === "img").map((e) => e.attrs.src), ["plot.png"]);
  const inline = parseHtml(renderMarkdown(text, { remoteImages: "inline" })).elements;
  deepStrictEqual(inline.filter((e) => e.tag === "img").map((e) => e.attrs.src), [
    "https://x.example/c.png",
    "plot.png",
  ]);
});

Deno.test("renderMarkdown() rewriteUrl maps accepted URLs and its result is checked again", () => {
  const seen: string[] = [];
  const html = renderMarkdown("![p](out/plot.png) [a](notes.md) [b](https://x.example)", {
    rewriteUrl: (url, kind) => {
      seen.push(`${kind}:${url}`);
      if (url.startsWith("https:")) return "javascript:alert(1)";
      return kind === "image" ? `/api/file/raw?path=${encodeURIComponent(url)}` : url;
    },
  });
  deepStrictEqual(seen, ["image:out/plot.png", "link:notes.md", "link:https://x.example"]);
  const els = parseHtml(html).elements;
  strictEqual(els.find((e) => e.tag === "img")?.attrs.src, "/api/file/raw?path=out%2Fplot.png");
  ok(!els.some((e) => e.attrs.href?.includes("javascript")));
  ok(parseHtml(html).text.includes("[b](https://x.example)"), "refused link shows its source");
});

Deno.test("renderMarkdown() renders code blocks with the UI's class hooks", () => {
  const html = renderMarkdown("```ts\nconst a: number = 1;\n```");
  strictEqual(
    html.slice(0, html.indexOf("<code")),
    '<pre class="code-block"><div class="code-head"><span class="code-lang">ts</span>' +
      '<button class="code-copy" type="button">Copy</button></div>',
  );
  const code = parseHtml(html).elements.find((e) => e.tag === "code")!;
  strictEqual(code.attrs.class, "hljs language-ts");
  strictEqual(code.text, "const a: number = 1;", "copying code.textContent gives the source");
  ok(html.includes('<span class="hljs-keyword">const</span>'));
});

Deno.test("renderMarkdown() keeps unknown, plain and hostile fence labels unhighlighted", () => {
  const unknown = parseHtml(renderMarkdown("```brainfudge\n+++<\n```")).elements;
  strictEqual(unknown.find((e) => e.tag === "code")?.attrs.class, "hljs language-brainfudge");
  strictEqual(unknown.find((e) => e.attrs.class === "code-lang")?.text, "brainfudge");
  strictEqual(unknown.find((e) => e.tag === "code")?.text, "+++<");
  const none = parseHtml(renderMarkdown("```\nplain\n```")).elements;
  strictEqual(none.find((e) => e.tag === "code")?.attrs.class, "hljs");
  strictEqual(none.find((e) => e.attrs.class === "code-lang")?.text, "text");
  const hostile = parseHtml(renderMarkdown('```"><b>x\ny\n```')).elements;
  strictEqual(hostile.find((e) => e.tag === "code")?.attrs.class, "hljs");
  const indented = parseHtml(renderMarkdown("para\n\n    code <b>")).elements;
  strictEqual(indented.find((e) => e.tag === "code")?.text, "code <b>");
});

Deno.test("resolveLanguage() maps aliases; the tables match highlight.js's grammars", async () => {
  strictEqual(resolveLanguage("TS"), "typescript");
  strictEqual(resolveLanguage("tsx"), "typescript");
  strictEqual(resolveLanguage("sh"), "bash");
  strictEqual(resolveLanguage("shell"), "bash");
  strictEqual(resolveLanguage("console"), "shell");
  strictEqual(resolveLanguage("c++"), "cpp");
  strictEqual(resolveLanguage("html"), "xml");
  strictEqual(resolveLanguage("text"), null);
  strictEqual(resolveLanguage("nope"), null);
  for (const name of LANGUAGES) {
    const mod = await import(`highlight.js/lib/languages/${name}`);
    const grammar = mod.default(hljs);
    deepStrictEqual(
      [...(DECLARED_LANGUAGE_ALIASES[name] ?? [])],
      grammar.aliases ?? [],
      `aliases of ${name}`,
    );
    const subs = new Set<string>();
    const seen = new Set<unknown>();
    const walk = (m: unknown) => {
      if (!m || typeof m !== "object" || seen.has(m)) return;
      seen.add(m);
      const sub = (m as { subLanguage?: string | string[] }).subLanguage;
      for (const s of typeof sub === "string" ? [sub] : sub ?? []) subs.add(s);
      for (const v of Object.values(m)) {
        if (Array.isArray(v)) v.forEach(walk);
        else walk(v);
      }
    };
    walk(grammar);
    deepStrictEqual(
      [...(LANGUAGE_DEPS[name] ?? [])].sort(),
      [...subs].filter((s) => LANGUAGES.includes(s)).sort(),
      `embedded languages of ${name}`,
    );
  }
});

Deno.test("renderMarkdown() renders $…$, \\(…\\), $$…$$ and \\[…\\] with KaTeX", () => {
  const html = renderMarkdown(
    "Inline $a^2$ and \\(b_1\\), display:\n$$\n\\sum_i x_i\n$$\n\n\\[\n\\int f\n\\]\n\n" +
      "Same line $$c$$.",
  );
  const els = parseHtml(html).elements;
  strictEqual(els.filter((e) => e.attrs.class === "katex").length, 5);
  strictEqual(els.filter((e) => e.attrs.class === "katex-display").length, 3);
  ok(!html.includes("$$") && !html.includes("\\["), html);
  assertSafeHtml(html);
});

Deno.test("renderMarkdown() leaves prices and escaped dollars alone", () => {
  for (const text of ["It costs $5 and $10.", "From $3 to $4", "Pay \\$5 now$", "a$b$c"]) {
    ok(!renderMarkdown(text).includes("katex"), text);
  }
  ok(renderMarkdown("($x$) and $y$;").split('class="katex"').length === 3);
});

Deno.test("renderMarkdown() shows a KaTeX error as text instead of throwing", () => {
  const html = renderMarkdown("Broken $\\frac{1}{$ here and $\\undefinedmacro{x}$.");
  ok(html.includes("katex-error"), html);
  ok(parseHtml(html).text.includes("here and"));
});

Deno.test("math output matches marked-katex-extension for its standard syntax", () => {
  const reference = new Marked().use(markedKatex({ ...KATEX_OPTIONS }));
  for (
    const text of [
      "Inline $x^2 + y^2 = z^2$ math.",
      "Two $a$ and $b$, display $$\\frac{1}{2}$$ inline.",
      "$$\n\\begin{aligned} a &= b \\\\ c &= d \\end{aligned}\n$$",
      "Before\n\n$$\nE = mc^2\n$$\n\nAfter",
      "$\\sqrt{2}$",
    ]
  ) {
    strictEqual(renderMarkdown(text), reference.parse(text), text);
  }
});

Deno.test("lib/markdown/render.ts bundles for the browser without KaTeX or grammars up front", async () => {
  const root = fileURLToPath(new URL("..", import.meta.url));
  try {
    const result = await esbuild.build({
      absWorkingDir: root,
      stdin: {
        contents: 'import { renderMarkdown } from "./lib/markdown/render.ts";\n' +
          'document.body.innerHTML = renderMarkdown("# hi");\n',
        resolveDir: root,
        loader: "ts",
      },
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "browser",
      target: ["es2022"],
      minify: true,
      outdir: "out",
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    const entry = Object.entries(result.metafile.outputs)
      .find(([, o]) => o.entryPoint === "<stdin>")!;
    const initial = new Set([entry[0]]);
    for (const f of initial) {
      for (const imp of result.metafile.outputs[f].imports) {
        if (imp.kind === "import-statement") initial.add(imp.path);
      }
    }
    const inputs = [...initial].flatMap((f) => Object.keys(result.metafile.outputs[f].inputs));
    ok(inputs.some((i) => i.includes("marked")), "marked is part of the initial chunk");
    ok(!inputs.some((i) => /katex|highlight\.js/.test(i)), `eager: ${inputs.join(", ")}`);
    const files = new Map(result.outputFiles.map((f) => [f.path.slice(root.length), f]));
    let gz = 0;
    for (const f of initial) gz += gzipSync(files.get(f)!.contents, { level: 9 }).byteLength;
    const lazy = Object.keys(result.metafile.outputs).length - initial.size;
    console.log(`initial markdown JS: ${(gz / 1024).toFixed(1)} KB gz; ${lazy} lazy chunks`);
    ok(gz < 30 * 1024, `initial markdown JS is ${gz} B gz`);
    ok(lazy > LANGUAGES.length, "KaTeX and every grammar are separate chunks");
  } finally {
    await esbuild.stop();
  }
});
