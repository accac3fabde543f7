// Durable runs: reconnecting mid-turn with Last-Event-ID (or after_seq) loses and repeats
// nothing; a late listener replays the whole journal; a killed server's runs come back as
// `interrupted` with the partial answer kept; cancel stops at once and keeps partial text.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { startHarness, waitFor } from "../fixtures/engine_harness.ts";
import { tokenText } from "../fixtures/sse_client.ts";
import { sql } from "../../lib/storage/db.ts";

/** 300 small deltas with distinct content, so any loss or repeat changes the text. */
const PIECES = Array.from({ length: 300 }, (_, i) => `w${i}${i % 7 === 0 ? "\n" : " "}`);
const TEXT = PIECES.join("");

Deno.test("a client that reconnects with Last-Event-ID mid-turn loses and repeats nothing", async () => {
  const h = await startHarness();
  try {
    h.fake.enqueue({ text: PIECES, delayMs: 2 });
    const { stream_id } = await h.start("count for me");
    const first = await h.stream(stream_id, {
      stopWhen: (_e, all) => all.filter((x) => x.event === "token").length >= 25,
    });
    ok(!first.closedByServer);
    const last = first.events.at(-1)!;
    strictEqual(last.id, `${stream_id}:${last.seq}`);
    const second = await h.stream(stream_id, { lastEventId: last.id });
    ok(second.closedByServer);
    strictEqual(second.events[0].seq, last.seq + 1);
    const all = [...first.events, ...second.events];
    deepStrictEqual(all.map((e) => e.seq), all.map((_, i) => i + 1));
    strictEqual(tokenText(all), TEXT);
    strictEqual(all.at(-1)!.event, "stream_end");
    // after_seq works the same, and a listener arriving late replays everything.
    const tail = await h.stream(stream_id, { afterSeq: last.seq });
    deepStrictEqual(tail.events.map((e) => e.seq), second.events.map((e) => e.seq));
    const replay = await h.stream(stream_id);
    strictEqual(tokenText(replay.events), TEXT);
    const session = await h.call("GET", `/api/session?session_id=${h.sessionId}`);
    strictEqual(session.body.session.messages[1].content, TEXT);
  } finally {
    await h.close();
  }
});

Deno.test("two listeners on one stream see the same events, and the run does not need them", async () => {
  const h = await startHarness();
  try {
    h.fake.enqueue({ text: PIECES.slice(0, 60), delayMs: 1 });
    const { stream_id } = await h.start("go");
    const [a, b] = await Promise.all([h.stream(stream_id), h.stream(stream_id)]);
    deepStrictEqual(a.events, b.events);
    strictEqual(tokenText(a.events), PIECES.slice(0, 60).join(""));

    // Nobody listening: the run still completes and is replayable.
    h.fake.enqueue({ text: "unheard answer" });
    const second = await h.start("again");
    await waitFor(async () =>
      (await h.call("GET", `/api/chat/stream/status?stream_id=${second.stream_id}`)).body.active ===
        false
    );
    const status = await h.call("GET", `/api/chat/stream/status?stream_id=${second.stream_id}`);
    deepStrictEqual(
      {
        active: status.body.active,
        stream_id: status.body.stream_id,
        replay_available: status.body.replay_available,
      },
      { active: false, stream_id: second.stream_id, replay_available: true },
    );
    strictEqual(tokenText((await h.stream(second.stream_id)).events), "unheard answer");
  } finally {
    await h.close();
  }
});

Deno.test("a server killed mid-turn marks the run interrupted on restart and keeps the partial text", async () => {
  const h = await startHarness();
  try {
    h.fake.enqueue({ text: PIECES.slice(0, 40), hang: 20 });
    const { stream_id } = await h.start("tell me a long story");
    const seen = await h.stream(stream_id, {
      stopWhen: (_e, all) => tokenText(all) === PIECES.slice(0, 20).join(""),
    });
    const partial = PIECES.slice(0, 20).join("");
    strictEqual(tokenText(seen.events), partial);
    // The streaming answer reaches the transcript within the persist interval.
    await waitFor(
      async () => {
        const row = await h.app.ctx.db.get<{ content: string }>(
          sql`SELECT content FROM messages WHERE role = 'assistant'`,
        );
        return row?.content === partial;
      },
      3000,
      "the partial answer to be saved",
    );

    await h.restart();

    const resumed = await h.stream(stream_id, { lastEventId: seen.events.at(-1)!.id });
    deepStrictEqual(resumed.events.map((e) => e.event), ["apperror"]);
    strictEqual(resumed.events[0].data.type, "interrupted");
    ok(resumed.events[0].data.hint);
    // The journal also records the stream_end after it (the SSE stream closes at apperror).
    const rows = await h.app.ctx.db.all<{ event: string }>(
      sql`SELECT event FROM stream_events WHERE stream_id = ${stream_id} ORDER BY seq`,
    );
    deepStrictEqual(rows.slice(-2).map((r) => r.event), ["apperror", "stream_end"]);
    const session = (await h.call("GET", `/api/session?session_id=${h.sessionId}`)).body.session;
    strictEqual(session.active_stream_id, null);
    strictEqual(session.is_streaming, false);
    deepStrictEqual(session.messages.map((m: { role: string }) => m.role), ["user", "assistant"]);
    strictEqual(session.messages[1].content, partial);
    const status = (await h.call("GET", `/api/chat/stream/status?stream_id=${stream_id}`)).body;
    strictEqual(status.active, false);
    strictEqual(status.status, "interrupted");

    // The session works again, and the interrupted answer is part of the history sent.
    h.fake.enqueue({ text: "continuing" });
    const next = await h.start("continue");
    strictEqual(tokenText((await h.stream(next.stream_id)).events), "continuing");
    const sent = h.fake.chatRequests.at(-1)!.body.messages as Array<
      { role: string; content: string }
    >;
    deepStrictEqual(sent.map((m) => m.role), ["system", "user", "assistant", "user"]);
    strictEqual(sent[2].content, partial);
  } finally {
    await h.close();
  }
});

