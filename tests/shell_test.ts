import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  ok as assert,
  strictEqual,
} from "node:assert/strict";
import {
  formatSessionTime,
  groupSessionsByDay,
  sessionGroupOf,
  startOfLocalDay,
} from "../lib/shared/session_groups.ts";
import { displayPath } from "../components/Topbar.tsx";
import { createTestApp } from "./helpers.ts";
import { seedConsole } from "./e2e/seed.ts";
import { h } from "preact";
import { highlightSegments, queryWords } from "../lib/shared/search_highlight.ts";
import { createPageRenderer } from "../lib/server/render_page.ts";
import { type PageScriptBundle, usePageScripts } from "../lib/server/page_scripts.ts";
import { appendMessages } from "../lib/sessions/messages.ts";
import { archiveSession, createSession } from "../lib/sessions/sessions.ts";
import type { AppModuleProps, PageProps } from "../lib/server/file_router.ts";
import { needs } from "./fixtures/skip.ts";

// 2026-03-11 (a Wednesday) 09:30 in UTC+02:00 is 07:30 UTC.
const NOW = Date.UTC(2026, 2, 11, 7, 30) / 1000;
const CEST = 120;
const H = 3600;
const row = (id: string, updated_at: number, pinned = false) => ({ id, updated_at, pinned });

Deno.test("startOfLocalDay() is the local midnight of the given zone", () => {
  strictEqual(startOfLocalDay(NOW, CEST), Date.UTC(2026, 2, 10, 22, 0) / 1000);
  strictEqual(startOfLocalDay(NOW, 0), Date.UTC(2026, 2, 11) / 1000);
  strictEqual(startOfLocalDay(NOW, -300), Date.UTC(2026, 2, 11, 5, 0) / 1000);
});

Deno.test("groupSessionsByDay() buckets by local calendar day, pinned first, empty omitted", () => {
  const midnight = startOfLocalDay(NOW, CEST);
  const rows = [
    row("future", NOW + 60), // clock skew: still today
    row("today-early", midnight),
    row("yesterday-late", midnight - 1),
    row("pinned-old", midnight - 40 * 24 * H, true),
    row("yesterday-early", midnight - 24 * H),
    row("week-late", midnight - 24 * H - 1),
    row("week-early", midnight - 6 * 24 * H),
    row("older", midnight - 6 * 24 * H - 1),
  ];
  const groups = groupSessionsByDay(rows, NOW, CEST);
  assertEquals(groups.map((g) => [g.key, g.label, g.sessions.map((s) => s.id)]), [
    ["pinned", "Pinned", ["pinned-old"]],
    ["today", "Today", ["future", "today-early"]],
    ["yesterday", "Yesterday", ["yesterday-late", "yesterday-early"]],
    ["week", "This week", ["week-late", "week-early"]],
    ["older", "Older", ["older"]],
  ]);
  assertEquals(groupSessionsByDay([row("a", NOW - H)], NOW, CEST).map((g) => g.key), ["today"]);
  assertEquals(groupSessionsByDay([], NOW, CEST), []);
});

Deno.test("sessionGroupOf() moves the day boundary with the time zone", () => {
  // 23:30 UTC on March 10 is March 11 in UTC+2 but March 10 in UTC.
  const lateUtc = Date.UTC(2026, 2, 10, 23, 30) / 1000;
  strictEqual(sessionGroupOf(row("x", lateUtc), NOW, CEST), "today");
  strictEqual(sessionGroupOf(row("x", lateUtc), NOW, 0), "yesterday");
});

Deno.test("formatSessionTime() shows a clock today, then day names, then dates", () => {
  const midnight = startOfLocalDay(NOW, CEST);
  strictEqual(formatSessionTime(midnight + 9 * H + 5 * 60, NOW, CEST), "09:05");
  strictEqual(formatSessionTime(midnight - H, NOW, CEST), "Yesterday");
  strictEqual(formatSessionTime(midnight - 3 * 24 * H, NOW, CEST), "Sun");
  strictEqual(formatSessionTime(Date.UTC(2026, 0, 3, 12) / 1000, NOW, CEST), "Jan 3");
  strictEqual(formatSessionTime(Date.UTC(2025, 11, 24, 12) / 1000, NOW, CEST), "Dec 24, 2025");
});

