// The transcript model: stored messages and live events folded into the turns the console
// shows. The last test runs a real agent turn (fake provider, real engine) and checks that the
// live fold of its events and the settled fold of its stored messages tell the same story.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import type { ChatEvent, SequencedEvent } from "../lib/shared/chat_events.ts";
import {
  activitySummary,
  applyEvent,
  createLiveRun,
  failedTools,
  foldMessages,
  type LiveRun,
  parseTodoResult,
  RESULT_CLIP,
  type TranscriptMessage,
  turnStart,
} from "../lib/shared/transcript_model.ts";
import { startHarness, waitFor } from "./fixtures/engine_harness.ts";

const call = (id: string, name: string, args: unknown) => ({
  id,
  type: "function",
  function: { name, arguments: JSON.stringify(args) },
});

const HISTORY: TranscriptMessage[] = [
  { idx: 0, role: "system", content: "You are Hermes." },
  { idx: 1, role: "user", content: "Why does the upload test fail?", turn_id: "t1" },
  {
    idx: 2,
    role: "assistant",
    content: "Let me look.",
    reasoning: "Probably a race.",
    tool_calls: [
      call("c1", "read_file", { path: "lib/upload.ts" }),
      call("c2", "terminal", { command: "rm -rf build/" }),
    ],
    turn_id: "t1",
  },
  { idx: 3, role: "tool", tool_call_id: "c1", content: "export function upload() {}" },
  { idx: 4, role: "tool", tool_call_id: "c2", content: "BLOCKED: the command was not approved" },
  {
    idx: 5,
    role: "assistant",
    content: "",
    tool_calls: [call("c3", "todo", { todos: [{ id: "1", content: "Fix" }] })],
  },
  {
    idx: 6,
    role: "tool",
    tool_call_id: "c3",
    content: "[x] 1. Fix the race\n[>] 2. Add a test\n(1/2 completed)",
  },
  { idx: 7, role: "assistant", content: "The temp file name races." },
  {
    idx: 8,
    role: "user",
    content: [{ type: "text", text: "Thanks" }],
    attachments: [{ filename: "log.txt" }],
  },
  { idx: 9, role: "assistant", content: "You're welcome." },
];

Deno.test("foldMessages() makes one turn per user message with its activity and prose", () => {
  const turns = foldMessages(HISTORY);
  strictEqual(turns.length, 2);
  const [a, b] = turns;
  strictEqual(a.key, "t1", "the turn id is the disclosure key");
  deepStrictEqual(a.user, { idx: 1, text: "Why does the upload test fail?", attachments: [] });
  deepStrictEqual(a.thinking, ["Probably a race."]);
  deepStrictEqual(a.segments.map((s) => [s.key, s.text]), [
    ["m2", "Let me look."],
    ["m7", "The temp file name races."],
  ]);
  deepStrictEqual(a.tools.map((t) => [t.name, t.target, t.status]), [
    ["read_file", "lib/upload.ts", "completed"],
    ["terminal", "rm -rf build/", "denied"],
    ["todo", "1 item", "completed"],
  ]);
  strictEqual(a.tools[0].args, '{\n  "path": "lib/upload.ts"\n}');
  strictEqual(a.tools[0].result, "export function upload() {}");
  deepStrictEqual(a.todos, [
    { id: "1", content: "Fix the race", status: "completed" },
    { id: "2", content: "Add a test", status: "in_progress" },
  ]);
  deepStrictEqual(failedTools(a).map((t) => t.id), ["c2"]);
  strictEqual(b.key, "i8", "without a turn id the user message idx is the key");
  deepStrictEqual(b.user, { idx: 8, text: "Thanks", attachments: ["log.txt"] });
  deepStrictEqual(b.tools, []);
});

Deno.test("foldMessages() takes statuses and whole results from the session's tool_calls", () => {
  const long = "x".repeat(RESULT_CLIP + 500);
  const turns = foldMessages(HISTORY.slice(0, 5), [
    { tool_call_id: "c1", status: "error", result: long, duration: 1.5 },
    { tool_call_id: "c2", status: "completed", result: "ok" },
  ]);
  const [read, term] = turns[0].tools;
  strictEqual(read.status, "error", "the record wins over the result's wording");
  strictEqual(read.duration, 1.5);
  strictEqual(read.result!.length, RESULT_CLIP, "results are clipped for the page");
  strictEqual(read.resultChars, RESULT_CLIP + 500, "the full length is kept for 'show full'");
  strictEqual(term.status, "completed");
});

Deno.test("foldMessages() gives a page that starts mid-turn a turn without a user message", () => {
  const turns = foldMessages(HISTORY.slice(3));
  strictEqual(turns.length, 2);
  strictEqual(turns[0].user, null);
  strictEqual(turns[0].key, "r3");
  deepStrictEqual(turns[0].segments.map((s) => s.text), ["The temp file name races."]);
});

