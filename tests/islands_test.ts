import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  ok as assert,
  strictEqual,
  throws as assertThrows,
} from "node:assert/strict";
import { h, options } from "preact";
import { computed, signal } from "@preact/signals";
import {
  createIslandRegistry,
  type IslandBundle,
  islandNameFromPath,
  islandTags,
  renderWithIslands,
} from "../lib/server/islands.ts";
import {
  createPropsEncoder,
  decodeIslandProps,
  type IslandPayload,
  IslandPropsError,
  type SignalLike,
} from "../lib/shared/island_props.ts";
import { createPageRenderer } from "../lib/server/render_page.ts";
import type { AppModuleProps, PageProps } from "../lib/server/file_router.ts";
import { createTestApp } from "./helpers.ts";
import { needs } from "./fixtures/skip.ts";

// Two island modules as routes.gen.ts would list them.
function Counter({ start, label }: { start: number; label?: string }) {
  return h("button", { class: "counter" }, `${label ?? "count"}: ${start}`);
}
function Panel({ open }: { open: SignalLike<boolean> }) {
  // An island using another island: one marker, the inner one is part of this island's code.
  return h("div", { class: "panel" }, String(open.value), h(Counter, { start: 7 }));
}
function helperNotAnIsland() {
  return null;
}
const ISLANDS = {
  "./islands/Counter.tsx": { default: Counter },
  "./islands/chat/Panel.tsx": { default: Panel, helperNotAnIsland, VERSION: 2 },
};
const registry = createIslandRegistry(ISLANDS);

const BUNDLE: IslandBundle = {
  version: 1,
  base: "/static/_islands/",
  entry: { file: "boot-AAAAAAAA.js", imports: ["chunk-PREACT01.js"] },
  islands: {
    Counter: { file: "Counter-BBBBBBBB.js", imports: ["chunk-HOOKS001.js", "chunk-PREACT01.js"] },
    chat_Panel: { file: "chat_Panel-CCCCCCCC.js", imports: ["chunk-PREACT01.js"] },
  },
};

function payloadOf(html: string): IslandPayload {
  const m = html.match(/<script type="application\/json" id="__hermes_islands">(.*?)<\/script>/s);
  assert(m, "page has the islands payload");
  return JSON.parse(m[1]);
}

Deno.test("islandNameFromPath() names islands by file, folders joined with _", () => {
  strictEqual(islandNameFromPath("./islands/Composer.tsx"), "Composer");
  strictEqual(islandNameFromPath("./islands/chat/Panel.tsx"), "chat_Panel");
  strictEqual(islandNameFromPath("islands/ActivityGroup.jsx"), "ActivityGroup");
});

Deno.test("createIslandRegistry() registers default and capitalised function exports only", () => {
  assertEquals(registry.get(Counter), { name: "Counter", exportName: "default" });
  assertEquals(registry.get(Panel), { name: "chat_Panel", exportName: "default" });
  strictEqual(registry.has(helperNotAnIsland as never), false);
  strictEqual(registry.size, 2);
});

Deno.test("renderWithIslands() wraps each outermost island in a marker and keeps its props", () => {
  const open = signal(true);
  const page = h(
    "main",
    null,
    h("p", null, "static"),
    h(Counter, { start: 3 }),
    h(Panel, { open }),
  );
  const { html, islands } = renderWithIslands(page, registry);
  strictEqual(
    html,
    '<main><p>static</p><hermes-island data-island="Counter" data-id="0">' +
      '<button class="counter">count: 3</button></hermes-island>' +
      '<hermes-island data-island="chat_Panel" data-id="1"><div class="panel">true' +
      '<button class="counter">count: 7</button></div></hermes-island></main>',
  );
  assertEquals(islands.map((i) => [i.id, i.name, i.exportName]), [
    [0, "Counter", "default"],
    [1, "chat_Panel", "default"],
  ]);
  strictEqual(islands[1].props.open, open, "props are kept raw until encoding");
});