Deno.test("cancel stops the run at once, keeps the partial answer and frees the session", async () => {
  const h = await startHarness();
  try {
    h.fake.enqueue({ text: PIECES, delayMs: 3 });
    const { stream_id } = await h.start("write a lot");
    let cancelled: Promise<{ status: number; body: Record<string, unknown> }> | undefined;
    const res = await h.stream(stream_id, {
      onEvent: (_e) => {
        if (!cancelled && _e.event === "token" && _e.seq >= 10) {
          cancelled = h.call("GET", `/api/chat/cancel?stream_id=${stream_id}`);
        }
      },
    });
    deepStrictEqual((await cancelled!).body, { ok: true, cancelled: true, stream_id });
    ok(res.closedByServer);
    const last = res.events.at(-1)!;
    deepStrictEqual([last.event, last.data], ["cancel", {
      message: "Cancelled by user",
      type: "cancelled",
    }]);
    const streamed = tokenText(res.events);
    ok(streamed.length > 0 && streamed.length < TEXT.length);
    ok(TEXT.startsWith(streamed));

    // Idempotent, and the session is free immediately.
    deepStrictEqual((await h.call("GET", `/api/chat/cancel?stream_id=${stream_id}`)).body, {
      ok: true,
      cancelled: false,
      stream_id,
    });
    const session = (await h.call("GET", `/api/session?session_id=${h.sessionId}`)).body.session;
    strictEqual(session.active_stream_id, null);
    strictEqual(session.messages[1].content, streamed);
    h.fake.enqueue({ text: "fresh" });
    const next = await h.start("next");
    strictEqual(tokenText((await h.stream(next.stream_id)).events), "fresh");
    strictEqual((await h.call("GET", "/api/chat/cancel")).status, 400);
  } finally {
    await h.close();
  }
});

Deno.test("cancel while a tool waits for approval denies it and marks the call as an error", async () => {
  const h = await startHarness();
  try {
    h.fake.enqueue({
      toolCalls: [{ id: "call_rm", name: "terminal", args: { command: "rm -rf build" } }],
    });
    const { stream_id } = await h.start("clean up");
    const res = await h.stream(stream_id, {
      onEvent: (e) => {
        if (e.event === "approval") void h.call("GET", `/api/chat/cancel?stream_id=${stream_id}`);
      },
    });
    const names = res.events.map((e) => e.event);
    ok(names.includes("approval"), names.join(","));
    strictEqual(names.at(-1), "cancel");
    const row = (await h.app.ctx.db.get<{ status: string; result: string }>(
      sql`SELECT status, result FROM tool_calls WHERE tool_call_id = 'call_rm'`,
    ))!;
    strictEqual(row.status, "error");
    match(row.result, /Cancelled/);
    const pending = await h.call("GET", `/api/approval/pending?session_id=${h.sessionId}`);
    strictEqual(pending.body.pending, null);
  } finally {
    await h.close();
  }
});

Deno.test("deleting a session mid-run stops the run cleanly and the server carries on", async () => {
  const h = await startHarness();
  try {
    h.fake.enqueue({ text: PIECES, delayMs: 2 });
    const { stream_id } = await h.start("long one");
    let deleted: Promise<unknown> | undefined;
    const res = await h.stream(stream_id, {
      onEvent: (e) => {
        if (e.seq === 5) {
          deleted = h.call("POST", "/api/session/delete", { session_id: h.sessionId });
        }
      },
    });
    ok(res.closedByServer, "the stream ends instead of hanging");
    await waitFor(() => !h.app.ctx.runs.get(stream_id), 3000, "the run to stop");
    // The run stops as the delete begins; its journal is gone once the delete has answered.
    await deleted;
    strictEqual((await h.call("GET", `/api/chat/stream?stream_id=${stream_id}`)).status, 404);
    h.sessionId = await h.newSession();
    h.fake.enqueue({ text: "still here" });
    strictEqual(
      tokenText((await h.stream((await h.start("hello")).stream_id)).events),
      "still here",
    );
  } finally {
    await h.close();
  }
});
