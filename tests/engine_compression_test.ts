// Context compression: near the context window the older turns are summarized by the model and
// the summary is sent in their place (the stored transcript keeps everything); the summary
// is reused on later turns; POST /api/session/compress does it on demand.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { startHarness } from "./fixtures/engine_harness.ts";
import { tokenText } from "./fixtures/sse_client.ts";
import { NO_TOOL_HOOKS } from "../lib/engine/engine_options.ts";
import { SUMMARY_SYSTEM_PROMPT } from "../lib/engine/compression.ts";

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