Deno.test("displayPath() folds the home folder to ~ only on a path boundary", () => {
  strictEqual(displayPath("/home/ada/src/app", "/home/ada"), "~/src/app");
  strictEqual(displayPath("/home/ada", "/home/ada/"), "~");
  strictEqual(displayPath("/home/adam/x", "/home/ada"), "/home/adam/x");
  strictEqual(displayPath("/srv/x", "/"), "/srv/x");
});

/** Text of the elements matching a simple `class="..."` marker, in document order. */
function textsOf(html: string, cls: string): string[] {
  // Inline markup (search highlights) is allowed inside; the text is read without it.
  const re = new RegExp(`class="${cls}"[^>]*>((?:[^<]|<mark>[^<]*</mark>)*)<`, "g");
  return [...html.matchAll(re)].map((m) => m[1].replace(/<\/?mark>/g, ""));
}

Deno.test("GET / renders the shell with an empty state that invites the first chat", async () => {
  const app = await createTestApp();
  try {
    const res = await app.request("GET", "/");
    strictEqual(res.status, 200);
    const html = await res.text();
    assertMatch(
      html,
      /<html lang="en" dir="ltr" data-theme="system">/,
      "the default theme follows the OS",
    );
    assertMatch(html, /<link rel="stylesheet" href="\/static\/style.css"\/>/);
    assertMatch(html, /<a class="btn btn-new-chat" href="\/">/);
    assertMatch(html, /<input id="session-search" type="search" name="q"/);
    assertMatch(html, /Your conversations will appear here\./);
    assertMatch(html, /<h1 class="topbar-title" title="New chat"[^>]*>New chat<\/h1>/);
    assertMatch(html, /class="empty-title">What are we working on\?</);
    assertMatch(html, /data-action="control-center"[^>]*>.*Hermes Console/s);
    assertMatch(html, /<hermes-island data-island="Composer" data-id="0"><form class="composer"/);
    assertMatch(html, /data-action="toggle-workspace"/);
    assert(!html.includes('class="session-item"'));
    assert(!html.includes('class="chip project-chip" href'), "no project chips without projects");
    assertMatch(html, /data-action="project-create"/, "but a way to create one");
    assertMatch(html, /<div class="app" data-workspace-panel="closed"/, "the panel starts closed");
  } finally {
    await app.close();
  }
});

Deno.test("GET / says plainly when no model is configured, and how to set one up", async () => {
  const none = await createTestApp();
  const configured = await createTestApp({
    configYaml: "model:\n  provider: custom\n  base_url: http://127.0.0.1:9/v1\n  default: m\n",
  });
  try {
    const html = await (await none.request("GET", "/")).text();
    assertMatch(html, /data-notice="no-provider"[^>]*>No model is configured yet/);
    assertMatch(html, /<a href="\/onboarding">Set one\s+up<\/a>/);
    assert(html.includes("config.yaml"), "names the config file");
    const ok = await (await configured.request("GET", "/")).text();
    assert(!ok.includes('data-notice="no-provider"'), "no notice once a provider is configured");
  } finally {
    await none.close();
    await configured.close();
  }
});

Deno.test("GET / lists seeded sessions by group with project chips in their colours", async () => {
  const app = await createTestApp();
  try {
    const seeded = await seedConsole(app.ctx.db, app.ctx.clock(), app.workspace);
    const html = await (await app.request("GET", "/")).text();
    const labels = textsOf(html, "session-group-label");
    assertEquals(labels.slice(0, 1), ["Pinned"]);
    assertEquals(labels.at(-1), "Older");
    for (const l of labels) {
      assert(["Pinned", "Today", "Yesterday", "This week", "Older"].includes(l));
    }
    const titles = textsOf(html, "session-title");
    strictEqual(titles[0], "Release checklist for v2.4");
    strictEqual(titles.length, 11);
    assert(titles.includes("Benchmark sqlite WAL"));
    assertMatch(
      html,
      new RegExp(
        `data-project-id="${seeded.projects.api}"[^>]*><span class="project-dot" style="--dot:#86C08B">`,
      ),
    );
    assertEquals(
      [...html.matchAll(/class="chip project-chip"[^>]* data-name="([^"]*)"/g)].map((m) => m[1]),
      [
        "api-server",
        "docs",
      ],
    );
  } finally {
    await app.close();
  }
});

