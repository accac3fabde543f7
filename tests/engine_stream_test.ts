// The streaming engine end to end over real HTTP + SSE against the fake provider: a text turn
// on both wire protocols, reasoning, metering and usage, title, done + stream_end.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { startHarness } from "./fixtures/engine_harness.ts";
import { tokenText } from "./fixtures/sse_client.ts";
import { sql } from "../lib/storage/db.ts";

for (const protocol of ["openai", "anthropic", "openai-native"] as const) {
  Deno.test(`chat/start streams a text turn over ${protocol} SSE and saves the transcript`, async () => {
    const h = await startHarness({ protocol });
    try {
      const answer = "Hello! Here is a **streamed** answer with unicode: héllo ✓ 🎉.";
      h.fake.enqueue({
        reasoning: "Let me think about it.",
        text: answer,
        usage: { input_tokens: 120, output_tokens: 17, cached_tokens: 20 },
      });
      const started = await h.start("Say hello to the world please");
      match(started.stream_id, /^[0-9a-f]{32}$/);
      strictEqual(started.title, "Say hello to the world please");
      const res = await h.stream(started.stream_id);
      strictEqual(res.status, 200);
      // API.md: streams say no-cache; issue 13: every /api/* answer also says no-store.
      strictEqual(res.headers.get("cache-control"), "no-cache, no-store");
      strictEqual(res.headers.get("x-accel-buffering"), "no");
      ok(res.closedByServer);
      const names = res.events.map((e) => e.event);
      strictEqual(names[0], "title");
      deepStrictEqual(names.slice(-3), ["metering", "done", "stream_end"]);
      deepStrictEqual(res.events.map((e) => e.seq), res.events.map((_, i) => i + 1));
      strictEqual(tokenText(res.events), answer);
      // OpenAI's own API has no reasoning_content; its client ignores it.
      strictEqual(
        res.events.filter((e) => e.event === "reasoning").map((e) => e.data.text).join(""),
        protocol === "openai-native" ? "" : "Let me think about it.",
      );
      const metering = res.events.find((e) => e.event === "metering")!.data;
      strictEqual(metering.input_tokens, protocol === "anthropic" ? 140 : 120);
      strictEqual(metering.output_tokens, 17);
      strictEqual(metering.cached_tokens, 20);
      // gpt-4o-mini: 100 fresh + 20 cached input, 17 output at $0.15 / $0.075 / $0.60 per 1M.
      strictEqual(metering.estimated_cost, protocol === "openai-native" ? 0.0000267 : null);
      ok(typeof metering.ttft_ms === "number" && metering.ttft_ms >= 0);
      const done = res.events.find((e) => e.event === "done")!.data;
      const msgs = done.session.messages;
      deepStrictEqual(msgs.map((m: { role: string }) => m.role), ["user", "assistant"]);
      strictEqual(msgs[1].content, answer);
      strictEqual(
        msgs[1].reasoning,
        protocol === "openai-native" ? undefined : "Let me think about it.",
      );
      strictEqual(done.session.active_stream_id, null);
      strictEqual(done.session.title, "Say hello to the world please");

      // What was sent: the system prompt and the user message, on the right protocol.
      const req = h.fake.chatRequests[0];
      strictEqual(req.protocol, protocol === "anthropic" ? "anthropic" : "openai");
      if (protocol !== "anthropic") {
        strictEqual(req.body.messages[0].role, "system");
        match(req.body.messages[0].content, /You are Hermes/);
        deepStrictEqual(req.body.stream_options, { include_usage: true });
        strictEqual(req.body.messages.at(-1).content, "Say hello to the world please");
        strictEqual(req.headers.authorization, "Bearer test-openai-key");
      } else {
        match(req.body.system[0].text, /You are Hermes/);
        strictEqual(req.headers["x-api-key"], "test-anthropic-key");
      }
      const session = await h.call<{ session: Record<string, unknown> }>(
        "GET",
        `/api/session?session_id=${h.sessionId}`,
      );
      strictEqual(session.body.session.input_tokens, metering.input_tokens);
      strictEqual(session.body.session.output_tokens, 17);
      const usage = await h.app.ctx.db.get<Record<string, unknown>>(
        sql`SELECT * FROM usage WHERE stream_id = ${started.stream_id}`,
      );
      strictEqual(usage?.output_tokens, 17);
      strictEqual(usage?.cost, metering.estimated_cost);
      // The stream is over: a second connection replays it whole, a cursor at the end is 404.
      const again = await h.stream(started.stream_id);
      deepStrictEqual(again.events.map((e) => e.seq), res.events.map((e) => e.seq));
      const past = await h.stream(started.stream_id, { afterSeq: res.events.length });
      strictEqual(past.status, 404);
      deepStrictEqual(past.body, { error: "stream not found" });
    } finally {
      await h.close();
    }
  });
}
