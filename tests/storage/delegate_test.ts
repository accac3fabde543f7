// The `delegate` tool through the real engine and the fake provider: the parent's model calls
// delegate, the child's model requests come next in the fake's queue, then the parent answers.
// The child sees a fresh context and only its tool subset (never delegate), asks approvals in
// the parent's stream, stops with the parent, and its tokens roll up into the parent's turn.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { startHarness } from "../fixtures/engine_harness.ts";
import type { RecordedRequest } from "../fixtures/fake_provider.ts";
import type { SseEvent } from "../fixtures/sse_client.ts";
import { applyEvent, createLiveRun } from "../../lib/shared/transcript_live.ts";
import type { SequencedEvent } from "../../lib/shared/chat_events.ts";
import { sql } from "../../lib/storage/db.ts";

function toolNames(req: RecordedRequest): string[] {
  return ((req.body.tools ?? []) as Array<{ function?: { name: string }; name?: string }>)
    .map((t) => t.function?.name ?? t.name ?? "");
}

function progress(events: SseEvent[]) {
  return events.filter((e) => e.event === "tool_progress").map((e) => e.data);
}

interface ChildRow {
  session_id: string;
  parent_session_id: string;
  delegate_call_id: string;
  workspace: string;
}

Deno.test("delegate runs a child with a fresh context and a tool subset; its answer and tokens come back", async () => {
  const h = await startHarness();
  try {
    await Deno.writeTextFile(join(h.workspace, "alpha.txt"), "a\n");
    h.fake.enqueue(
      // parent step 1: delegate
      {
        toolCalls: [{
          id: "call_del",
          name: "delegate",
          args: {
            task: "List the workspace files and report them.",
            tools: ["list_directory", "read_file"],
            context: "The user cares about text files.",
          },
        }],
        usage: { input_tokens: 100, output_tokens: 10 },
      },
      // child step 1: list_directory
      {
        toolCalls: [{ id: "child_ls", name: "list_directory", args: { path: "." } }],
        usage: { input_tokens: 50, output_tokens: 5 },
      },
      // child step 2: the report
      { text: "CHILD REPORT: alpha.txt", usage: { input_tokens: 60, output_tokens: 6 } },
      // parent step 2: the answer
      { text: "There is alpha.txt.", usage: { input_tokens: 200, output_tokens: 20 } },
    );
    const { stream_id } = await h.start("PARENT-SECRET-HISTORY: which files are there?");
    const res = await h.stream(stream_id);
    strictEqual(res.events.at(-1)!.event, "stream_end");
    strictEqual(h.fake.chatRequests.length, 4);
    const [parent1, child1, child2, parent2] = h.fake.chatRequests;

    // The parent is offered delegate; the child only its subset, never delegate.
    ok(toolNames(parent1).includes("delegate"));
    deepStrictEqual(toolNames(child1).sort(), ["list_directory", "read_file"]);
    deepStrictEqual(toolNames(child2).sort(), ["list_directory", "read_file"]);

    // Fresh context: the task and context, none of the parent's history.
    const childBody = JSON.stringify(child1.body.messages);
    ok(!childBody.includes("PARENT-SECRET-HISTORY"), "parent history leaked into the child");
    ok(childBody.includes("List the workspace files and report them."));
    ok(childBody.includes("The user cares about text files."));
    ok(JSON.stringify(child2.body.messages).includes("alpha.txt"), "child saw its tool result");

    // The child's final answer is the delegate result the parent model reads.
    ok(JSON.stringify(parent2.body.messages).includes("CHILD REPORT: alpha.txt"));
    const complete = res.events.find((e) =>
      e.event === "tool_complete" && e.data.tool_call_id === "call_del"
    )!.data;
    strictEqual(complete.status, "completed");
    match(complete.result_preview, /CHILD REPORT/);

    // Progress: the child's call, started then completed, under the delegate call.
    const prog = progress(res.events);
    deepStrictEqual(
      prog.map((p) => [p.tool_call_id, p.child.name, p.child.status]),
      [["call_del", "list_directory", "running"], ["call_del", "list_directory", "completed"]],
    );
    strictEqual(prog[0].step, 1);

    // A hidden child session linked to the parent and the call, in the parent's workspace.
    const child = await h.app.ctx.db.all<ChildRow>(
      sql`SELECT session_id, parent_session_id, delegate_call_id, workspace FROM sessions
          WHERE delegate_call_id IS NOT NULL`,
    );
    strictEqual(child.length, 1);
    strictEqual(child[0].parent_session_id, h.sessionId);
    strictEqual(child[0].delegate_call_id, "call_del");
    strictEqual(prog[0].child_session_id, child[0].session_id);
    const parentRow = await h.app.ctx.db.get<{ workspace: string }>(
      sql`SELECT workspace FROM sessions WHERE session_id = ${h.sessionId}`,
    );
    strictEqual(child[0].workspace, parentRow?.workspace);

    // Cost rolls up: the parent's turn shows all four steps; each token is stored once.
    const done = res.events.find((e) => e.event === "done")!.data;
    strictEqual(done.usage.input_tokens, 100 + 50 + 60 + 200);
    strictEqual(done.usage.output_tokens, 10 + 5 + 6 + 20);
    const metering = res.events.find((e) => e.event === "metering")!.data;
    strictEqual(metering.input_tokens, 410);
    const rows = await h.app.ctx.db.all<
      { session_id: string; input_tokens: number; output_tokens: number }
    >(sql`SELECT session_id, input_tokens, output_tokens FROM usage ORDER BY created_at, id`);
    deepStrictEqual(rows.map((r) => [r.session_id, r.input_tokens, r.output_tokens]), [
      [child[0].session_id, 110, 11],
      [h.sessionId, 300, 30],
    ]);
    // The parent session's running totals include the child (what this conversation cost).
    strictEqual(done.session.input_tokens, 410);

    // A settled turn's nested card loads the child's calls from the hidden session.
    const nested = await h.call(
      "GET",
      `/api/session/delegate?session_id=${h.sessionId}&tool_call_id=call_del`,
    );
    strictEqual(nested.status, 200);
    strictEqual(nested.body.child_session_id, child[0].session_id);
    deepStrictEqual(
      nested.body.tool_calls.map((t: { name: string; status: string }) => [t.name, t.status]),
      [["list_directory", "completed"]],
    );
    const none = await h.call(
      "GET",
      `/api/session/delegate?session_id=${h.sessionId}&tool_call_id=nope`,
    );
    strictEqual(none.status, 404);
    match(none.body.error, /ran no sub-task/);

    // The live transcript folds the same events into a nested card under the delegate card.
    const live = createLiveRun({
      sessionId: h.sessionId,
      streamId: stream_id,
      turnId: null,
      user: null,
    });
    for (const e of res.events) applyEvent(live, e as unknown as SequencedEvent);
    const card = live.turn.tools.find((t) => t.id === "call_del")!;
    strictEqual(card.childSessionId, child[0].session_id);
    deepStrictEqual(card.children!.map((t) => [t.id, t.name, t.status]), [
      ["child_ls", "list_directory", "completed"],
    ]);
  } finally {
    await h.close();
  }
});