Deno.test("GET /?project= and ?q= filter the sidebar and keep each other", async () => {
  const app = await createTestApp();
  try {
    const seeded = await seedConsole(app.ctx.db, app.ctx.clock(), app.workspace);
    const docs = await (await app.request("GET", `/?project=${seeded.projects.docs}`)).text();
    assertEquals(textsOf(docs, "session-title"), [
      "Draft the migration guide",
      "Changelog wording",
    ]);
    assertMatch(
      docs,
      new RegExp(`href="/\\?project=${seeded.projects.docs}"[^>]*aria-current="true"`),
    );
    assertMatch(docs, /<span class="topbar-project">/);
    assertMatch(
      docs,
      new RegExp(`<input type="hidden" name="project" value="${seeded.projects.docs}"/>`),
    );

    const q = await (await app.request("GET", "/?q=CONFIG")).text();
    assertEquals(textsOf(q, "session-title"), ["Rename config keys"]);
    const none = await (await app.request("GET", "/?q=nothing-like-this")).text();
    assertMatch(none, /No chats match “nothing-like-this”\./);
    const unknownProject = await (await app.request("GET", "/?project=ffffffffffff")).text();
    strictEqual(textsOf(unknownProject, "session-title").length, 11, "unknown project: no filter");
  } finally {
    await app.close();
  }
});

Deno.test("GET /?session= opens the conversation; an unknown id is a 404 with a notice", async () => {
  const app = await createTestApp();
  try {
    const seeded = await seedConsole(app.ctx.db, app.ctx.clock(), app.workspace);
    const res = await app.request("GET", `/?session=${seeded.withTranscript}`);
    strictEqual(res.status, 200);
    const html = await res.text();
    assertMatch(html, /<h1 class="topbar-title" title="Fix flaky upload test"/);
    assertMatch(html, /<title>Fix flaky upload test · Hermes Console<\/title>/);
    assertMatch(html, new RegExp(`aria-current="page" data-session-id="${seeded.withTranscript}"`));
    assertMatch(
      html,
      /class="msg-user-bubble"[^>]*><div class="msg-user-text">The upload test fails about one/,
    );
    assertMatch(html, /<summary[^>]*>.*Activity: 3 tools.*<\/summary>/);
    assertMatch(html, /class="msg msg-assistant prose"[^>]*><p>The collision comes from/);
    assert(!html.includes("empty-title"), "no empty state in an open conversation");
    const payload = html.match(/id="__hermes_islands">(.*?)<\/script>/s);
    if (payload) {
      strictEqual(JSON.parse(payload[1]).islands[0].props.sessionId, seeded.withTranscript);
    }

    const missing = await app.request("GET", "/?session=000000000000");
    strictEqual(missing.status, 404);
    assertMatch(await missing.text(), /That chat no longer exists/);
  } finally {
    await app.close();
  }
});

Deno.test("GET / escapes session titles and project names", async () => {
  const app = await createTestApp();
  try {
    const { createSession } = await import("../lib/sessions/sessions.ts");
    const { appendMessages } = await import("../lib/sessions/messages.ts");
    const { createProject } = await import("../lib/sessions/projects.ts");
    const s = await createSession(app.ctx.db, app.ctx.clock, {
      workspace: app.workspace,
      title: '<img src=x onerror="alert(1)">',
    });
    await appendMessages(app.ctx.db, app.ctx.clock, s.session_id, [{
      role: "user",
      content: "<b>hi</b>",
    }]);
    await createProject(app.ctx.db, app.ctx.clock, {
      name: "</a><script>x</script>",
      color: "#abc",
    });
    const html = await (await app.request("GET", `/?session=${s.session_id}`)).text();
    assert(!html.includes("<img src=x"));
    assert(!html.includes("<script>x"));
    assert(!html.includes("<b>hi</b>"));
    assertMatch(html, /&lt;img src=x onerror=/);
  } finally {
    await app.close();
  }
});