Deno.test("renderWithIslands() leaves preact's vnode hook as it found it, even on error", () => {
  const before = options.vnode;
  renderWithIslands(h(Counter, { start: 1 }), registry);
  strictEqual(options.vnode, before);
  const Broken = () => {
    throw new Error("boom");
  };
  assertThrows(() => renderWithIslands(h("div", null, h(Broken, null)), registry), /boom/);
  strictEqual(options.vnode, before);
  // Outside a render, island components render plainly (no marker).
  const { html, islands } = renderWithIslands(h("p", null, "x"), registry);
  strictEqual(html, "<p>x</p>");
  strictEqual(islands.length, 0);
});

Deno.test("createPropsEncoder() encodes a shared signal once and decodes it to one signal", () => {
  const shared = signal({ n: 1 });
  const other = signal("x");
  const enc = createPropsEncoder();
  const a = enc.encode("A", { s: shared, list: [other, shared], plain: { ok: true } });
  const b = enc.encode("B", { s: shared, skipped: undefined, ref: { current: null } });
  assertEquals(a, {
    s: { $signal: 0 },
    list: [{ $signal: 1 }, { $signal: 0 }],
    plain: { ok: true },
  });
  assertEquals(b, { s: { $signal: 0 } }, "undefined props and refs are dropped");
  assertEquals(enc.signals, [{ n: 1 }, "x"]);

  const payload: IslandPayload = {
    signals: JSON.parse(JSON.stringify(enc.signals)),
    islands: [
      { id: 0, name: "A", export: "default", url: "/a.js", props: JSON.parse(JSON.stringify(a)) },
      { id: 1, name: "B", export: "default", url: "/b.js", props: JSON.parse(JSON.stringify(b)) },
    ],
  };
  const [pa, pb] = decodeIslandProps(payload, signal);
  const sa = pa.s as SignalLike<{ n: number }>;
  assertEquals(sa.value, { n: 1 });
  strictEqual(pb.s, sa, "two islands share the same signal object");
  strictEqual((pa.list as unknown[])[1], sa, "and so do two props of one island");
  strictEqual(((pa.list as unknown[])[0] as SignalLike).value, "x");
  sa.value = { n: 2 };
  strictEqual((pb.s as SignalLike<{ n: number }>).value.n, 2, "a write is seen by both islands");
});

Deno.test("createPropsEncoder() sends a computed by value and keeps `$` keys verbatim", () => {
  const base = signal(2);
  const doubled = computed(() => base.value * 2);
  const enc = createPropsEncoder();
  const props = enc.encode("A", { doubled, data: { $signal: 5, $plain: "y", nested: { $x: 1 } } });
  const payload: IslandPayload = {
    signals: enc.signals,
    islands: [{ id: 0, name: "A", export: "default", url: "/a.js", props }],
  };
  const [decoded] = decodeIslandProps(JSON.parse(JSON.stringify(payload)), signal);
  strictEqual((decoded.doubled as SignalLike<number>).value, 4);
  assertEquals(decoded.data, { $signal: 5, $plain: "y", nested: { $x: 1 } });
});

Deno.test("createPropsEncoder() refuses values that cannot cross, naming island and prop", () => {
  const enc = createPropsEncoder();
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ onSend: () => {} }, /Island "Composer": prop "onSend" is a function/],
    [{ when: new Date(0) }, /prop "when" is a Date \(pass epoch seconds instead\)/],
    [{ m: { inner: [1, new Map()] } }, /prop "m\.inner\[1\]" is an instance of Map/],
    [{ n: NaN }, /prop "n" is NaN/],
    [{ big: 1n }, /prop "big" is a bigint/],
    [{ el: h("b", null) }, /prop "el" is a JSX element/],
    [{ s: signal(() => 1) }, /prop "s\.value" is a function/],
  ];
  for (const [props, message] of cases) {
    assertThrows(() => enc.encode("Composer", props), (err: Error) => {
      assert(err instanceof IslandPropsError);
      assertMatch(err.message, message);
      return true;
    });
  }
  const loop: Record<string, unknown> = {};
  loop.self = loop;
  assertThrows(() => enc.encode("Composer", { loop }), /prop "loop\.self" is a circular reference/);
});