Deno.test("a child's dangerous command asks in the parent's stream and a deny reaches the child", async () => {
  const h = await startHarness();
  try {
    await Deno.mkdir(join(h.workspace, "build/sub"), { recursive: true });
    h.fake.enqueue(
      {
        toolCalls: [{
          id: "call_del",
          name: "delegate",
          args: { task: "Clean the build directory.", tools: ["terminal"] },
        }],
      },
      { toolCalls: [{ id: "child_rm", name: "terminal", args: { command: "rm -rf build" } }] },
      { text: "I was not allowed to clean it." },
      { text: "The sub-agent could not clean the build." },
    );
    const { stream_id } = await h.start("clean up");
    const statuses: string[] = [];
    const res = await h.stream(stream_id, {
      onEvent: async (e) => {
        if (e.event !== "approval") return;
        const row = await h.app.ctx.db.get<{ status: string }>(
          sql`SELECT status FROM tool_calls WHERE tool_call_id = 'call_del'`,
        );
        statuses.push(row!.status);
        void h.call("POST", "/api/approval/respond", {
          session_id: h.sessionId,
          approval_id: e.data.approval_id,
          choice: "deny",
          message: "not from a sub-agent",
        });
      },
    });
    const approvals = res.events.filter((e) => e.event === "approval");
    strictEqual(approvals.length, 1, "the approval card is in the parent's stream");
    strictEqual(approvals[0].data.command, "rm -rf build");
    deepStrictEqual(statuses, ["awaiting_approval"]);
    // The deny reached the child's model as its tool result; nothing was deleted.
    const childAfter = JSON.stringify(h.fake.chatRequests[2].body.messages);
    match(childAfter, /BLOCKED/);
    match(childAfter, /not from a sub-agent/);
    await Deno.stat(join(h.workspace, "build/sub"));
    // The nested card walks running → needs approval → running → denied.
    deepStrictEqual(progress(res.events).map((p) => [p.child.tool_call_id, p.child.status]), [
      ["child_rm", "running"],
      ["child_rm", "awaiting_approval"],
      ["child_rm", "running"],
      ["child_rm", "denied"],
    ]);
    const childCall = await h.app.ctx.db.get<{ status: string }>(
      sql`SELECT status FROM tool_calls WHERE tool_call_id = 'child_rm'`,
    );
    strictEqual(childCall?.status, "denied");
    strictEqual(res.events.at(-1)!.event, "stream_end");
  } finally {
    await h.close();
  }
});

