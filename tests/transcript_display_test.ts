// The transcript's display preferences as the page paints them, and the per-turn speed the
// badges read: transcriptDisplayAttrs() adds nothing for defaults and one attribute per
// preference changed; turnMeta() takes a turn's tokens/s only from runs the provider metered.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { startHarness } from "./fixtures/engine_harness.ts";
import { sql } from "../lib/storage/db.ts";
import { turnMeta } from "../lib/sessions/turn_meta.ts";
import { PREFERENCES } from "../lib/settings/preferences.ts";
import {
  TRANSCRIPT_DISPLAY_ATTRS,
  TRANSCRIPT_DISPLAY_KEYS,
  transcriptDisplayAttrs,
} from "../lib/shared/transcript_display.ts";

const defaults = () =>
  Object.fromEntries(Object.entries(PREFERENCES).map(([k, p]) => [k, p.default]));

Deno.test("transcriptDisplayAttrs() paints nothing for the defaults", () => {
  deepStrictEqual(transcriptDisplayAttrs(defaults()), {});
});

Deno.test("transcriptDisplayAttrs() gives each changed preference its attribute", () => {
  const attrs = transcriptDisplayAttrs({
    ...defaults(),
    show_token_usage: true,
    show_tps: true,
    auto_scroll_follow: false,
    simplified_tool_calling: false,
    chat_activity_display_mode: "transparent_stream",
    default_message_mode: "steer",
  });
  deepStrictEqual(attrs, {
    "data-show-token-usage": "",
    "data-show-tps": "",
    "data-no-auto-follow": "",
    "data-expanded-tools": "",
    "data-activity-mode": "transparent_stream",
    "data-message-mode": "steer",
  });
  for (const name of Object.keys(attrs)) ok(TRANSCRIPT_DISPLAY_ATTRS.includes(name), name);
  // An unknown mode is the default, not a painted value.
  deepStrictEqual(transcriptDisplayAttrs({ chat_activity_display_mode: "<x>" }), {});
});

Deno.test("every display key is a stored preference", () => {
  for (const key of TRANSCRIPT_DISPLAY_KEYS) ok(key in PREFERENCES, key);
});

Deno.test("turnMeta() takes tokens/s only from reported runs, never from estimated ones", async () => {
  const h = await startHarness();
  try {
    h.fake.enqueue({
      text: "Measured answer, streamed.",
      delayMs: 60,
      usage: { output_tokens: 30 },
    });
    const a = await h.start("measured");
    await h.stream(a.stream_id);
    h.fake.enqueue({ text: "Unmetered answer, streamed.", delayMs: 60, noUsage: true });
    const b = await h.start("estimated");
    await h.stream(b.stream_id);
    // Even a rate stored beside estimated counts is never shown as the turn's speed.
    await h.app.ctx.db.run(sql`UPDATE usage SET tokens_per_s = 99 WHERE estimated = 1`);
    const [measured, estimated] = await turnMeta(h.app.ctx.db, h.sessionId);
    strictEqual(measured.estimated, false);
    ok(typeof measured.tokens_per_s === "number" && measured.tokens_per_s > 0);
    strictEqual(estimated.estimated, true);
    strictEqual(estimated.tokens_per_s, null);
  } finally {
    await h.close();
  }
});
