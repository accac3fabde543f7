// Context compression: near the context window the older turns are summarized by the model and
// the summary is sent in their place (the stored transcript keeps everything); the summary
// is reused on later turns; POST /api/session/compress does it on demand.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { startHarness } from "./fixtures/engine_harness.ts";
import { tokenText } from "./fixtures/sse_client.ts";
import { NO_TOOL_HOOKS } from "../lib/engine/engine_options.ts";
import {
  chunksForSummary,
  SUMMARY_SYSTEM_PROMPT,
  summaryRequest,
} from "../lib/engine/compression.ts";
import { estimateTokens } from "../lib/engine/compression.ts";
import { appendMessages } from "../lib/sessions/messages.ts";

const YAML = "context_windows: {fake-model: 1000}\ncompression: {threshold: 0.5}\n";
const A = "alpha ".repeat(66);
const B = "bravo ".repeat(66);

function sentText(body: { messages: Array<{ role: string; content: unknown }> }): string {
  return JSON.stringify(body.messages.filter((m) => m.role !== "system"));
}

Deno.test("a long conversation is compressed: older turns are summarized, the transcript keeps all", async () => {
  const h = await startHarness({ yaml: YAML });
  try {
    h.app.ctx.runs.configure({ hooks: NO_TOOL_HOOKS });
    h.fake.enqueue({ text: A }, { text: B }, { text: "SUMMARY: the user talked about alpha." }, {
      text: "charlie",
    });
    await h.stream((await h.start(`first ${A}`)).stream_id);
    await h.stream((await h.start(`second ${B}`)).stream_id);
    const third = await h.stream((await h.start("third question")).stream_id);
    const names = third.events.map((e) => e.event);
    ok(
      names.indexOf("compressing") >= 0 &&
        names.indexOf("compressing") < names.indexOf("compressed"),
    );
    ok(names.indexOf("compressed") < names.indexOf("token"));
    const compressed = third.events.find((e) => e.event === "compressed")!.data;
    strictEqual(compressed.session_id, h.sessionId);
    ok(compressed.usage.output_tokens > 0);
    strictEqual(tokenText(third.events), "charlie", "the summary is not streamed as tokens");

    strictEqual(h.fake.chatRequests.length, 4);
    const summaryReq = h.fake.chatRequests[2].body;
    strictEqual(summaryReq.messages[0].content, SUMMARY_SYSTEM_PROMPT);
    ok(!summaryReq.tools, "no tools in a summary request");
    ok(sentText(summaryReq).includes("first alpha"));
    ok(!sentText(summaryReq).includes("second bravo"), "recent turns are kept, not summarized");
    const main = h.fake.chatRequests[3].body;
    match(main.messages[0].content, /SUMMARY: the user talked about alpha\./);
    ok(!sentText(main).includes("first alpha"), "summarized turns are not sent");
    ok(sentText(main).includes("second bravo"));
    ok(sentText(main).includes("third question"));

    const session = (await h.call("GET", `/api/session?session_id=${h.sessionId}`)).body.session;
    strictEqual(session.messages.length, 6);
    ok(String(session.messages[0].content).startsWith("first alpha"));

    // The next turn reuses the summary (no new summary request unless the limit is hit again).
    h.fake.enqueue({ text: "delta" });
    await h.stream((await h.start("fourth")).stream_id);
    const next = h.fake.chatRequests.at(-1)!.body;
    match(next.messages[0].content, /SUMMARY: the user talked about alpha\./);
    ok(!sentText(next).includes("first alpha"));
  } finally {
    await h.close();
  }
});

