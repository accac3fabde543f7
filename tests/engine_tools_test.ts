// Multi-step tool turns end to end: the model calls real tools (files in the workspace), the
// engine runs them, feeds results back and continues; unknown tools and invalid arguments go
// back to the model as errors and the run carries on. Both wire protocols.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { startHarness } from "./fixtures/engine_harness.ts";
import { tokenText } from "./fixtures/sse_client.ts";
import { sql } from "../lib/storage/db.ts";

for (const protocol of ["openai", "anthropic", "openai-native"] as const) {
  Deno.test(`a multi-tool turn over ${protocol} runs tools, feeds results back and finishes`, async () => {
    const h = await startHarness({ protocol });
    try {
      h.fake.enqueue(
        {
          text: "I'll write the file first.",
          toolCalls: [
            {
              id: "call_w",
              name: "write_file",
              args: { path: "notes/hello.txt", content: "hi there\n" },
              argChunks: 7,
            },
            { id: "call_l", name: "list_directory", args: { path: "notes" } },
            { id: "call_x", name: "no_such_tool", args: { a: 1 } },
            { id: "call_r", name: "read_file", args: { wrong: true } },
          ],
        },
        {
          toolCalls: [{
            id: "call_r2",
            name: "read_file",
            args: { path: "notes/hello.txt" },
            argChunks: 9,
          }],
        },
        { text: "Done: the file says hi there." },
      );
      const { stream_id } = await h.start("Create notes/hello.txt and read it back");
      const res = await h.stream(stream_id);
      const names = res.events.map((e) => e.event);
      deepStrictEqual(names.filter((n) => n === "tool" || n === "tool_complete"), [
        "tool",
        "tool_complete",
        "tool",
        "tool_complete",
        "tool",
        "tool_complete",
        "tool",
        "tool_complete",
        "tool",
        "tool_complete",
      ]);
      deepStrictEqual(names.slice(-3), ["metering", "done", "stream_end"]);
      strictEqual(tokenText(res.events), "I'll write the file first.Done: the file says hi there.");

      const completes = res.events.filter((e) => e.event === "tool_complete").map((e) => e.data);
      deepStrictEqual(completes.map((c) => [c.name, c.is_error, c.status]), [
        ["write_file", false, "completed"],
        ["list_directory", false, "completed"],
        ["no_such_tool", true, "error"],
        ["read_file", true, "error"],
        ["read_file", false, "completed"],
      ]);
      match(completes[2].result_preview, /unknown tool|Unknown tool/i);
      match(completes[4].result_preview, /hi there/);
      const started = res.events.find((e) => e.event === "tool")!.data;
      deepStrictEqual(started.args, { path: "notes/hello.txt", content: "hi there\n" });
      strictEqual(started.preview, "notes/hello.txt");
      strictEqual(started.event_type, "tool.started");

      strictEqual(await Deno.readTextFile(join(h.workspace, "notes/hello.txt")), "hi there\n");

      // The tool results went back to the model, paired with their calls.
      strictEqual(h.fake.chatRequests.length, 3);
      const second = JSON.stringify(h.fake.chatRequests[1].body);
      for (const id of ["call_w", "call_l", "call_x", "call_r"]) {
        ok(second.includes(id), `${id} in request 2`);
      }
      ok(JSON.stringify(h.fake.chatRequests[2].body).includes("hi there"));
      // Tools are declared with JSON schemas.
      const tools = h.fake.chatRequests[0].body.tools as Array<Record<string, unknown>>;
      const toolNames = tools.map((t) =>
        (t.function as { name: string } | undefined)?.name ?? t.name
      );
      for (const n of ["read_file", "write_file", "terminal"]) {
        ok(toolNames.includes(n), `${n} offered`);
      }

      // Transcript and tool_calls rows agree with the events.
      const done = res.events.find((e) => e.event === "done")!.data.session;
      deepStrictEqual(done.messages.map((m: { role: string }) => m.role), [
        "user",
        "assistant",
        "tool",
        "tool",
        "tool",
        "tool",
        "assistant",
        "tool",
        "assistant",
      ]);
      strictEqual(done.messages[1].tool_calls.length, 4);
      strictEqual(done.messages[1].content, "I'll write the file first.");
      strictEqual(done.messages.at(-1).content, "Done: the file says hi there.");
      const rows = await h.app.ctx.db.all<{ tool_call_id: string; status: string }>(
        sql`SELECT tool_call_id, status FROM tool_calls ORDER BY started_at, rowid`,
      );
      deepStrictEqual(rows.map((r) => [r.tool_call_id, r.status]), [
        ["call_w", "completed"],
        ["call_l", "completed"],
        ["call_x", "error"],
        ["call_r", "error"],
        ["call_r2", "completed"],
      ]);
      strictEqual(done.tool_calls.length, 5);
      const usage = await h.app.ctx.db.get<{ tool_count: number }>(
        sql`SELECT tool_count FROM usage`,
      );
      strictEqual(usage?.tool_count, 5);
    } finally {
      await h.close();
    }
  });
}