Deno.test("cancelling the parent cancels the child and its running command", async () => {
  const h = await startHarness();
  try {
    h.fake.enqueue(
      {
        toolCalls: [{
          id: "call_del",
          name: "delegate",
          args: { task: "Wait a while.", tools: ["terminal"] },
        }],
      },
      {
        toolCalls: [{
          id: "child_sleep",
          name: "terminal",
          args: { command: "sleep 30 && touch finished.txt" },
        }],
      },
      { text: "should never be asked for" },
    );
    const { stream_id } = await h.start("wait");
    const res = await h.stream(stream_id, {
      onEvent: (e) => {
        if (e.event === "tool_progress" && e.data.child.status === "running") {
          void h.call("GET", `/api/chat/cancel?stream_id=${stream_id}`);
        }
      },
    });
    strictEqual(res.events.at(-1)!.event, "cancel");
    const child = (await h.app.ctx.db.get<{ session_id: string; active_stream_id: string | null }>(
      sql`SELECT session_id, active_stream_id FROM sessions WHERE delegate_call_id = 'call_del'`,
    ))!;
    const stream = await h.app.ctx.db.get<{ status: string }>(
      sql`SELECT status FROM streams WHERE session_id = ${child.session_id}`,
    );
    strictEqual(stream?.status, "cancelled");
    strictEqual(child.active_stream_id, null);
    const call = await h.app.ctx.db.get<{ status: string }>(
      sql`SELECT status FROM tool_calls WHERE tool_call_id = 'child_sleep'`,
    );
    strictEqual(call?.status, "error");
    // The child asked its model nothing more, and its command never finished.
    await new Promise((r) => setTimeout(r, 200));
    strictEqual(h.fake.chatRequests.length, 2);
    await Deno.stat(join(h.workspace, "finished.txt")).then(
      () => ok(false, "the command should have been killed"),
      () => {},
    );
  } finally {
    await h.close();
  }
});

Deno.test("a child that fails or hits its step cap is a tool result, and the parent carries on", async () => {
  const h = await startHarness({
    yaml: "agent:\n  delegate_max_steps: 1\nprovider_retry:\n  attempts: 1\n",
  });
  try {
    h.fake.enqueue(
      // 1: an unknown tool in the subset is refused before any child starts
      {
        toolCalls: [{
          id: "call_bad",
          name: "delegate",
          args: { task: "x", tools: ["delegate", "no_such_tool"] },
        }],
      },
      // 2: a child whose model fails
      { toolCalls: [{ id: "call_fail", name: "delegate", args: { task: "fail please" } }] },
      { status: 400, error: { message: "child model exploded" } },
      // 3: a child stopped by its cap of one step
      { toolCalls: [{ id: "call_cap", name: "delegate", args: { task: "look around" } }] },
      {
        text: "Partial findings.",
        toolCalls: [{ id: "child_ls", name: "list_directory", args: { path: "." } }],
      },
      { text: "parent is fine" },
    );
    const { stream_id } = await h.start("try delegating");
    const res = await h.stream(stream_id);
    strictEqual(res.events.at(-1)!.event, "stream_end");
    const completes = res.events.filter((e) => e.event === "tool_complete").map((e) => e.data);
    deepStrictEqual(completes.map((c) => [c.tool_call_id, c.status]), [
      ["call_bad", "error"],
      ["call_fail", "error"],
      ["call_cap", "completed"],
    ]);
    match(completes[0].result_preview, /cannot use "delegate", "no_such_tool"/);
    match(completes[1].result_preview, /delegated task failed: .*child model exploded/);
    match(completes[2].result_preview, /cap of 1 model steps/);
    match(completes[2].result_preview, /Partial findings/);
    // A child given no tool list gets all of the parent's tools but delegate (no recursion).
    const capChild = toolNames(h.fake.chatRequests[4]);
    ok(capChild.includes("terminal") && capChild.includes("read_file"), capChild.join(","));
    ok(!capChild.includes("delegate"), "delegate is never offered to a child");
    ok(toolNames(h.fake.chatRequests[3]).includes("delegate"));
    strictEqual(h.fake.chatRequests.length, 6);
    // Only two children were created (the refused call made none).
    const n = await h.app.ctx.db.get<{ n: number | string }>(
      sql`SELECT count(*) AS n FROM sessions WHERE delegate_call_id IS NOT NULL`,
    );
    strictEqual(Number(n?.n), 2);
    const done = res.events.find((e) => e.event === "done");
    ok(done, "the parent finished normally");

    // Deleting the parent deletes its hidden children; a fork's parent link is left alone.
    const fork = await h.call("POST", "/api/session/branch", { session_id: h.sessionId });
    strictEqual(fork.status, 200);
    strictEqual(
      (await h.call("POST", "/api/session/delete", { session_id: h.sessionId })).status,
      200,
    );
    const left = await h.app.ctx.db.get<{ n: number | string }>(
      sql`SELECT count(*) AS n FROM sessions WHERE delegate_call_id IS NOT NULL`,
    );
    strictEqual(Number(left?.n), 0);
    ok(
      await h.app.ctx.db.get(
        sql`SELECT 1 AS one FROM sessions WHERE session_id = ${fork.body.session.session_id}`,
      ),
      "the fork survives",
    );
  } finally {
    await h.close();
  }
});
