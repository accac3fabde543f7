// `/reasoning <none|low|medium|high>`: a chat's own effort (POST /api/session/reasoning) wins
// over config.yaml's and reaches the provider in its protocol's words; "default" clears it.
import { ok, strictEqual } from "node:assert/strict";
import { startHarness } from "./fixtures/engine_harness.ts";
import { NO_TOOL_HOOKS } from "../lib/engine/engine_options.ts";

async function withHarness(
  protocol: "openai" | "anthropic",
  yaml: string,
  fn: (h: Awaited<ReturnType<typeof startHarness>>) => Promise<void>,
) {
  const h = await startHarness({ protocol, yaml });
  try {
    h.app.ctx.runs.configure({ hooks: NO_TOOL_HOOKS });
    await fn(h);
  } finally {
    await h.close();
  }
}

async function turn(h: Awaited<ReturnType<typeof startHarness>>) {
  h.fake.enqueue({ reasoning: "thinking it over", text: "ok" });
  await h.stream((await h.start("hello")).stream_id);
  return h.fake.chatRequests.at(-1)!.body;
}

Deno.test("the session's reasoning effort wins over the config's on chat-completions", async () => {
  await withHarness("openai", "agent:\n  reasoning_effort: low\n", async (h) => {
    const before = await h.call("GET", `/api/session/reasoning?session_id=${h.sessionId}`);
    strictEqual(before.body.reasoning_effort, null);
    strictEqual(before.body.effective, "low");
    strictEqual((await turn(h)).reasoning_effort, "low");
    const set = await h.call("POST", "/api/session/reasoning", {
      session_id: h.sessionId,
      effort: "high",
    });
    strictEqual(set.status, 200);
    strictEqual(set.body.reasoning_effort, "high");
    strictEqual(set.body.effective, "high");
    strictEqual((await turn(h)).reasoning_effort, "high");
    await h.call("POST", "/api/session/reasoning", { session_id: h.sessionId, effort: "default" });
    strictEqual((await turn(h)).reasoning_effort, "low", "default follows the config again");
  });
});

Deno.test("the session's reasoning effort becomes Anthropic thinking; none turns it off", async () => {
  await withHarness("anthropic", "", async (h) => {
    strictEqual((await turn(h)).thinking, undefined);
    await h.call("POST", "/api/session/reasoning", { session_id: h.sessionId, effort: "high" });
    const high = await turn(h);
    ok(["enabled", "adaptive"].includes(high.thinking?.type), JSON.stringify(high.thinking));
    await h.call("POST", "/api/session/reasoning", { session_id: h.sessionId, effort: "none" });
    const none = await turn(h);
    ok(!none.thinking || none.thinking.type === "disabled", JSON.stringify(none.thinking));
  });
});

Deno.test("POST /api/session/reasoning refuses unknown levels and sessions", async () => {
  await withHarness("openai", "", async (h) => {
    const bad = await h.call("POST", "/api/session/reasoning", {
      session_id: h.sessionId,
      effort: "extreme",
    });
    strictEqual(bad.status, 400);
    ok(String(bad.body.error).includes("extreme"));
    strictEqual(
      (await h.call("POST", "/api/session/reasoning", {
        session_id: "0123456789ab",
        effort: "low",
      }))
        .status,
      404,
    );
    strictEqual(
      (await h.call("POST", "/api/session/reasoning", { session_id: h.sessionId })).status,
      400,
    );
  });
});
