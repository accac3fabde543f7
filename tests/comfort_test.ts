// The comfort settings on the server: pages are painted in the saved skin and text size from
// the first frame (unknown skins read as the default), the desktop sidebar's hidden cookie is
// painted too, skins.css defines every skin for both themes, and GET /api/attention says which
// chats wait on the person, which runs work and how watched runs ended — titles only.
import { deepStrictEqual, doesNotMatch, match, ok, strictEqual } from "node:assert/strict";
import { createTestApp } from "./helpers.ts";
import { startHarness, waitFor } from "./fixtures/engine_harness.ts";
import { skinOf, SKINS } from "../lib/shared/appearance.ts";

const htmlTag = (html: string) => /<html[^>]*>/.exec(html)?.[0] ?? "";

Deno.test("GET / paints the saved skin and text size on <html>; unknown skins are the default", async () => {
  const app = await createTestApp();
  try {
    const first = htmlTag(await (await app.request("GET", "/")).text());
    doesNotMatch(first, /data-skin|data-font-size|data-sidebar-hidden/, "defaults add nothing");

    strictEqual(
      (await app.call("POST", "/api/settings", { skin: "sepia", font_size: "large" })).status,
      200,
    );
    const page = await (await app.request("GET", "/")).text();
    match(htmlTag(page), /data-skin="sepia"/);
    match(htmlTag(page), /data-font-size="large"/);
    match(page, /<link rel="stylesheet" href="\/static\/skins.css"\/>/);

    // Any casing of a known skin paints it; a skin this console does not have (the original's
    // "graphite") is stored for its clients but painted as the default.
    await app.call("POST", "/api/settings", { skin: "Slate", font_size: "small" });
    const slate = htmlTag(await (await app.request("GET", "/")).text());
    match(slate, /data-skin="slate"/);
    match(slate, /data-font-size="small"/);
    await app.call("POST", "/api/settings", { skin: "ares" });
    match(htmlTag(await (await app.request("GET", "/")).text()), /data-skin="ares"/);
    await app.call("POST", "/api/settings", { skin: "graphite" });
    strictEqual(
      (await app.call<{ skin: string }>("GET", "/api/settings")).body.skin,
      "graphite",
    );
    const unknown = htmlTag(await (await app.request("GET", "/")).text());
    doesNotMatch(unknown, /data-skin=/, "an unknown skin paints the default");
    const bogusSize = await app.call<{ ignored?: unknown }>("POST", "/api/settings", {
      font_size: "huge",
    });
    strictEqual(bogusSize.status, 200);
    match(htmlTag(await (await app.request("GET", "/")).text()), /data-font-size="small"/);

    // The desktop sidebar hidden with Ctrl/Cmd+B: the browser's cookie, painted on the page.
    const hidden = await app.request("GET", "/", undefined, {
      cookie: "hermes_tz=60; hermes_sidebar=hidden",
    });
    match(htmlTag(await hidden.text()), /data-sidebar-hidden[ >]/);
    const shown = await app.request("GET", "/", undefined, { cookie: "hermes_sidebar=shown" });
    doesNotMatch(htmlTag(await shown.text()), /data-sidebar-hidden/);
  } finally {
    await app.close();
  }
});

Deno.test("skinOf() knows the skins; skins.css defines each for the dark and the light theme", async () => {
  strictEqual(skinOf("SEPIA "), "sepia");
  strictEqual(skinOf(" Poseidon"), "poseidon");
  strictEqual(skinOf("graphite"), "default", "an original skin we lack paints the default");
  strictEqual(skinOf(7), "default");
  const css = await Deno.readTextFile(new URL("../static/skins.css", import.meta.url));
  for (const skin of SKINS.filter((s) => s !== "default")) {
    match(css, new RegExp(`:root\\[data-skin="${skin}"\\] \\{[^}]*--color-neutral:`), skin);
    match(css, new RegExp(`:root\\[data-skin="${skin}"\\]\\[data-theme="light"\\] \\{`), skin);
    match(
      css,
      new RegExp(
        `@media \\(prefers-color-scheme: light\\) \\{[\\s\\S]*:root\\[data-skin="${skin}"\\]\\[data-theme="system"\\]`,
      ),
      `${skin} follows a light OS under "system"`,
    );
  }
  for (const size of ["small", "large"]) {
    match(css, new RegExp(`:root\\[data-font-size="${size}"\\] \\{[^}]*--size-body:`), size);
  }
});

Deno.test("GET /api/attention: who waits (approval, question), what runs, how watched runs ended", async () => {
  const h = await startHarness();
  try {
    const quiet = await h.call("GET", "/api/attention");
    deepStrictEqual(quiet.body, {
      waiting: [],
      running: [],
      ended: [],
      notify: false,
      sound: false,
    });

    await h.call("POST", "/api/session/rename", { session_id: h.sessionId, title: "Clean up" });
    h.fake.enqueue(
      { toolCalls: [{ name: "terminal", args: { command: "rm -rf build" } }] },
      { text: "Left it alone." },
    );
    const run = await h.start("remove the build folder");
    const waiting = await waitFor(async () => {
      const a = (await h.call("GET", "/api/attention")).body;
      return a.waiting.length ? a : null;
    });
    deepStrictEqual(waiting.waiting, [
      { session_id: h.sessionId, title: "Clean up", kind: "approval" },
    ]);
    deepStrictEqual(waiting.running, [
      { session_id: h.sessionId, title: "Clean up", stream_id: run.stream_id },
    ]);
    ok(!JSON.stringify(waiting).includes("rm -rf"), "no command or message content leaves");

    await h.call("POST", "/api/approval/respond", { session_id: h.sessionId, choice: "deny" });
    await h.stream(run.stream_id);
    const after = await h.call("GET", `/api/attention?streams=${run.stream_id},unknown-stream`);
    deepStrictEqual(after.body.waiting, []);
    deepStrictEqual(after.body.running, []);
    deepStrictEqual(after.body.ended, [
      { session_id: h.sessionId, title: "Clean up", stream_id: run.stream_id, status: "done" },
    ]);

    // A clarifying question waits on the person too; the preference rides along.
    await h.call("POST", "/api/settings", { notifications_enabled: true, sound_enabled: true });
    const other = await h.newSession();
    h.fake.enqueue(
      { toolCalls: [{ name: "clarify", args: { question: "Which branch?" } }] },
      { text: "ok" },
    );
    const asked = await h.call("POST", "/api/chat/start", { session_id: other, message: "ship" });
    const question = await waitFor(async () => {
      const a = (await h.call("GET", "/api/attention")).body;
      return a.waiting.length ? a : null;
    });
    strictEqual(question.notify, true);
    strictEqual(question.sound, true);
    deepStrictEqual(
      question.waiting.map((w: { session_id: string; kind: string }) => [
        w.session_id,
        w.kind,
      ]),
      [[other, "clarify"]],
    );
    ok(!JSON.stringify(question).includes("Which branch"), "the question stays private");
    await h.call("POST", "/api/clarify/respond", { session_id: other, response: "main" });
    await h.stream(asked.body.stream_id);
    deepStrictEqual((await h.call("GET", "/api/attention")).body.waiting, []);
  } finally {
    await h.close();
  }
});