Deno.test("session/compress summarizes on demand as a run of its own", async () => {
  const h = await startHarness();
  try {
    h.app.ctx.runs.configure({ hooks: NO_TOOL_HOOKS });
    h.fake.enqueue({ text: "one" }, { text: "two" }, { text: "SUMMARY one" });
    await h.stream((await h.start("q1")).stream_id);
    await h.stream((await h.start("q2")).stream_id);
    const res = await h.call("POST", "/api/session/compress", { session_id: h.sessionId });
    strictEqual(res.status, 200);
    strictEqual(res.body.ok, true);
    const events = (await h.stream(res.body.stream_id)).events;
    deepStrictEqual(events.map((e) => e.event), [
      "compressing",
      "compressed",
      "metering",
      "done",
      "stream_end",
    ]);
    h.fake.enqueue({ text: "three" });
    await h.stream((await h.start("q3")).stream_id);
    const sent = h.fake.chatRequests.at(-1)!.body;
    match(sent.messages[0].content, /SUMMARY one/);
    deepStrictEqual(
      sent.messages.slice(1).map((m: { role: string; content: string }) => m.content),
      ["q2", "two", "q3"],
    );
    // Compressing again folds q2 into the summary (the previous summary goes along)…
    h.fake.enqueue({ text: "SUMMARY one and two" });
    const again = await h.call("POST", "/api/session/compress", { session_id: h.sessionId });
    ok((await h.stream(again.body.stream_id)).events.some((e) => e.event === "compressed"));
    ok(JSON.stringify(h.fake.chatRequests.at(-1)!.body).includes("SUMMARY one"));
    // …and then there is nothing left to compress: a warning, not an error.
    const third = await h.call("POST", "/api/session/compress", { session_id: h.sessionId });
    const ev3 = (await h.stream(third.body.stream_id)).events;
    deepStrictEqual(ev3.map((e) => e.event), ["warning", "done", "stream_end"]);
    strictEqual(ev3[0].data.type, "nothing_to_compress");
    strictEqual(
      (await h.call("POST", "/api/session/compress", { session_id: "0123456789ab" })).status,
      404,
    );
  } finally {
    await h.close();
  }
});

Deno.test("chunksForSummary() keeps order, fits each chunk in the budget, never leaves one empty", () => {
  const msg = (idx: number, chars: number) => ({
    idx,
    role: "user" as const,
    content: "x".repeat(chars),
    timestamp: idx,
  });
  const msgs = [msg(0, 400), msg(1, 400), msg(2, 400), msg(3, 9000), msg(4, 40)];
  const chunks = chunksForSummary(msgs, 400);
  deepStrictEqual(chunks.flat().map((m) => m.idx), [0, 1, 2, 3, 4], "every message, in order");
  ok(chunks.length >= 3, `split into ${chunks.length} chunks`);
  for (const c of chunks) {
    ok(c.length > 0);
    if (c.length > 1) ok(estimateTokens(summaryRequest(null, c)) <= 400, "a chunk fits");
  }
  deepStrictEqual(chunksForSummary(msgs, 1_000_000).length, 1, "a big window needs one request");
});

Deno.test("a history larger than the window is summarized in chunks, each carrying the summary so far", async () => {
  const h = await startHarness({
    yaml: "context_windows: {fake-model: 600}\ncompression: {threshold: 0.5}\n",
  });
  try {
    h.app.ctx.runs.configure({ hooks: NO_TOOL_HOOKS });
    // Four long turns already in the transcript: far more than half of a 600-token window.
    const words = (w: string) => `${w} `.repeat(150);
    await appendMessages(
      h.app.ctx.db,
      h.app.ctx.clock,
      h.sessionId,
      ["alpha", "bravo", "charlie", "delta"].flatMap((w) => [
        { role: "user" as const, content: `ask ${words(w)}` },
        { role: "assistant" as const, content: `answer ${words(w)}` },
      ]),
    );
    h.fake.enqueue(...Array.from({ length: 12 }, (_, i) => ({ text: `SUM-${i + 1}` })));
    const turn = await h.stream((await h.start("and now?")).stream_id);
    ok(turn.events.some((e) => e.event === "compressed"), turn.events.map((e) => e.event).join());
    const summaries = h.fake.chatRequests
      .filter((r) => r.body.messages[0].content === SUMMARY_SYSTEM_PROMPT);
    ok(summaries.length >= 2, `${summaries.length} summary requests`);
    for (const [i, r] of summaries.entries()) {
      ok(estimateTokens(JSON.stringify(r.body.messages)) < 600, "each request fits the window");
      if (i > 0) ok(sentText(r.body).includes(`SUM-${i}`), "carries the summary so far");
    }
  } finally {
    await h.close();
  }
});