Deno.test("static/style.css defines DESIGN.md's tokens and both themes", async () => {
  const css = await Deno.readTextFile(new URL("../static/style.css", import.meta.url));
  // DESIGN.md front matter, verbatim.
  const tokens: Record<string, string> = {
    "--color-primary": "#eae0d5",
    "--color-secondary": "#c6ac8f",
    "--color-tertiary": "#c6ac8f",
    "--color-neutral": "#0a0908",
    "--color-surface": "#22333b",
    "--color-surface-subtle": "#11100e",
    "--color-border-subtle": "#3b4a50",
    "--color-ink": "#0a0908",
    "--color-success": "#86c08b",
    "--color-warning": "#e0b15d",
    "--color-error": "#f87171",
    "--radius-sm": "4px",
    "--radius-md": "8px",
    "--radius-lg": "12px",
    "--radius-pill": "999px",
    "--space-xs": "4px",
    "--space-sm": "8px",
    "--space-md": "12px",
    "--space-lg": "16px",
    "--text-body-md": "400 15px/1.68 var(--font-serif)",
    "--text-user": "400 14px/1.55 var(--font-sans)",
    "--text-body-sm": "400 12px/1.45 var(--font-sans)",
    "--text-mono-xs": "500 11px/1.55 var(--font-mono)",
  };
  for (const [name, value] of Object.entries(tokens)) {
    assert(css.includes(`${name}: ${value};`), `${name} should be ${value}`);
  }
  assertMatch(css, /--font-serif: Georgia, "Times New Roman", serif;/);
  assertMatch(css, /\[data-theme="light"\] \{[^}]*--bg: var\(--color-parchment\);/s);
  assert(!/gradient\(/.test(css), "no gradients");
  const shadows = css.match(/box-shadow:[^;]+;/g) ?? [];
  assertEquals(shadows, [], "no shadows on routine surfaces");
  // Outside the token block, colours come from tokens (the light theme's derived tones and
  // translucent state layers are the documented exceptions).
  const body = css.slice(css.indexOf("/* 3. Base"));
  const literals = body.match(/#[0-9a-fA-F]{3,8}\b/g) ?? [];
  assertEquals(literals, [], "no literal hex colours after the token section");
});

Deno.test("highlightSegments() marks whole words starting with a query word, keeping all text", () => {
  const text = "Flaky uploads: the upload-test flakes; reupload is fine";
  const segs = highlightSegments(text, "upload FLAK");
  strictEqual(segs.map((s) => s.text).join(""), text, "segments rebuild the input");
  assertEquals(segs.filter((s) => s.match).map((s) => s.text), [
    "Flaky",
    "uploads",
    "upload",
    "flakes",
  ], "prefix of a word, case-insensitive; not inside a word (reupload)");
  assertEquals(highlightSegments("a <b>tag</b>", "b"), [
    { text: "a <", match: false },
    { text: "b", match: true },
    { text: ">tag</", match: false },
    { text: "b", match: true },
    { text: ">", match: false },
  ], "markup is just text here; the renderer escapes it");
  assertEquals(highlightSegments("anything", "***"), [{ text: "anything", match: false }]);
  assertEquals(highlightSegments("", "x"), []);
  assertEquals(highlightSegments("a.b (c)", ".*(c)"), [
    { text: "a.b (", match: false },
    { text: "c", match: true },
    { text: ")", match: false },
  ], "regex characters in the query are not syntax");
  assertEquals(queryWords("Ünïcode café, CAFÉ"), ["ünïcode", "café"]);
});

Deno.test("GET /partials/sidebar renders the sidebar body alone, as the page does", async () => {
  const app = await createTestApp();
  try {
    const seeded = await seedConsole(app.ctx.db, app.ctx.clock(), app.workspace);
    const res = await app.request("GET", `/partials/sidebar?session=${seeded.withTranscript}`);
    strictEqual(res.status, 200);
    strictEqual(res.headers.get("content-type"), "text/html; charset=utf-8");
    strictEqual(res.headers.get("cache-control"), "no-store");
    const frag = await res.text();
    assert(
      frag.startsWith('<div class="sidebar-body" data-sidebar-body="true"'),
      frag.slice(0, 80),
    );
    assert(!frag.includes("<html") && !frag.includes("<script"), "a fragment, no document");
    assertMatch(frag, new RegExp(`aria-current="page" data-session-id="${seeded.withTranscript}"`));
    const page = await (await app.request("GET", `/?session=${seeded.withTranscript}`)).text();
    assert(page.includes(frag), "the page contains exactly the same markup");
  } finally {
    await app.close();
  }
});

Deno.test("the sidebar searches message text and shows an escaped, highlighted snippet", async () => {
  const app = await createTestApp();
  try {
    await seedConsole(app.ctx.db, app.ctx.clock(), app.workspace);
    const s = await createSession(app.ctx.db, app.ctx.clock, {
      workspace: app.workspace,
      title: "Sync",
    });
    await appendMessages(app.ctx.db, app.ctx.clock, s.session_id, [
      { role: "user", content: "the <i>zeppelin</i> landed" },
    ]);
    const frag = await (await app.request("GET", "/partials/sidebar?q=zeppelin")).text();
    assertEquals(textsOf(frag, "session-title"), ["Sync"]);
    assertMatch(frag, /data-group="results"><h2 class="session-group-label">1 result<\/h2>/);
    assertMatch(
      frag,
      /<span class="session-snippet" data-match="content">the &lt;i><mark>zeppelin<\/mark>&lt;\/i> landed<\/span>/,
    );
    // Titles match too, and are highlighted.
    const t = await (await app.request("GET", "/partials/sidebar?q=migration")).text();
    assertMatch(t, /<span class="session-title">Draft the <mark>migration<\/mark> guide<\/span>/);
  } finally {
    await app.close();
  }
});

Deno.test("?archived=1 shows only archived chats; the list links to it with the count", async () => {
  const app = await createTestApp();
  try {
    const seeded = await seedConsole(app.ctx.db, app.ctx.clock(), app.workspace);
    await archiveSession(app.ctx.db, seeded.byTitle["Changelog wording"], true);
    const main = await (await app.request("GET", "/")).text();
    assert(!textsOf(main, "session-title").includes("Changelog wording"));
    assertMatch(
      main,
      /<a class="archive-toggle" href="\/\?archived=1"[^>]*>.*?<span class="archive-count">1<\/span>/s,
    );
    const archived = await (await app.request("GET", "/partials/sidebar?archived=1")).text();
    assertEquals(textsOf(archived, "session-title"), ["Changelog wording"]);
    assertMatch(archived, /data-archived-view="true"/);
    assertMatch(archived, /class="archive-back" href="\/"/);
    // Session links keep the archive view.
    assertMatch(
      archived,
      new RegExp(`href="/\\?session=${seeded.byTitle["Changelog wording"]}&amp;archived=1"`),
    );
    // A search in the main view also finds archived chats, tagged as such.
    const q = await (await app.request("GET", "/partials/sidebar?q=changelog")).text();
    assertMatch(q, /<span class="session-tag">Archived<\/span>/);
  } finally {
    await app.close();
  }
});

Deno.test("GET / paints the workspace panel open from its cookie, root folder listed", async () => {
  const app = await createTestApp();
  try {
    const seeded = await seedConsole(app.ctx.db, app.ctx.clock(), app.workspace);
    await Deno.mkdir(`${app.workspace}/src`);
    await Deno.writeTextFile(`${app.workspace}/README.md`, "# hi\n");
    const url = `/?session=${seeded.withTranscript}`;
    const open = await (await app.request("GET", url, undefined, {
      cookie: "other=1; hermes_panel=open",
    })).text();
    assertMatch(open, /<div class="app" data-workspace-panel="open"/);
    assertMatch(
      open,
      /data-action="toggle-workspace" aria-controls="workspace-panel" aria-expanded="true"/,
    );
    assertMatch(
      open,
      /data-file-tree="true" data-loaded="true"><li role="treeitem" class="tree-item" data-path="src" data-type="dir"/,
    );
    assertMatch(open, /data-path="README.md" data-type="file" data-size="5"/);

    const closed = await (await app.request("GET", url, undefined, {
      cookie: "hermes_panel=closed",
    })).text();
    assertMatch(closed, /<div class="app" data-workspace-panel="closed"/);
    assertMatch(closed, /data-file-tree="true" data-loaded="false"><\/ul>/, "listed lazily");

    // No session open (a new chat): the panel shows the workspace the chat will use, listed by
    // the browser (GET /api/list?workspace=), with a note saying so — never an empty panel.
    const empty = await (await app.request("GET", "/", undefined, { cookie: "hermes_panel=open" }))
      .text();
    assertMatch(empty, /data-workspace-panel="open"/);
    assertMatch(empty, /data-workspace="[^"]+"/);
    assertMatch(empty, /data-file-tree="true" data-loaded="false"/);
    assertMatch(empty, /The workspace this new chat will use/);
  } finally {
    await app.close();
  }
});

Deno.test("pages are painted in the saved theme; system leaves it to the OS", async () => {
  const app = await createTestApp();
  try {
    for (const theme of ["light", "dark", "system"]) {
      strictEqual((await app.call("POST", "/api/settings", { theme })).status, 200);
      const html = await (await app.request("GET", "/")).text();
      assertMatch(html, new RegExp(`<html lang="en" dir="ltr" data-theme="${theme}">`));
      const scheme = theme === "system" ? "dark light" : theme;
      assertMatch(html, new RegExp(`<meta name="color-scheme" content="${scheme}"/>`));
    }
    const css = await Deno.readTextFile(new URL("../static/style.css", import.meta.url));
    assertMatch(
      css,
      /@media \(prefers-color-scheme: light\) \{\s*\[data-theme="system"\] \{[^}]*--bg: var\(--color-parchment\);/,
    );
    const html = await (await app.request("GET", "/")).text();
    assertMatch(html, /interactive-widget=resizes-content/, "phones resize for the keyboard");
  } finally {
    await app.close();
  }
});

const SCRIPT_BUNDLE: PageScriptBundle = {
  version: 1,
  base: "/static/_islands/",
  entry: { file: "boot-AAAAAAAA.js", imports: ["chunk-SHARED00.js"] },
  islands: {},
  scripts: {
    sidebar: { file: "page-sidebar-BBBBBBBB.js", imports: ["chunk-SHARED00.js"] },
    layout: { file: "page-layout-CCCCCCCC.js", imports: [] },
  },
  // The catalog keys browser code names: all a page's catalog ships.
  i18nKeys: ["common.cancel", "login.withProvider"],
};

function DocApp({ Component }: AppModuleProps) {
  return h("html", null, h("head", null), h("body", null, h(Component, {})));
}
const pageProps = (): PageProps<unknown> => ({
  data: null,
  url: new URL("http://x/"),
  params: {},
  state: {},
});

Deno.test("createPageRenderer() loads every page script and the catalog only on pages that ask for them", async () => {
  const render = createPageRenderer({ islands: {}, bundle: () => SCRIPT_BUNDLE as never });
  const Shell = () => {
    usePageScripts();
    return h("div", null, "shell");
  };
  const withScripts = await (await render({ page: Shell, app: DocApp, props: pageProps() }))
    .text();
  strictEqual(
    withScripts,
    '<!DOCTYPE html><html><head><link rel="modulepreload" href="/static/_islands/chunk-SHARED00.js">' +
      "</head><body><div>shell</div>" +
      '<script type="application/json" id="hermes-i18n">{"locale":"en","dir":"ltr","messages":' +
      '{"common.cancel":"Cancel","login.withProvider":[{"type":0,"value":"Sign in with "},' +
      '{"type":1,"value":"provider"}]}}</script>' +
      '<script type="module" src="/static/_islands/page-layout-CCCCCCCC.js"></script>' +
      '<script type="module" src="/static/_islands/page-sidebar-BBBBBBBB.js"></script>' +
      "</body></html>",
  );
  const plain = await (await render({
    page: () => h("p", null, "login"),
    app: DocApp,
    props: pageProps(),
  })).text();
  strictEqual(plain, "<!DOCTYPE html><html><head></head><body><p>login</p></body></html>");
  // usePageScripts() outside a page render does nothing (components stay pure).
  usePageScripts();
  strictEqual(
    await (await render({ page: () => h("p", null, "x"), app: DocApp, props: pageProps() }))
      .text(),
    "<!DOCTYPE html><html><head></head><body><p>x</p></body></html>",
  );
});

const built = (() => {
  try {
    return JSON.parse(
      Deno.readTextFileSync(new URL("../static/_islands/manifest.json", import.meta.url)),
    ) as PageScriptBundle;
  } catch {
    return null;
  }
})();

Deno.test(needs(built?.scripts ? null : "nothing is built: run `deno task build`", {
  name:
    "the build bundles lib/browser/pages/* as page scripts: on / (counted in its budget), not /login",
  async fn() {
    const names = [...Deno.readDirSync(new URL("../lib/browser/pages/", import.meta.url))]
      .filter((e) => e.isFile && e.name.endsWith(".ts")).map((e) => e.name.slice(0, -3)).sort();
    assertEquals(Object.keys(built!.scripts!).sort(), names);
    const home = built!.pages!["/"];
    assertEquals(home.scripts, names);
    for (const n of names) assert(home.files.includes(built!.scripts![n].file), n);
    assert(home.gzip <= 60 * 1024, `/ loads ${home.gzip} bytes gz`);
    assertEquals(built!.pages!["/login"].files, [], "the login page ships no JavaScript");
    const app = await createTestApp();
    try {
      const html = await (await app.request("GET", "/")).text();
      for (const n of names) {
        assert(
          html.includes(`<script type="module" src="/static/_islands/${built!.scripts![n].file}">`),
          `page script ${n}`,
        );
      }
    } finally {
      await app.close();
    }
  },
}));