Deno.test("decodeIslandProps() needs a signal factory only when signals are present", () => {
  const payload: IslandPayload = {
    signals: [],
    islands: [{ id: 0, name: "A", export: "default", url: "/a.js", props: { a: [1, null] } }],
  };
  assertEquals(decodeIslandProps(payload), [{ a: [1, null] }]);
  assertThrows(
    () =>
      decodeIslandProps({
        ...payload,
        signals: [1],
        islands: [{ ...payload.islands[0], props: { s: { $signal: 0 } } }],
      }),
    /no signal factory/,
  );
});

Deno.test("islandTags() preloads each chunk once and escapes the payload for a script", () => {
  const { islands } = renderWithIslands(
    h(
      "div",
      null,
      h(Counter, { start: 1, label: "</script><script>alert(1)</script>" }),
      h(Counter, { start: 2 }),
    ),
    registry,
  );
  const tags = islandTags(islands, BUNDLE);
  assertEquals(tags.missing, []);
  const preloads = [...tags.head.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) =>
    m[1]
  );
  assertEquals(preloads, [
    "/static/_islands/boot-AAAAAAAA.js",
    "/static/_islands/chunk-PREACT01.js",
    "/static/_islands/Counter-BBBBBBBB.js",
    "/static/_islands/chunk-HOOKS001.js",
  ]);
  strictEqual(tags.body.split("<script").length - 1, 2, "one payload script, one module script");
  assert(!tags.body.includes("</script><script>alert"), "a prop cannot close the script");
  const payload = payloadOf(tags.body);
  strictEqual(payload.islands[0].props.label, "</script><script>alert(1)</script>");
  strictEqual(payload.islands[1].url, "/static/_islands/Counter-BBBBBBBB.js");
  assertMatch(
    tags.body,
    /<script type="module" src="\/static\/_islands\/boot-AAAAAAAA\.js"><\/script>$/,
  );
});

Deno.test("islandTags() reports islands the bundle lacks and emits nothing without a bundle", () => {
  const { islands } = renderWithIslands(h(Counter, { start: 1 }), registry);
  const stale = islandTags(islands, { ...BUNDLE, islands: {} });
  assertEquals(stale, { head: "", body: "", missing: ["Counter"] });
  const none = islandTags(islands, undefined);
  assertEquals(none, { head: "", body: "", missing: ["Counter"] });
  // Props are still validated when nothing is built.
  const bad = renderWithIslands(h(Counter, { start: 1, label: (() => "x") as never }), registry);
  assertThrows(() => islandTags(bad.islands, undefined), /prop "label" is a function/);
});

function App({ Component }: AppModuleProps) {
  return h("html", null, h("head", null, h("title", null, "t")), h("body", null, h(Component, {})));
}
const props = (data: unknown): PageProps<unknown> => ({
  data,
  url: new URL("http://x/"),
  params: {},
  state: {},
});

Deno.test("createPageRenderer() ships no script at all for a page without islands", async () => {
  const render = createPageRenderer({ islands: ISLANDS, bundle: () => BUNDLE });
  const page = ({ data }: PageProps<unknown>) => h("p", null, String(data));
  const res = await render({ page, app: App, props: props("plain") });
  const html = await res.text();
  strictEqual(
    html,
    "<!DOCTYPE html><html><head><title>t</title></head><body><p>plain</p></body></html>",
  );
  strictEqual(res.headers.get("content-type"), "text/html; charset=utf-8");
});

