// `/compress <focus>`: POST /api/session/compress {focus_topic} carries the user's topic into
// the summary request (quoted as data), and answers the original's synchronous shape.
import { ok, strictEqual } from "node:assert/strict";
import { startHarness } from "./fixtures/engine_harness.ts";
import { NO_TOOL_HOOKS } from "../lib/engine/engine_options.ts";
import { SUMMARY_SYSTEM_PROMPT } from "../lib/engine/compression.ts";

Deno.test("session/compress passes focus_topic into the summary prompt", async () => {
  const h = await startHarness();
  try {
    h.app.ctx.runs.configure({ hooks: NO_TOOL_HOOKS });
    h.fake.enqueue({ text: "one" }, { text: "two" }, { text: "SUMMARY about the parser" });
    await h.stream((await h.start("q1 about the parser")).stream_id);
    await h.stream((await h.start("q2")).stream_id);
    const res = await h.call("POST", "/api/session/compress", {
      session_id: h.sessionId,
      focus_topic: "the CSV parser",
    });
    strictEqual(res.status, 200);
    strictEqual(res.body.ok, true);
    strictEqual(res.body.summary, "SUMMARY about the parser");
    const req = h.fake.chatRequests.at(-1)!.body;
    strictEqual(req.messages[0].content, SUMMARY_SYSTEM_PROMPT, "the system prompt is unchanged");
    const user = String(req.messages.at(-1).content);
    ok(user.includes('Focus: keep everything about "the CSV parser"'), user);
    ok(user.indexOf("Focus:") > user.indexOf("q1 about the parser"), "focus follows the history");
  } finally {
    await h.close();
  }
});

Deno.test("session/compress without a focus sends no focus line", async () => {
  const h = await startHarness();
  try {
    h.app.ctx.runs.configure({ hooks: NO_TOOL_HOOKS });
    h.fake.enqueue({ text: "one" }, { text: "two" }, { text: "SUMMARY" });
    await h.stream((await h.start("q1")).stream_id);
    await h.stream((await h.start("q2")).stream_id);
    const res = await h.call("POST", "/api/session/compress", {
      session_id: h.sessionId,
      sync: true,
    });
    strictEqual(res.body.summary, "SUMMARY");
    ok(!JSON.stringify(h.fake.chatRequests.at(-1)!.body).includes("Focus:"));
  } finally {
    await h.close();
  }
});

Deno.test("session/compress {focus_topic, sync: false} streams like the Composer's /compress", async () => {
  const h = await startHarness();
  try {
    h.app.ctx.runs.configure({ hooks: NO_TOOL_HOOKS });
    h.fake.enqueue({ text: "one" }, { text: "two" }, { text: "SUMMARY" });
    await h.stream((await h.start("q1")).stream_id);
    await h.stream((await h.start("q2")).stream_id);
    const res = await h.call("POST", "/api/session/compress", {
      session_id: h.sessionId,
      focus_topic: "deploys",
      sync: false,
    });
    strictEqual(res.status, 200);
    ok(res.body.stream_id, "answers at once with the run's stream");
    const events = (await h.stream(res.body.stream_id)).events.map((e) => e.event);
    ok(events.includes("compressed"), events.join(","));
    ok(JSON.stringify(h.fake.chatRequests.at(-1)!.body).includes('\\"deploys\\"'));
  } finally {
    await h.close();
  }
});
