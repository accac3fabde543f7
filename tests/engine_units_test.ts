// Engine pieces in isolation: token coalescing, transcript → provider messages, titles, cuts.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { createCoalescer } from "../lib/engine/coalescer.ts";
import { parseToolArgs, toModelMessages } from "../lib/engine/model_messages.ts";
import { deriveTitle } from "../lib/engine/run_manager.ts";
import { planCut } from "../lib/engine/compression.ts";
import type { StoredMessage } from "../lib/sessions/messages.ts";

// The coalescer flushes on setImmediate. Immediates run in the order they were queued, so one
// queued after its flush runs after it; a setTimeout(0) does not: on a loaded machine the timer
// is already due when the loop starts its turn, and the timers phase runs before the immediates.
const tick = () => new Promise((r) => setImmediate(r));

Deno.test("createCoalescer() merges deltas of one tick and keeps order across kinds", async () => {
  const out: Array<[string, string]> = [];
  const c = createCoalescer((k, t) => out.push([k, t]));
  for (const ch of "hello") c.push("token", ch);
  c.push("reasoning", "hmm");
  c.push("reasoning", "!");
  c.push("token", " world");
  // A change of kind flushes what was pending at once (order is exact).
  deepStrictEqual(out, [["token", "hello"], ["reasoning", "hmm!"]]);
  await tick();
  deepStrictEqual(out, [["token", "hello"], ["reasoning", "hmm!"], ["token", " world"]]);
  c.push("token", "a");
  c.flush();
  c.push("token", "b");
  await tick();
  deepStrictEqual(out.slice(3), [["token", "a"], ["token", "b"]]);
  c.close();
  c.push("token", "late");
  deepStrictEqual(out.at(-1), ["token", "late"]);
});

Deno.test("toModelMessages() pairs every tool call with a result and drops orphans", async () => {
  const m = (idx: number, x: Partial<StoredMessage>): StoredMessage =>
    ({ idx, timestamp: 1, role: "user", content: "", ...x }) as StoredMessage;
  const out = await toModelMessages([
    m(0, { role: "user", content: "hi" }),
    m(1, {
      role: "assistant",
      content: "let me look",
      tool_calls: [
        { id: "a", type: "function", function: { name: "read_file", arguments: '{"path":"x"}' } },
        { id: "b", type: "function", function: { name: "terminal", arguments: "{bad" } },
      ],
    }),
    m(2, { role: "tool", tool_call_id: "a", name: "read_file", content: "file text" }),
    m(3, { role: "tool", tool_call_id: "zzz", content: "orphan" }),
    m(4, { role: "assistant", content: "" }),
    m(5, {
      role: "user",
      content: "next",
      attachments: [{ filename: "doc.pdf", path: "/etc/passwd", mime: "application/pdf" }],
    }),
  ]);
  deepStrictEqual(out.map((x) => x.role), ["user", "assistant", "tool", "tool", "user"]);
  const assistant = out[1].content as Array<Record<string, unknown>>;
  deepStrictEqual(assistant[1], {
    type: "tool-call",
    toolCallId: "a",
    toolName: "read_file",
    input: { path: "x" },
  });
  deepStrictEqual((assistant[2] as { input: unknown }).input, { _raw_arguments: "{bad" });
  const synthetic = (out[3].content as Array<Record<string, unknown>>)[0];
  strictEqual(synthetic.toolCallId, "b");
  // A path outside the session's uploads is never read.
  strictEqual(out[4].content, "next\n[Attached file doc.pdf is no longer available]");
  deepStrictEqual(parseToolArgs(""), {});
  deepStrictEqual(parseToolArgs("[1]"), { value: [1] });
});

Deno.test("deriveTitle() makes one short line of the first message", () => {
  strictEqual(deriveTitle("  Fix the\n\nbuild  "), "Fix the build");
  const t = deriveTitle("word ".repeat(40));
  strictEqual(Array.from(t).length <= 80, true);
  strictEqual(t.endsWith("…"), true);
  strictEqual(deriveTitle("   "), "Untitled");
});

Deno.test("planCut() cuts at a user message and keeps the recent turns", () => {
  const roles = [
    "user",
    "assistant",
    "tool",
    "assistant",
    "user",
    "assistant",
    "user",
    "assistant",
  ];
  const msgs = roles.map((role, idx) =>
    ({ idx, role, content: "", timestamp: 1 }) as StoredMessage
  );
  strictEqual(planCut(msgs, null, 2), 4);
  strictEqual(planCut(msgs, null, 1), 6);
  strictEqual(planCut(msgs, { uptoIdx: 4, summary: "s" }, 2), null);
  strictEqual(planCut(msgs.slice(0, 4), null, 1), null);
});
