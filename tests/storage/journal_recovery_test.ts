// Rebuilding an interrupted run's transcript from its journal: the pure event → message fold,
// the merge with what the periodic writer saved (grow, never duplicate, idempotent), and the
// start-up recovery on a real database.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import type { ChatEvent, SequencedEvent } from "../../lib/shared/chat_events.ts";
import type { StoredMessage } from "../../lib/sessions/messages.ts";
import { appendMessages, listMessages } from "../../lib/sessions/messages.ts";
import { messagesFromJournal, planRecovery } from "../../lib/engine/journal_recovery.ts";
import {
  claimSession,
  createEventAppender,
  recoverInterruptedStreams,
} from "../../lib/engine/journal.ts";
import { openDatabase } from "../../lib/storage/db.ts";
import { createSession } from "../../lib/sessions/sessions.ts";

const tok = (text: string): ChatEvent => ({ event: "token", data: { text } });
const think = (text: string): ChatEvent => ({ event: "reasoning", data: { text } });
const tool = (id: string, args: Record<string, unknown> = { command: "ls" }): ChatEvent => ({
  event: "tool",
  data: { event_type: "tool.started", tool_call_id: id, name: "terminal", preview: "ls", args },
});
const done = (id: string, result: string): ChatEvent => ({
  event: "tool_complete",
  data: {
    event_type: "tool.completed",
    tool_call_id: id,
    name: "terminal",
    preview: "ls",
    args: { command: "ls" },
    duration: 0.1,
    is_error: false,
    result_preview: result,
    status: "completed",
  },
});
const seq = (events: ChatEvent[]): SequencedEvent[] =>
  events.map((e, i) => ({ ...e, seq: i + 1 }) as SequencedEvent);
const call = (id: string) => ({
  id,
  type: "function" as const,
  function: { name: "terminal", arguments: JSON.stringify({ command: "ls" }) },
});
let at = 0;
const row = (m: Partial<StoredMessage> & { role: StoredMessage["role"] }): StoredMessage =>
  ({ content: "", idx: at++, timestamp: 0, ...m }) as StoredMessage;

Deno.test("messagesFromJournal() folds a text → tool → text turn into ordered rows", () => {
  const events = seq([
    { event: "title", data: { session_id: "s", title: "t" } },
    think("plan "),
    tok("Hel"),
    tok("lo"),
    tool("c1"),
    { event: "warning", data: { type: "retrying", message: "x" } },
    done("c1", "a.txt"),
    tool("c2"),
    done("c2", "b.txt"),
    tok("Second "),
    tok("step"),
    tool("c3"),
  ]);
  deepStrictEqual(messagesFromJournal(events), [
    {
      role: "assistant",
      content: "Hello",
      reasoning: "plan ",
      tool_calls: [call("c1"), call("c2")],
    },
    { role: "tool", tool_call_id: "c1", name: "terminal", content: "a.txt" },
    { role: "tool", tool_call_id: "c2", name: "terminal", content: "b.txt" },
    { role: "assistant", content: "Second step", reasoning: "", tool_calls: [call("c3")] },
  ]);
  deepStrictEqual(
    messagesFromJournal(seq([{ event: "title", data: { session_id: "s", title: "t" } }])),
    [],
  );
});

Deno.test("planRecovery() grows the stale tail and leaves saved rows alone", () => {
  at = 1;
  const journal = messagesFromJournal(seq([
    tok("Hello"),
    tool("c1"),
    done("c1", "a.txt"),
    tok("Second step, much longer than saved"),
  ]));
  const stored = [
    row({ role: "assistant", content: "Hello", tool_calls: [call("c1")] }),
    row({ role: "tool", tool_call_id: "c1", name: "terminal", content: "a.txt full" }),
    row({ role: "assistant", content: "Second step" }),
  ];
  deepStrictEqual(planRecovery(stored, journal), {
    updates: [{ idx: 3, content: "Second step, much longer than saved" }],
    appends: [],
  });
  // Applied, the same journal plans nothing (idempotent).
  stored[2].content = "Second step, much longer than saved";
  deepStrictEqual(planRecovery(stored, journal), { updates: [], appends: [] });
  // A saved text ahead of the journal (deltas not yet flushed to it) is never shortened.
  stored[2].content = "Second step, much longer than saved, and more";
  deepStrictEqual(planRecovery(stored, journal), { updates: [], appends: [] });
});

Deno.test("planRecovery() appends a step the writer never saved, after a tools-only step", () => {
  at = 1;
  const journal = messagesFromJournal(seq([
    tok("Look"),
    tool("c1"),
    done("c1", "one"),
    tool("c2"), // a second step that only called a tool: no text separates it from the first
    done("c2", "two"),
    think("hmm"),
    tok("Found it"),
  ]));
  const stored = [
    row({ role: "assistant", content: "Lo" }),
    // (c1 missing from the first message, as if that write had failed)
    row({ role: "tool", tool_call_id: "c1", name: "terminal", content: "one" }),
    row({ role: "assistant", content: "", tool_calls: [call("c2")] }),
  ];
  deepStrictEqual(planRecovery(stored, journal), {
    updates: [{ idx: 1, content: "Look", tool_calls: [call("c1")] }],
    appends: [
      { role: "tool", tool_call_id: "c2", name: "terminal", content: "two" },
      { role: "assistant", content: "Found it", reasoning: "hmm", tool_calls: [] },
    ],
  });
  // Nothing saved at all: every row comes from the journal.
  deepStrictEqual(planRecovery([], journal).appends, journal);
});

Deno.test("recoverInterruptedStreams() rebuilds the transcript from the journal once", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "hermes-jrec-" });
  const db = openDatabase(dir);
  try {
    const clock = () => 1000;
    const session = await createSession(db, clock, { workspace: dir });
    const sid = session.session_id;
    await claimSession(db, clock, { streamId: "st1", sessionId: sid, turnId: "t1" });
    await appendMessages(db, clock, sid, [
      { role: "user", content: "hi", turn_id: "t1" },
      { role: "assistant", content: "Hel", turn_id: "t1" },
    ]);
    const append = createEventAppender(db, clock);
    for (
      const e of seq([tok("Hel"), tok("lo there"), tool("c1"), done("c1", "out"), tok("More")])
    ) {
      await append("st1", e.seq, e);
    }
    await recoverInterruptedStreams(db, clock);
    const msgs = (await listMessages(db, sid)).map((m) => [m.role, m.content]);
    deepStrictEqual(msgs, [
      ["user", "hi"],
      ["assistant", "Hello there"],
      ["tool", "out"],
      ["assistant", "More"],
    ]);
    strictEqual((await listMessages(db, sid))[1].tool_calls?.[0].id, "c1");
    // A second start finds nothing running and changes nothing.
    await recoverInterruptedStreams(db, clock);
    strictEqual((await listMessages(db, sid)).length, 4);
  } finally {
    db.close();
    Deno.removeSync(dir, { recursive: true });
  }
});
