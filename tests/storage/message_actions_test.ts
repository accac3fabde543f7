// Message actions through the real engine and the fake provider: regenerate keeps the old
// answer as a variant (survives a reload; the model sees the chosen one), fork from an answer
// (/api/session/branch), edit & resend (/api/session/truncate + chat/start) and the per-turn
// usage figures the hover shows (/api/session/usage).
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { startHarness } from "../fixtures/engine_harness.ts";

type Wire = { role: string; content: string | Array<{ text?: string }> };
const texts = (body: { messages: Wire[] }): string[] =>
  body.messages.map((m) =>
    typeof m.content === "string" ? m.content : m.content.map((p) => p.text ?? "").join("")
  );

Deno.test("regenerate keeps variants server-side; flipping changes what the model sees", async () => {
  const h = await startHarness();
  try {
    h.fake.enqueue(
      {
        text: "Let me look.",
        toolCalls: [{ id: "c1", name: "list_directory", args: { path: "." } }],
      },
      { text: "First answer." },
    );
    await h.stream((await h.start("Summarize the repo")).stream_id);
    const one = await h.call("GET", `/api/session/variant?session_id=${h.sessionId}`);
    strictEqual(one.body.count, 1);

    h.fake.enqueue({ text: "Second answer." });
    const regen = await h.call("POST", "/api/session/regenerate", { session_id: h.sessionId });
    strictEqual(regen.status, 200);
    deepStrictEqual([regen.body.variants.count, regen.body.variants.current], [2, 2]);
    await h.stream(regen.body.stream_id);
    let msgs: Array<{ role: string; content: string }> =
      (await h.call("GET", `/api/session?session_id=${h.sessionId}`)).body.session.messages;
    deepStrictEqual(msgs.map((m) => m.content), ["Summarize the repo", "Second answer."]);

    // Flip back to the first answer; its tool card comes back with it. A restart proves it is
    // stored server-side.
    await h.restart();
    const flip = await h.call("POST", "/api/session/variant", {
      session_id: h.sessionId,
      variant: 1,
    });
    strictEqual(flip.status, 200);
    deepStrictEqual([flip.body.variants.count, flip.body.variants.current], [2, 1]);
    msgs = flip.body.session.messages;
    deepStrictEqual(msgs.map((m) => m.role), ["user", "assistant", "tool", "assistant"]);
    strictEqual(msgs.at(-1)?.content, "First answer.");
    // deno-lint-ignore no-explicit-any
    ok((flip.body.session.tool_calls as any[]).some((t) => t.tool_call_id === "c1"));
    const info = await h.call("GET", `/api/session/variant?session_id=${h.sessionId}`);
    deepStrictEqual([info.body.count, info.body.current], [2, 1]);

    h.fake.enqueue({ text: "Follow-up." });
    await h.stream((await h.start("And the tests?")).stream_id);
    const seen = texts(h.fake.chatRequests.at(-1)!.body);
    ok(seen.includes("First answer."), "the model sees the chosen variant");
    ok(!seen.includes("Second answer."));

    strictEqual(
      (await h.call("POST", "/api/session/variant", { session_id: h.sessionId, variant: 7 }))
        .status,
      404,
    );
  } finally {
    await h.close();
  }
});

Deno.test("fork from an answer and edit & resend a user message", async () => {
  const h = await startHarness();
  try {
    h.fake.enqueue({ text: "Answer one." }, { text: "Answer two." });
    await h.stream((await h.start("Question one")).stream_id);
    await h.stream((await h.start("Question two")).stream_id);

    const fork = await h.call("POST", "/api/session/branch", {
      session_id: h.sessionId,
      keep_count: 2,
    });
    strictEqual(fork.status, 200);
    strictEqual(fork.body.parent_session_id, h.sessionId);
    const forked = await h.call("GET", `/api/session?session_id=${fork.body.session_id}`);
    // deno-lint-ignore no-explicit-any
    deepStrictEqual((forked.body.session.messages as any[]).map((m) => m.content), [
      "Question one",
      "Answer one.",
    ]);

    // Edit "Question two" (idx 2): keep what comes before it, send the new text.
    const cut = await h.call("POST", "/api/session/truncate", {
      session_id: h.sessionId,
      keep_count: 2,
    });
    strictEqual(cut.body.removed_count, 2);
    h.fake.enqueue({ text: "Edited answer." });
    await h.stream((await h.start("Question two, reworded")).stream_id);
    deepStrictEqual(texts(h.fake.chatRequests.at(-1)!.body).slice(-3), [
      "Question one",
      "Answer one.",
      "Question two, reworded",
    ]);

    const usage = await h.call("GET", `/api/session/usage?session_id=${h.sessionId}`);
    strictEqual(usage.status, 200);
    // The hover's per-turn figures: when each message was sent and answered, tokens and cost.
    const turns = await h.call("GET", `/api/session/turns?session_id=${h.sessionId}`);
    strictEqual(turns.status, 200);
    strictEqual(turns.body.turns.length, 2);
    for (const t of turns.body.turns) {
      ok(t.asked_at > 0 && t.answered_at >= t.asked_at, "both times are known");
      ok(t.input_tokens > 0 && t.output_tokens > 0, "the turn's runs were metered");
    }
    strictEqual(turns.body.turns[1].user_idx, 2);
    strictEqual((await h.call("GET", "/api/session/turns?session_id=nope")).status, 404);
  } finally {
    await h.close();
  }
});
