// Diffs in tool results (lib/tools/file_diff.ts): a successful write_file/patch call carries a
// unified diff with line numbers in its `tool_complete` event and in the session's tool calls;
// a failed call carries none, and the model's tool result stays the plain text it was.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { startHarness } from "./fixtures/engine_harness.ts";
import { fileDiff } from "../lib/tools/file_diff.ts";

Deno.test("write_file and patch results carry a unified diff; a failed patch none", async () => {
  const h = await startHarness();
  try {
    const ws = (await h.call("GET", `/api/session?session_id=${h.sessionId}&messages=0`)).body
      .session.workspace;
    await Deno.writeTextFile(join(ws, "calc.py"), "def add(a, b):\n    return a - b\n");
    h.fake.enqueue(
      { toolCalls: [{ name: "write_file", args: { path: "notes.md", content: "one\ntwo\n" } }] },
      {
        toolCalls: [{
          name: "patch",
          args: { path: "calc.py", old_string: "return a - b", new_string: "return a + b" },
        }],
      },
      {
        toolCalls: [{
          name: "patch",
          args: { path: "calc.py", old_string: "not there", new_string: "x" },
        }],
      },
      { text: "Fixed." },
    );
    const { events } = await h.stream((await h.start("fix calc.py")).stream_id);
    const done = events.filter((e) => e.event === "tool_complete").map((e) => e.data);
    strictEqual(done.length, 3);
    deepStrictEqual(done[0].diff, {
      path: "notes.md",
      status: "added",
      added: 2,
      removed: 0,
      hunks: [{ old_start: 1, old_lines: 0, new_start: 1, new_lines: 2, lines: ["+one", "+two"] }],
    });
    const patch = done[1].diff;
    strictEqual(patch.status, "modified");
    deepStrictEqual([patch.added, patch.removed], [1, 1]);
    deepStrictEqual(patch.hunks[0].lines, [
      " def add(a, b):",
      "-    return a - b",
      "+    return a + b",
    ]);
    strictEqual(patch.hunks[0].old_start, 1);
    strictEqual(done[2].is_error, true);
    strictEqual(done[2].diff, undefined, "a failed call has no diff");
    // The model saw plain tool results, no diff.
    const toolMsgs = h.fake.chatRequests.at(-1)!.body.messages.filter((m: { role: string }) =>
      m.role === "tool"
    );
    ok(toolMsgs.every((m: { content: string }) => !String(m.content).includes("hunks")));
    // After a reload the session's tool calls still have their diffs.
    const session = (await h.call("GET", `/api/session?session_id=${h.sessionId}`)).body.session;
    const byName = session.tool_calls.map((
      c: { name: string; diff?: { path: string } },
    ) => [c.name, c.diff?.path ?? null]);
    deepStrictEqual(byName, [["write_file", "notes.md"], ["patch", "calc.py"], ["patch", null]]);
  } finally {
    await h.close();
  }
});

Deno.test("fileDiff() numbers hunks and cuts a huge diff, marking it truncated", () => {
  const before = Array.from({ length: 3000 }, (_, i) => `line ${i}`).join("\n") + "\n";
  const after = Array.from({ length: 3000 }, (_, i) => `LINE ${i}`).join("\n") + "\n";
  const d = fileDiff("big.txt", before, after);
  strictEqual(d.truncated, true);
  strictEqual(d.added, 3000);
  strictEqual(d.removed, 3000);
  ok(d.hunks.reduce((n, h) => n + h.lines.length, 0) <= 2000);
});

Deno.test("GET /api/session/tool_diff answers one call's diff; unknown calls are 404", async () => {
  const h = await startHarness();
  try {
    h.fake.enqueue(
      {
        toolCalls: [{ id: "call_w", name: "write_file", args: { path: "a.txt", content: "hi\n" } }],
      },
      { text: "Wrote it." },
    );
    await h.stream((await h.start("write a.txt")).stream_id);
    const q = (id: string) => `/api/session/tool_diff?session_id=${h.sessionId}&tool_call_id=${id}`;
    const calls = (await h.call("GET", `/api/session?session_id=${h.sessionId}`)).body.session
      .tool_calls;
    const res = await h.call("GET", q(calls[0].tool_call_id));
    strictEqual(res.status, 200);
    strictEqual(res.body.diff.path, "a.txt");
    deepStrictEqual(res.body.diff.hunks[0].lines, ["+hi"]);
    strictEqual((await h.call("GET", q("nope"))).status, 404);
    strictEqual(
      (await h.call("GET", "/api/session/tool_diff?session_id=" + h.sessionId)).status,
      400,
    );
  } finally {
    await h.close();
  }
});