Deno.test("turnStart() cuts a page at its first user message", () => {
  strictEqual(turnStart(HISTORY.slice(1)), 0);
  strictEqual(turnStart(HISTORY.slice(3)), 5, "rows 3–7 belong to the older turn");
  strictEqual(turnStart(HISTORY.slice(3, 7)), 0, "no user message: keep the page whole");
  strictEqual(turnStart([]), 0);
});

Deno.test("parseTodoResult() reads the todo tool's plan text", () => {
  deepStrictEqual(parseTodoResult("[-] a. Dropped\n[ ] b. Later\n(0/2 completed)"), [
    { id: "a", content: "Dropped", status: "cancelled" },
    { id: "b", content: "Later", status: "pending" },
  ]);
  strictEqual(parseTodoResult("The plan is empty."), null);
});

Deno.test("activitySummary() is terse: a tool count, never tool names or the thinking area", () => {
  strictEqual(activitySummary(false, 4), "Activity: 4 tools");
  strictEqual(activitySummary(true, 1), "Activity: 1 tool");
  strictEqual(activitySummary(true, 0), "Activity: thinking");
  strictEqual(activitySummary(false, 0), "Activity: plan");
});

function sequence(events: ChatEvent[]): SequencedEvent[] {
  return events.map((e, i) => ({ ...e, seq: i + 1 }) as SequencedEvent);
}

const tool = (id: string, name: string, args: Record<string, unknown>): ChatEvent => ({
  event: "tool",
  data: {
    event_type: "tool.started",
    tool_call_id: id,
    name,
    preview: String(Object.values(args)[0]),
    args,
  },
});
const toolDone = (
  id: string,
  name: string,
  status: "completed" | "error" | "denied",
  result: string,
): ChatEvent => ({
  event: "tool_complete",
  data: {
    event_type: "tool.completed",
    tool_call_id: id,
    name,
    preview: "",
    args: {},
    duration: 0.25,
    is_error: status !== "completed",
    result_preview: result,
    status,
  },
});

const RUN_EVENTS = sequence([
  { event: "title", data: { session_id: "s", title: "Upload race" } },
  { event: "reasoning", data: { text: "Check the " } },
  { event: "reasoning", data: { text: "handler." } },
  { event: "token", data: { text: "Let me " } },
  { event: "token", data: { text: "look." } },
  tool("c1", "terminal", { command: "rm -rf build/" }),
  {
    event: "approval",
    data: {
      approval_id: "a1",
      command: "rm -rf build/",
      description: "recursive delete",
      pattern_key: "rm_recursive",
      pattern_keys: ["rm_recursive"],
      pending_count: 1,
    },
  },
  { event: "approval_resolved", data: { approval_id: "a1", choice: "once", pending_count: 0 } },
  toolDone("c1", "terminal", "completed", "[exit code 0]"),
  { event: "warning", data: { type: "retrying", message: "Rate limited; retrying in 2 s" } },
  { event: "reasoning", data: { text: "Now answer." } },
  { event: "token", data: { text: "Done: " } },
  { event: "token", data: { text: "fixed." } },
  {
    event: "done",
    data: { session: { tool_calls: [] }, usage: { input_tokens: 1, output_tokens: 2 } },
  },
  { event: "stream_end", data: { session_id: "s" } },
]);

function live(): LiveRun {
  return createLiveRun({
    sessionId: "s",
    streamId: "f".repeat(32),
    turnId: "t9",
    user: { idx: null, text: "Fix it", attachments: [] },
  });
}

Deno.test("applyEvent() folds a run: prose split at tools, thinking per step, approval", async (t) => {
  const run = live();
  const changes = RUN_EVENTS.map((e) => applyEvent(run, e));
  await t.step("text grows in place; a new step's text starts a new segment", () => {
    deepStrictEqual(run.turn.segments.map((s) => s.text), ["Let me look.", "Done: fixed."]);
    deepStrictEqual(changes.slice(3, 5), ["structure", "text"]);
  });
  await t.step("reasoning of each step is one thinking entry", () => {
    deepStrictEqual(run.turn.thinking, ["Check the handler.", "Now answer."]);
  });
  await t.step("the tool ends completed and the approval is gone", () => {
    deepStrictEqual(run.turn.tools.map((x) => [x.name, x.target, x.status, x.result]), [
      ["terminal", "rm -rf build/", "completed", "[exit code 0]"],
    ]);
    strictEqual(run.approval, null);
    strictEqual(run.retrying, null, "the retry notice clears when output resumes");
  });
  await t.step("the run ends done with its title; stream_end is the end", () => {
    strictEqual(run.phase, "done");
    strictEqual(run.ended, true);
    strictEqual(run.title, "Upload race");
    strictEqual(changes.at(-1), "end");
    deepStrictEqual(run.turn.notices, []);
  });
});

