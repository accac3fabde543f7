// Side questions (POST /api/btw) and background tasks (POST /api/background, GET
// /api/background/status and /events) through the real engine and the fake provider: a side
// question sees the session's context, uses no tools and leaves the transcript alone; a
// background task runs in a hidden child, is listed while it runs and announces its end.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { startHarness, waitFor } from "./fixtures/engine_harness.ts";
import { tokenText } from "./fixtures/sse_client.ts";
import { consoleToken } from "../lib/security/request_proof.ts";

// deno-lint-ignore no-explicit-any
const texts = (body: any): string[] =>
  // deno-lint-ignore no-explicit-any
  (body.messages as any[]).map((m) =>
    typeof m.content === "string"
      ? m.content
      // deno-lint-ignore no-explicit-any
      : (m.content as any[]).map((p) => p.text ?? "").join("")
  );

Deno.test("/btw answers with the session's context, no tools, and leaves the transcript alone", async () => {
  const h = await startHarness({ yaml: "auxiliary_model: fake-model-large\n" });
  try {
    h.fake.enqueue({ text: "The parser lives in src/parse.ts." });
    await h.stream((await h.start("Where is the parser?")).stream_id);
    const before = await h.call("GET", `/api/session?session_id=${h.sessionId}`);

    h.fake.enqueue({ text: "It was src/parse.ts." });
    const res = await h.call("POST", "/api/btw", {
      session_id: h.sessionId,
      question: "Which file did you name?",
    });
    strictEqual(res.status, 200);
    strictEqual(res.body.parent_session_id, h.sessionId);
    strictEqual(res.body.model, "fake-model-large");
    ok(res.body.session_id !== h.sessionId);
    const answer = await h.stream(res.body.stream_id);
    strictEqual(tokenText(answer.events), "It was src/parse.ts.");

    const req = h.fake.chatRequests[1].body;
    strictEqual(req.model, "fake-model-large", "the auxiliary model answers side questions");
    deepStrictEqual(texts(req).slice(-3), [
      "Where is the parser?",
      "The parser lives in src/parse.ts.",
      "Which file did you name?",
    ]);
    ok(!req.tools?.length, "a side question runs without tools");

    const after = await h.call("GET", `/api/session?session_id=${h.sessionId}`);
    deepStrictEqual(after.body.session.messages, before.body.session.messages);
    const list = await h.call("GET", "/api/sessions");
    // deno-lint-ignore no-explicit-any
    const ids = (list.body.sessions as any[]).map((s) => s.session_id);
    ok(ids.includes(h.sessionId) && !ids.includes(res.body.session_id), "the child is hidden");

    strictEqual(
      (await h.call("POST", "/api/btw", { session_id: h.sessionId, question: " " })).status,
      400,
    );
    strictEqual(
      (await h.call("POST", "/api/btw", { session_id: "nope", question: "x" })).status,
      404,
    );
  } finally {
    await h.close();
  }
});

Deno.test("/background runs hidden, is listed while running and sends bg_task_complete", async () => {
  const h = await startHarness();
  const ac = new AbortController();
  try {
    const events = await fetch(`${h.url}/api/background/events?session_id=${h.sessionId}`, {
      headers: { "x-hermes-csrf-token": await consoleToken(h.app.ctx.security) },
      signal: ac.signal,
    });
    strictEqual(events.status, 200);
    const reader = events.body!.pipeThrough(new TextDecoderStream()).getReader();
    let seen = "";
    const heard = (async () => {
      while (!seen.includes("event: bg_task_complete")) {
        const { value, done } = await reader.read();
        if (done) break;
        seen += value;
      }
    })();

    h.fake.enqueue({ text: "Audit finished: 3 findings.", chunkSize: 2, delayMs: 30 });
    const res = await h.call("POST", "/api/background", {
      session_id: h.sessionId,
      prompt: "Audit the tests",
    });
    strictEqual(res.status, 200);
    ok(res.body.task_id && res.body.stream_id && res.body.session_id);
    const running = await h.call("GET", `/api/background/status?session_id=${h.sessionId}`);
    strictEqual(running.body.tasks.length, 1);
    strictEqual(running.body.tasks[0].status, "running");
    strictEqual(running.body.tasks[0].prompt, "Audit the tests");
    deepStrictEqual(running.body.results, []);

    await heard;
    const frame = seen.split("\n\n").find((f) => f.includes("event: bg_task_complete"))!;
    const data = JSON.parse(frame.split("\n").find((l) => l.startsWith("data: "))!.slice(6));
    strictEqual(data.task_id, res.body.task_id);
    strictEqual(data.parent_session_id, h.sessionId);
    strictEqual(data.status, "done");
    strictEqual(data.answer, "Audit finished: 3 findings.");

    const done = await h.call("GET", `/api/background/status?session_id=${h.sessionId}`);
    strictEqual(done.body.tasks[0].status, "done");
    strictEqual(done.body.results[0].answer, "Audit finished: 3 findings.");
    const parent = await h.call("GET", `/api/session?session_id=${h.sessionId}`);
    strictEqual(parent.body.session.messages.length, 0, "the parent transcript is untouched");
    const list = await h.call("GET", "/api/sessions");
    // deno-lint-ignore no-explicit-any
    ok(!(list.body.sessions as any[]).some((s) => s.session_id === res.body.session_id));

    const gone = await h.call("POST", "/api/background/dismiss", {
      session_id: h.sessionId,
      task_id: res.body.task_id,
    });
    deepStrictEqual(gone.body, { ok: true, removed: true });
    await waitFor(async () =>
      (await h.call("GET", `/api/background/status?session_id=${h.sessionId}`)).body.tasks
        .length === 0
    );
    strictEqual(
      (await h.call("POST", "/api/background", { session_id: h.sessionId, prompt: "" })).status,
      400,
    );
    await reader.cancel();
  } finally {
    ac.abort();
    await h.close();
  }
});
