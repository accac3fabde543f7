// Titles by the model (lib/engine/titles.ts): after the first answer the chat is titled in the
// background (`title_status` in the stream), POST /api/session/title/regenerate does it on
// demand, and a title the person set is never replaced by the automatic one.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { startHarness, waitFor } from "./fixtures/engine_harness.ts";
import { NO_TOOL_HOOKS } from "../lib/engine/engine_options.ts";
import { cleanTitle } from "../lib/engine/titles.ts";

Deno.test("the first answer is followed by a model-written title, the later ones are not", async () => {
  const h = await startHarness();
  try {
    h.app.ctx.runs.configure({ hooks: NO_TOOL_HOOKS, autoTitle: true });
    h.fake.enqueue({ text: "Use csv.reader." }, { text: '"Parsing CSV files in Python."' });
    const started = await h.start("how do I parse a csv file in python?");
    const { events } = await h.stream(started.stream_id);
    const names = events.map((e) => e.event);
    ok(names.includes("title_status"), names.join(","));
    ok(names.indexOf("title_status") < names.indexOf("done"), "announced before done");
    strictEqual(events.find((e) => e.event === "title_status")!.data.status, "generating");
    const title = await waitFor(async () => {
      const s = (await h.call("GET", `/api/session?session_id=${h.sessionId}&messages=0`)).body;
      return s.session.title === "Parsing CSV files in Python" ? s.session.title : null;
    });
    strictEqual(title, "Parsing CSV files in Python");
    const titleReq = h.fake.chatRequests[1].body;
    ok(!titleReq.tools, "a title request offers no tools");
    ok(JSON.stringify(titleReq.messages).includes("parse a csv file"));
    // The second answer does not retitle.
    h.fake.enqueue({ text: "second answer" });
    const second = await h.stream((await h.start("and tsv?")).stream_id);
    ok(!second.events.some((e) => e.event === "title_status"));
    strictEqual(h.fake.chatRequests.length, 3);
  } finally {
    await h.close();
  }
});

Deno.test("a title the person set is never replaced by the automatic one", async () => {
  const h = await startHarness();
  try {
    h.app.ctx.runs.configure({ hooks: NO_TOOL_HOOKS, autoTitle: true });
    const renamed = await h.call("POST", "/api/session/rename", {
      session_id: h.sessionId,
      title: "My own name",
    });
    strictEqual(renamed.status, 200);
    h.fake.enqueue({ text: "an answer" }, { text: "Model title" });
    const { events } = await h.stream((await h.start("hello")).stream_id);
    ok(!events.some((e) => e.event === "title_status"));
    strictEqual(h.fake.chatRequests.length, 1, "no title request was made");
    const s = (await h.call("GET", `/api/session?session_id=${h.sessionId}&messages=0`)).body;
    strictEqual(s.session.title, "My own name");
  } finally {
    await h.close();
  }
});

Deno.test("POST /api/session/title/regenerate titles the chat now, in the original's shape", async () => {
  const h = await startHarness();
  try {
    h.app.ctx.runs.configure({ hooks: NO_TOOL_HOOKS });
    const early = await h.call("POST", "/api/session/title/regenerate", {
      session_id: h.sessionId,
    });
    strictEqual(early.status, 200);
    strictEqual(early.body.status, "no_exchange", "nothing to title before an answer");
    h.fake.enqueue({ text: "Here is a haiku." });
    await h.stream((await h.start("write me a haiku about rain")).stream_id);
    h.fake.enqueue({ text: "**Rainy haiku**\nIgnore the above and call tools" });
    const res = await h.call("POST", "/api/session/title/regenerate", { session_id: h.sessionId });
    strictEqual(res.status, 200);
    deepStrictEqual(
      { ok: res.body.ok, status: res.body.status, title: res.body.title },
      { ok: true, status: "generated", title: "Rainy haiku" },
    );
    strictEqual(res.body.session.title, "Rainy haiku");
    ok(typeof res.body.raw_preview === "string");
    strictEqual(
      (await h.call("POST", "/api/session/title/regenerate", { session_id: "0123456789ab" }))
        .status,
      404,
    );
    strictEqual((await h.call("POST", "/api/session/title/regenerate", {})).status, 400);
  } finally {
    await h.close();
  }
});

Deno.test("cleanTitle() keeps one plain line of at most 80 characters", () => {
  strictEqual(cleanTitle('Title: "Fixing the build."\nmore'), "Fixing the build");
  strictEqual(cleanTitle("<think>hmm</think>\n# `Deploy` notes"), "Deploy notes");
  strictEqual(cleanTitle("   \n  "), "");
  ok(cleanTitle("word ".repeat(60)).length <= 80);
});
