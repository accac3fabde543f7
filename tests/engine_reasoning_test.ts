// `reasoning_effort` in config.yaml reaches the provider in its own protocol's words: Anthropic
// Messages gets a `thinking` block, chat-completions gets `reasoning_effort`; unset sends none.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { startHarness } from "./fixtures/engine_harness.ts";
import { reasoningEffort } from "../lib/engine/engine_options.ts";

async function sentBody(protocol: "openai" | "anthropic", yaml: string) {
  const h = await startHarness({ protocol, yaml });
  try {
    h.fake.enqueue({ reasoning: "thinking it over", text: "ok" });
    const { stream_id } = await h.start("hello");
    const res = await h.stream(stream_id);
    strictEqual(res.events.at(-1)!.event, "stream_end");
    return h.fake.chatRequests[0].body;
  } finally {
    await h.close();
  }
}

Deno.test("reasoning_effort reaches Anthropic as extended thinking", async () => {
  const body = await sentBody("anthropic", "agent:\n  reasoning_effort: high\n");
  ok(body.thinking, `a thinking block in ${JSON.stringify(body).slice(0, 300)}`);
  ok(["enabled", "adaptive"].includes(body.thinking.type), JSON.stringify(body.thinking));
  const plain = await sentBody("anthropic", "");
  strictEqual(plain.thinking, undefined, "no thinking block unless asked for");
});

Deno.test("reasoning_effort reaches chat-completions endpoints as reasoning_effort", async () => {
  strictEqual((await sentBody("openai", "")).reasoning_effort, undefined, "unset sends none");
  const agent = await sentBody("openai", "agent:\n  reasoning_effort: low\n");
  strictEqual(agent.reasoning_effort, "low");
  // Indented, the line joins the harness's `model:` section: the original Hermes place for it.
  const model = await sentBody("openai", "  reasoning_effort: medium\n");
  strictEqual(model.reasoning_effort, "medium");
});

Deno.test("reasoningEffort() accepts the SDK's levels and ignores anything else", () => {
  deepStrictEqual(
    ["High", " low ", "max", "provider-default", "extreme", 3, undefined].map(reasoningEffort),
    ["high", "low", "max", undefined, undefined, undefined, undefined],
  );
});
