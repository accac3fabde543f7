// Steering a busy run (POST /api/chat/steer, lib/engine/steer.ts) through the real engine and
// the fake provider: the note reaches the NEXT model request as a user message, is saved in
// the transcript, and a note to an idle session is refused so the composer sends it normally.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { startHarness, waitFor } from "./fixtures/engine_harness.ts";

// deno-lint-ignore no-explicit-any
const userTexts = (body: any): string[] =>
  // deno-lint-ignore no-explicit-any
  (body.messages as any[]).filter((m) => m.role === "user").map((m) =>
    typeof m.content === "string"
      ? m.content
      // deno-lint-ignore no-explicit-any
      : (m.content as any[]).map((p) => p.text ?? "").join("")
  );

Deno.test("a steer note sent mid-run reaches the next model request and the transcript", async () => {
  const h = await startHarness();
  try {
    h.fake.enqueue(
      {
        text: "Listing the workspace first, slowly.",
        chunkSize: 2,
        delayMs: 40,
        toolCalls: [{ id: "call_1", name: "list_directory", args: { path: "." } }],
      },
      { text: "Understood, using tabs." },
    );
    const { stream_id } = await h.start("Refactor the parser");
    await h.fake.waitForChatRequests(1);
    const steer = await h.call("POST", "/api/chat/steer", {
      session_id: h.sessionId,
      text: "Use tabs, not spaces",
    });
    strictEqual(steer.status, 200);
    deepStrictEqual(steer.body, { accepted: true, stream_id });
    const res = await h.stream(stream_id);
    strictEqual(res.events.at(-1)?.event, "stream_end");
    const steerEvents = res.events.filter((e) => e.event === "steer");
    strictEqual(steerEvents.length, 1);
    strictEqual(steerEvents[0].data.text, "Use tabs, not spaces");

    strictEqual(h.fake.chatRequests.length, 2);
    deepStrictEqual(userTexts(h.fake.chatRequests[0].body), ["Refactor the parser"]);
    deepStrictEqual(userTexts(h.fake.chatRequests[1].body), [
      "Refactor the parser",
      "Use tabs, not spaces",
    ]);
    // deno-lint-ignore no-explicit-any
    const last = (h.fake.chatRequests[1].body.messages as any[]).at(-1);
    strictEqual(last.role, "user", "the note comes after the tool result, before the next call");

    const s = await h.call("GET", `/api/session?session_id=${h.sessionId}`);
    // deno-lint-ignore no-explicit-any
    const msgs = s.body.session.messages as any[];
    deepStrictEqual(msgs.map((m) => m.role), ["user", "assistant", "tool", "user", "assistant"]);
    strictEqual(msgs[3].content, "Use tabs, not spaces");
    strictEqual(msgs[3].steer, true);
  } finally {
    await h.close();
  }
});

Deno.test("a note sent during the final answer gets one more step instead of being lost", async () => {
  const h = await startHarness();
  try {
    h.fake.enqueue(
      { text: "Here is the whole answer, streamed slowly.", chunkSize: 2, delayMs: 40 },
      { text: "Noted: shorter." },
    );
    const { stream_id } = await h.start("Explain the parser");
    await h.fake.waitForChatRequests(1);
    const steer = await h.call("POST", "/api/chat/steer", {
      session_id: h.sessionId,
      text: "Keep it short",
    });
    strictEqual(steer.body.accepted, true);
    await h.stream(stream_id);
    strictEqual(h.fake.chatRequests.length, 2);
    deepStrictEqual(userTexts(h.fake.chatRequests[1].body), [
      "Explain the parser",
      "Keep it short",
    ]);
  } finally {
    await h.close();
  }
});

Deno.test("steer on an idle session is refused with a fallback, bad input is a 400", async () => {
  const h = await startHarness();
  try {
    const idle = await h.call("POST", "/api/chat/steer", { session_id: h.sessionId, text: "hi" });
    strictEqual(idle.status, 200);
    deepStrictEqual(idle.body, { accepted: false, fallback: "not_running" });
    const empty = await h.call("POST", "/api/chat/steer", { session_id: h.sessionId, text: "  " });
    strictEqual(empty.status, 400);
    ok(empty.body.error);
    const missing = await h.call("POST", "/api/chat/steer", { session_id: "nope", text: "x" });
    strictEqual(missing.status, 404);
    const noText = await h.call("POST", "/api/chat/steer", { session_id: h.sessionId });
    strictEqual(noText.status, 400);
    await waitFor(() => true);
  } finally {
    await h.close();
  }
});