Deno.test("applyEvent() ignores replayed events, so a resumed journal never doubles text", () => {
  const once = live();
  for (const e of RUN_EVENTS) applyEvent(once, e);
  const replayed = live();
  // A reload after seq 5, then the whole journal again from 0, then a resume from seq 9.
  for (const e of RUN_EVENTS.slice(0, 5)) applyEvent(replayed, e);
  for (const e of RUN_EVENTS) applyEvent(replayed, e);
  for (const e of RUN_EVENTS.slice(8)) strictEqual(applyEvent(replayed, e), "none");
  deepStrictEqual(replayed.turn, once.turn);
  strictEqual(replayed.seq, RUN_EVENTS.length);
});

Deno.test("applyEvent() marks the waiting tool and keeps the approval until it is answered", () => {
  const run = live();
  for (const e of RUN_EVENTS.slice(0, 7)) applyEvent(run, e);
  strictEqual(run.approval?.approval_id, "a1");
  strictEqual(run.turn.tools[0].status, "awaiting_approval");
  applyEvent(run, RUN_EVENTS[7]);
  strictEqual(run.turn.tools[0].status, "running");
});

Deno.test("applyEvent() ends a cancelled run with a notice and no tool left running", () => {
  const run = live();
  const events = sequence([
    tool("c1", "terminal", { command: "sleep 100" }),
    { event: "clarify", data: { clarify_id: "q1", question: "Which branch?", choices: ["main"] } },
    { event: "cancel", data: { message: "Cancelled by user", type: "cancelled" } },
  ]);
  for (const e of events) applyEvent(run, e);
  strictEqual(run.phase, "cancelled");
  strictEqual(run.clarify, null, "nothing can answer a question of a stopped run");
  strictEqual(run.turn.tools[0].status, "error");
  deepStrictEqual(run.turn.notices.map((n) => n.kind), ["cancelled"]);
});

Deno.test("applyEvent() turns an apperror into a titled error notice with its hint", () => {
  const run = live();
  applyEvent(run, {
    event: "apperror",
    seq: 1,
    data: { type: "rate_limit", message: "429 from the provider", hint: "Wait a minute." },
  });
  strictEqual(run.phase, "error");
  deepStrictEqual(run.turn.notices, [{
    kind: "error",
    title: "Rate limited",
    message: "429 from the provider",
    hint: "Wait a minute.",
  }]);
});

Deno.test("applyEvent() keeps the clarify question until the clarify tool completes", () => {
  const run = live();
  const events = sequence([
    tool("c1", "clarify", { question: "Which branch?" }),
    {
      event: "clarify",
      data: { clarify_id: "q1", question: "Which branch?", choices: ["main", "dev"] },
    },
  ]);
  for (const e of events) applyEvent(run, e);
  deepStrictEqual(run.clarify, {
    clarify_id: "q1",
    question: "Which branch?",
    choices: ["main", "dev"],
  });
  applyEvent(run, { ...toolDone("c1", "clarify", "completed", "main"), seq: 3 } as SequencedEvent);
  strictEqual(run.clarify, null);
});

Deno.test("a real run: the live fold of its events matches the fold of its stored messages", async () => {
  const h = await startHarness();
  try {
    await Deno.writeTextFile(`${h.workspace}/notes.md`, "# Notes\nuse a unique temp name\n");
    h.fake.enqueue(
      {
        reasoning: "Read the notes first.",
        text: "Reading the notes.",
        toolCalls: [
          { name: "read_file", args: { path: "notes.md" } },
          { name: "read_file", args: { path: "missing.md" } },
        ],
      },
      { text: "Use a **unique** temp name.\n\n| a | b |\n|---|---|\n| 1 | 2 |" },
    );
    const started = await h.start("How do I fix the race?");
    const sse = await h.stream(started.stream_id);
    const run = createLiveRun({
      sessionId: h.sessionId,
      streamId: started.stream_id,
      turnId: started.turn_id,
      user: { idx: null, text: "How do I fix the race?", attachments: [] },
    });
    for (const e of sse.events) applyEvent(run, e as SequencedEvent);
    strictEqual(run.phase, "done");
    await waitFor(async () =>
      !(await h.call("GET", `/api/session?session_id=${h.sessionId}&messages=0`)).body.session
        .is_streaming
    );
    const { body } = await h.call("GET", `/api/session?session_id=${h.sessionId}`);
    const [settled] = foldMessages(body.session.messages, body.session.tool_calls);
    strictEqual(settled.key, run.turn.key, "the same disclosure key live and settled");
    deepStrictEqual(run.turn.segments.map((s) => s.text), settled.segments.map((s) => s.text));
    deepStrictEqual(run.turn.thinking, settled.thinking);
    const shape = (x: typeof settled) =>
      x.tools.map((t) => [t.id, t.name, t.target, t.status, t.args]);
    deepStrictEqual(shape(run.turn), shape(settled));
    deepStrictEqual(run.turn.tools.map((t) => t.status), ["completed", "error"]);
    ok(settled.tools[0].result!.includes("unique temp name"));
  } finally {
    await h.close();
  }
});
