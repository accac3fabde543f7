// The context ring's numbers: GET /api/session/context says how full the model's window was at
// the chat's last request (its input tokens) and offers compression once it fills.
import { ok, strictEqual } from "node:assert/strict";
import { startHarness } from "./fixtures/engine_harness.ts";
import { NO_TOOL_HOOKS } from "../lib/engine/engine_options.ts";

Deno.test("GET /api/session/context reports the last request's share of the window", async () => {
  const h = await startHarness({ yaml: "context_windows: {fake-model: 10000}\n" });
  try {
    h.app.ctx.runs.configure({ hooks: NO_TOOL_HOOKS });
    const q = `/api/session/context?session_id=${h.sessionId}`;
    const empty = await h.call("GET", q);
    strictEqual(empty.status, 200);
    strictEqual(empty.body.input_tokens, 0);
    strictEqual(empty.body.context_window, 10000);
    strictEqual(empty.body.suggest_compress, false);
    h.fake.enqueue({ text: "short", usage: { input_tokens: 2500, output_tokens: 5 } });
    await h.stream((await h.start("hello")).stream_id);
    const quarter = (await h.call("GET", q)).body;
    strictEqual(quarter.input_tokens, 2500);
    strictEqual(quarter.used, 0.25);
    strictEqual(quarter.suggest_compress, false);
    h.fake.enqueue({ text: "long", usage: { input_tokens: 7000, output_tokens: 5 } });
    await h.stream((await h.start("more")).stream_id);
    const full = (await h.call("GET", q)).body;
    strictEqual(full.used, 0.7);
    ok(full.suggest_compress, "compression is offered as the window fills");
    strictEqual((await h.call("GET", "/api/session/context?session_id=0123456789ab")).status, 404);
  } finally {
    await h.close();
  }
});