Deno.test("createPageRenderer() adds preloads to <head> and payload + entry to <body>", async () => {
  const open = signal(false);
  const render = createPageRenderer({ islands: ISLANDS, bundle: () => BUNDLE });
  const page = () => h("div", null, h(Panel, { open }), h(Counter, { start: 5 }));
  const res = await render({ page, app: App, props: props(null), init: { status: 201 } });
  strictEqual(res.status, 201);
  const html = await res.text();
  const head = html.slice(0, html.indexOf("</head>"));
  assertMatch(
    head,
    /<link rel="modulepreload" href="\/static\/_islands\/chat_Panel-CCCCCCCC\.js">/,
  );
  const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
  assertEquals(scripts, [
    ' type="application/json" id="hermes-i18n"',
    ' type="application/json" id="__hermes_islands"',
    ' type="module" src="/static/_islands/boot-AAAAAAAA.js"',
  ], "no inline executable script (CSP script-src 'self'); the catalog is data");
  assert(html.endsWith("</script></body></html>"));
  const payload = payloadOf(html);
  assertEquals(payload.signals, [false]);
  assertEquals(payload.islands.map((i) => [i.id, i.name, i.props]), [
    [0, "chat_Panel", { open: { $signal: 0 } }],
    [1, "Counter", { start: 5 }],
  ]);
});

Deno.test("createPageRenderer() renders islands unhydrated and warns once when not built", async () => {
  const lines: string[] = [];
  const log = { info() {}, warn: (m: string) => lines.push(m), error() {}, addSecret() {} };
  const render = createPageRenderer({ islands: ISLANDS, bundle: () => undefined, log });
  const page = () => h(Counter, { start: 1 });
  for (let i = 0; i < 2; i++) {
    const html = await (await render({ page, app: App, props: props(null) })).text();
    assert(html.includes('<hermes-island data-island="Counter" data-id="0">'));
    assert(!html.includes("<script"));
  }
  assertEquals(lines, ['Island "Counter" is not in the built bundle; run `deno task build`']);
});

// The real app and the real build (deno task test runs `deno task build` first).
const built: IslandBundle | null = (() => {
  try {
    return JSON.parse(
      Deno.readTextFileSync(new URL("../static/_islands/manifest.json", import.meta.url)),
    );
  } catch {
    return null;
  }
})();

Deno.test(needs(built ? null : "nothing is built: run `deno task build`", {
  name: "GET / hydrates the Composer from content-hashed chunks the static route serves",
  async fn() {
    const app = await createTestApp();
    try {
      const res = await app.request("GET", "/");
      strictEqual(res.status, 200);
      const html = await res.text();
      assertMatch(html, /<hermes-island data-island="Composer" data-id="0">/);
      const payload = payloadOf(html);
      assertEquals(payload.islands.map((i) => i.name), ["Composer"]);
      const entry = html.match(/<script type="module" src="([^"]+)">/)![1];
      for (const url of [entry, payload.islands[0].url]) {
        assertMatch(url, /^\/static\/_islands\/[\w-]+-[A-Z0-9]{8}\.js$/);
        const asset = await app.request("GET", url);
        strictEqual(asset.status, 200, url);
        strictEqual(asset.headers.get("content-type"), "text/javascript; charset=utf-8");
        strictEqual(asset.headers.get("cache-control"), "public, max-age=31536000, immutable");
        assert((await asset.text()).length > 0);
      }
    } finally {
      await app.close();
    }
  },
}));

Deno.test(needs(built ? null : "nothing is built: run `deno task build`", {
  name: "the build keeps the chat page under 60 KB of JavaScript (gzip) before interaction",
  fn() {
    const page = built!.pages?.["/"];
    assert(page, "the build measured /");
    assert(page.islands.includes("Composer"));
    assert(page.gzip > 0 && page.gzip < 60 * 1024, `/ loads ${page.gzip} bytes gz`);
    // The entry imports @preact/signals lazily: a page whose props hold no signal never
    // loads it because of the runtime.
    for (const file of [built!.entry.file, ...built!.entry.imports]) {
      const code = Deno.readTextFileSync(new URL(`../static/_islands/${file}`, import.meta.url));
      assert(!code.includes("preact-signals"), `${file} statically includes @preact/signals`);
    }
  },
}));
