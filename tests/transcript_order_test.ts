// The Activity in the order the turn happened (think → tool → think → tool), interim narration
// kept in its place inside the Activity once the turn has a final answer — the same for a live
// run folded from events and for the stored history after a reload.
import { deepStrictEqual } from "node:assert/strict";
import type { ChatEvent, SequencedEvent } from "../lib/shared/chat_events.ts";
import {
  applyEvent,
  createLiveRun,
  foldMessages,
  type TranscriptMessage,
  type TurnModel,
} from "../lib/shared/transcript_model.ts";
import { orderTurn } from "../lib/shared/transcript_order.ts";

const call = (id: string, command: string) => ({
  id,
  function: { name: "terminal", arguments: JSON.stringify({ command }) },
});

const STORED: TranscriptMessage[] = [
  { idx: 0, role: "user", content: "Fix the failing test", turn_id: "t1" },
  {
    idx: 1,
    role: "assistant",
    content: "I'll start by looking at the test.",
    reasoning: "Which test fails?",
    tool_calls: [call("c1", "deno test")],
    turn_id: "t1",
  },
  { idx: 2, role: "tool", content: "1 failed", tool_call_id: "c1", turn_id: "t1" },
  {
    idx: 3,
    role: "assistant",
    content: "Found it. Patching.",
    reasoning: "Off by one in the loop.",
    tool_calls: [call("c2", "sed -i s/<=/</ a.ts")],
    turn_id: "t1",
  },
  { idx: 4, role: "tool", content: "[exit code 0]", tool_call_id: "c2", turn_id: "t1" },
  { idx: 5, role: "assistant", content: "Fixed: the loop ran one step too far.", turn_id: "t1" },
];

function events(): SequencedEvent[] {
  const tool = (id: string, command: string): ChatEvent => ({
    event: "tool",
    data: {
      event_type: "tool.started",
      tool_call_id: id,
      name: "terminal",
      preview: command,
      args: { command },
    },
  });
  const done = (id: string): ChatEvent => ({
    event: "tool_complete",
    data: {
      event_type: "tool.completed",
      tool_call_id: id,
      name: "terminal",
      preview: "",
      args: {},
      duration: 0.1,
      is_error: false,
      result_preview: "ok",
      status: "completed",
    },
  });
  const list: ChatEvent[] = [
    { event: "reasoning", data: { text: "Which test fails?" } },
    { event: "token", data: { text: "I'll start by looking at the test." } },
    tool("c1", "deno test"),
    done("c1"),
    { event: "reasoning", data: { text: "Off by one in the loop." } },
    { event: "token", data: { text: "Found it. Patching." } },
    tool("c2", "sed -i s/<=/</ a.ts"),
    done("c2"),
    { event: "token", data: { text: "Fixed: the loop ran one step too far." } },
  ];
  return list.map((e, i) => ({ ...e, seq: i + 1 }) as SequencedEvent);
}

/** The steps as readable labels, and the answer's text. */
function shape(turn: TurnModel) {
  const o = orderTurn(turn);
  return {
    steps: o.steps.map((s) =>
      s.kind === "thinking"
        ? `think:${turn.thinking[s.i]}`
        : s.kind === "tool"
        ? `tool:${s.id}`
        : `note:${s.text}`
    ),
    answer: o.answer.map((s) => s.text),
  };
}

const EXPECTED = {
  steps: [
    "think:Which test fails?",
    "note:I'll start by looking at the test.",
    "tool:c1",
    "think:Off by one in the loop.",
    "note:Found it. Patching.",
    "tool:c2",
  ],
  answer: ["Fixed: the loop ran one step too far."],
};

Deno.test("orderTurn() of stored history interleaves thinking, narration and tools in order", () => {
  deepStrictEqual(shape(foldMessages(STORED)[0]), EXPECTED);
});

Deno.test("orderTurn() of a live run gives the same order as the stored history", () => {
  const run = createLiveRun({
    sessionId: "s",
    streamId: "f".repeat(32),
    turnId: "t1",
    user: { idx: null, text: "Fix the failing test", attachments: [] },
  });
  const evs = events();
  // Before the final answer, narration stays visible as prose.
  for (const e of evs.slice(0, -1)) applyEvent(run, e);
  deepStrictEqual(shape(run.turn).answer, [
    "I'll start by looking at the test.",
    "Found it. Patching.",
  ]);
  applyEvent(run, evs.at(-1)!);
  deepStrictEqual(shape(run.turn), EXPECTED);
});
