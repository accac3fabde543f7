// The run journal: atomic session claims, ordered events, recovery of unfinished runs.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { openDatabaseAt } from "../../lib/storage/db.ts";
import { createSession } from "../../lib/sessions/sessions.ts";
import {
  claimSession,
  createEventAppender,
  finishStream,
  getStream,
  readEvents,
  recoverInterruptedStreams,
} from "../../lib/engine/journal.ts";

function fixture() {
  const db = openDatabaseAt(":memory:");
  let t = 1000;
  const clock = () => t++;
  const session = createSession(db, clock, { workspace: "/tmp" });
  return { db, clock, sid: session.session_id };
}

Deno.test("claimSession() gives a session to one stream at a time", () => {
  const { db, clock, sid } = fixture();
  deepStrictEqual(
    claimSession(db, clock, { streamId: "a".repeat(32), sessionId: sid, turnId: "t1" }),
    { conflict: null },
  );
  deepStrictEqual(
    claimSession(db, clock, { streamId: "b".repeat(32), sessionId: sid, turnId: "t2" }),
    {
      conflict: "a".repeat(32),
    },
  );
  strictEqual(getStream(db, "b".repeat(32)), null);
  strictEqual(
    claimSession(db, clock, { streamId: "c".repeat(32), sessionId: "nope", turnId: "t" }),
    undefined,
  );
  finishStream(db, clock, "a".repeat(32), "done");
  strictEqual(getStream(db, "a".repeat(32))?.status, "done");
  deepStrictEqual(
    claimSession(db, clock, { streamId: "b".repeat(32), sessionId: sid, turnId: "t2" }),
    { conflict: null },
  );
  db.close();
});

Deno.test("readEvents() returns the events after a cursor, in order", () => {
  const { db, clock, sid } = fixture();
  const id = "a".repeat(32);
  claimSession(db, clock, { streamId: id, sessionId: sid, turnId: "t" });
  const append = createEventAppender(db, clock);
  for (let i = 1; i <= 5; i++) append(id, i, { event: "token", data: { text: `t${i}` } });
  deepStrictEqual(readEvents(db, id, 3).map((e) => [e.seq, e.data]), [[4, { text: "t4" }], [5, {
    text: "t5",
  }]]);
  deepStrictEqual(readEvents(db, id).length, 5);
  db.close();
});

Deno.test("recoverInterruptedStreams() closes runs left running and frees their sessions", () => {
  const { db, clock, sid } = fixture();
  const id = "a".repeat(32);
  claimSession(db, clock, { streamId: id, sessionId: sid, turnId: "t" });
  createEventAppender(db, clock)(id, 1, { event: "token", data: { text: "half" } });
  db.prepare(
    "INSERT INTO tool_calls (session_id, tool_call_id, name, status, started_at) VALUES (?, 'c1', 'terminal', 'running', 1)",
  ).run(sid);
  const recovered = recoverInterruptedStreams(db, clock);
  deepStrictEqual(recovered.map((s) => s.stream_id), [id]);
  deepStrictEqual(readEvents(db, id).map((e) => e.event), ["token", "apperror", "stream_end"]);
  strictEqual((readEvents(db, id)[1].data as { type: string }).type, "interrupted");
  strictEqual(getStream(db, id)?.status, "interrupted");
  strictEqual(getStream(db, id)?.last_seq, 3);
  const row = db.prepare("SELECT active_stream_id FROM sessions").get() as {
    active_stream_id: string | null;
  };
  strictEqual(row.active_stream_id, null);
  const tc = db.prepare("SELECT status FROM tool_calls").get() as { status: string };
  strictEqual(tc.status, "error");
  deepStrictEqual(recoverInterruptedStreams(db, clock), []);
  db.close();
});