Deno.test("a provider that reuses tool call ids gets unique ids per session", async () => {
  const h = await startHarness();
  try {
    h.fake.enqueue(
      { toolCalls: [{ id: "call_0", name: "list_directory", args: {} }] },
      { text: "first" },
      { toolCalls: [{ id: "call_0", name: "list_directory", args: {} }] },
      { text: "second" },
    );
    await h.stream((await h.start("one")).stream_id);
    const res = await h.stream((await h.start("two")).stream_id);
    const ids = res.events.filter((e) => e.event === "tool").map((e) => e.data.tool_call_id);
    deepStrictEqual(ids, ["call_0_2"]);
    const last = h.fake.chatRequests[3].body.messages as Array<Record<string, unknown>>;
    deepStrictEqual(last.filter((m) => m.role === "tool").map((m) => m.tool_call_id), [
      "call_0",
      "call_0_2",
    ]);
  } finally {
    await h.close();
  }
});

Deno.test("a dangerous command waits for approval: approved runs it, denied is reported to the model", async () => {
  const h = await startHarness();
  try {
    await Deno.mkdir(join(h.workspace, "build/sub"), { recursive: true });
    h.fake.enqueue(
      { toolCalls: [{ id: "call_ok", name: "terminal", args: { command: "rm -rf build" } }] },
      { toolCalls: [{ id: "call_no", name: "terminal", args: { command: "rm -rf build2" } }] },
      { text: "all done" },
    );
    const { stream_id } = await h.start("clean the build");
    const statuses: string[] = [];
    let answered = 0;
    const res = await h.stream(stream_id, {
      onEvent: async (e) => {
        if (e.event !== "approval") return;
        const row = await h.app.ctx.db.get<{ status: string }>(
          sql`SELECT status FROM tool_calls ORDER BY started_at DESC, rowid DESC LIMIT 1`,
        );
        statuses.push(row!.status);
        const choice = answered++ === 0 ? "once" : "deny";
        void h.call("POST", "/api/approval/respond", {
          session_id: h.sessionId,
          approval_id: e.data.approval_id,
          choice,
          ...(choice === "deny" ? { message: "not that one" } : {}),
        });
      },
    });
    deepStrictEqual(statuses, ["awaiting_approval", "awaiting_approval"]);
    const completes = res.events.filter((e) => e.event === "tool_complete").map((e) => e.data);
    deepStrictEqual(completes.map((c) => [c.tool_call_id, c.status]), [["call_ok", "completed"], [
      "call_no",
      "denied",
    ]]);
    strictEqual(completes[1].is_error, true);
    await Deno.stat(join(h.workspace, "build")).then(
      () => ok(false, "build should be gone"),
      () => {},
    );
    ok(
      JSON.stringify(h.fake.chatRequests[2].body).includes("not that one"),
      "the deny message reaches the model",
    );
    strictEqual(res.events.at(-1)!.event, "stream_end");
  } finally {
    await h.close();
  }
});
