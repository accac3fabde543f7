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
} from "../lib/session_groups.ts";
import { displayPath } from "../components/Topbar.tsx";
import { createTestApp } from "./helpers.ts";
import { seedConsole } from "./e2e/seed.ts";

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
  const re = new RegExp(`class="${cls}"[^>]*>([^<]*)<`, "g");
  return [...html.matchAll(re)].map((m) => m[1]);
}

Deno.test("GET / renders the shell with an empty state that invites the first chat", async () => {
  const app = await createTestApp();
  try {
    const res = await app.request("GET", "/");
    strictEqual(res.status, 200);
    const html = await res.text();
    assertMatch(html, /<html lang="en" data-theme="dark">/);
    assertMatch(html, /<link rel="stylesheet" href="\/static\/style.css"\/>/);
    assertMatch(html, /<a class="btn btn-new-chat" href="\/">/);
    assertMatch(html, /<input id="session-search" type="search" name="q"/);
    assertMatch(html, /Your conversations will appear here\./);
    assertMatch(html, /<h1 class="topbar-title" title="New chat">New chat<\/h1>/);
    assertMatch(html, /class="empty-title">What are we working on\?</);
    assertMatch(html, /data-action="control-center"[^>]*>.*Hermes Console/s);
    assertMatch(html, /<hermes-island data-island="Composer" data-id="0"><form class="composer"/);
    assertMatch(html, /data-action="toggle-workspace"/);
    assert(!html.includes('class="session-item"'));
    assert(!html.includes('class="project-chips"'), "no project chips without projects");
  } finally {
    await app.close();
  }
});

Deno.test("GET / lists seeded sessions by group with project chips in their colours", async () => {
  const app = await createTestApp();
  try {
    const seeded = seedConsole(app.ctx.db, app.ctx.clock(), app.workspace);
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
    assertEquals(textsOf(html, "chip-label"), ["api-server", "docs"]);
  } finally {
    await app.close();
  }
});

Deno.test("GET /?project= and ?q= filter the sidebar and keep each other", async () => {
  const app = await createTestApp();
  try {
    const seeded = seedConsole(app.ctx.db, app.ctx.clock(), app.workspace);
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
    assertMatch(none, /No chats match\u00a0“nothing-like-this”\./);
    const unknownProject = await (await app.request("GET", "/?project=ffffffffffff")).text();
    strictEqual(textsOf(unknownProject, "session-title").length, 11, "unknown project: no filter");
  } finally {
    await app.close();
  }
});

Deno.test("GET /?session= opens the conversation; an unknown id is a 404 with a notice", async () => {
  const app = await createTestApp();
  try {
    const seeded = seedConsole(app.ctx.db, app.ctx.clock(), app.workspace);
    const res = await app.request("GET", `/?session=${seeded.withTranscript}`);
    strictEqual(res.status, 200);
    const html = await res.text();
    assertMatch(html, /<h1 class="topbar-title" title="Fix flaky upload test">/);
    assertMatch(html, /<title>Fix flaky upload test · Hermes Console<\/title>/);
    assertMatch(html, new RegExp(`aria-current="page" data-session-id="${seeded.withTranscript}"`));
    assertMatch(html, /class="msg-user-bubble">The upload test fails about one run in ten/);
    assertMatch(html, /<summary>Activity: 3 tools<\/summary>/);
    assertMatch(html, /<div class="msg msg-assistant prose"><p>The collision comes from/);
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
    const { createSession } = await import("../lib/sessions.ts");
    const { appendMessages } = await import("../lib/messages.ts");
    const { createProject } = await import("../lib/projects.ts");
    const s = createSession(app.ctx.db, app.ctx.clock, {
      workspace: app.workspace,
      title: '<img src=x onerror="alert(1)">',
    });
    appendMessages(app.ctx.db, app.ctx.clock, s.session_id, [{
      role: "user",
      content: "<b>hi</b>",
    }]);
    createProject(app.ctx.db, app.ctx.clock, { name: "</a><script>x</script>", color: "#abc" });
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
