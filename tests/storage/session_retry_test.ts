// POST /api/session/retry as the original's clients and black-box tests use it: it answers the
// last user text, takes that message and everything after it out of the transcript (the client
// sends the text again, so it is never there twice), says "No previous message to retry." when
// there is nothing to retry, and two retries at once never cut the same turn. {run: true}, the
// console's own pages, drops only the answer and runs the message again itself.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { type Harness, startHarness } from "../fixtures/engine_harness.ts";

type Msg = { role: string; content: string };

async function imported(h: Harness, messages: Msg[]): Promise<string> {
  const res = await h.call("POST", "/api/session/import", { title: "test", messages });
  strictEqual(res.status, 200, JSON.stringify(res.body));
  return res.body.session.session_id;
}

async function transcript(h: Harness, sessionId: string): Promise<Array<[string, string]>> {
  const res = await h.call("GET", `/api/session?session_id=${sessionId}`);
  return res.body.session.messages.map((m: Msg) => [m.role, m.content]);
}

const FOUR: Msg[] = [
  { role: "user", content: "msg A" },
  { role: "assistant", content: "reply A" },
  { role: "user", content: "msg B" },
  { role: "assistant", content: "reply B" },
];

Deno.test("session/retry answers the last user text and cuts the transcript before it", async () => {
  const h = await startHarness();
  try {
    const sid = await imported(h, [
      { role: "user", content: "first user msg" },
      { role: "assistant", content: "first reply" },
      { role: "user", content: "second user msg" },
      { role: "assistant", content: "second reply" },
      { role: "tool", content: "tool output" },
    ]);
    const res = await h.call("POST", "/api/session/retry", { session_id: sid });
    strictEqual(res.status, 200, JSON.stringify(res.body));
    // Exactly these keys: the original's retry starts no run (no stream_id).
    deepStrictEqual(res.body, {
      ok: true,
      last_user_text: "second user msg",
      removed_count: 3,
    });
    deepStrictEqual(await transcript(h, sid), [["user", "first user msg"], [
      "assistant",
      "first reply",
    ]]);
  } finally {
    await h.close();
  }
});

Deno.test("session/retry then chat/start with its text leaves the message in once", async () => {
  const h = await startHarness();
  try {
    const sid = await imported(h, FOUR);
    const res = await h.call("POST", "/api/session/retry", { session_id: sid });
    strictEqual(res.body.removed_count, 2);
    deepStrictEqual(await transcript(h, sid), [["user", "msg A"], ["assistant", "reply A"]]);
    // The original's client sends the text again, as a new message.
    h.fake.enqueue({ text: "reply B again" });
    h.sessionId = sid;
    await h.stream((await h.start(res.body.last_user_text)).stream_id);
    deepStrictEqual(await transcript(h, sid), [
      ["user", "msg A"],
      ["assistant", "reply A"],
      ["user", "msg B"],
      ["assistant", "reply B again"],
    ]);
  } finally {
    await h.close();
  }
});

Deno.test("session/retry with no user message answers the original's error; bad ids are 4xx", async () => {
  const h = await startHarness();
  try {
    const orphan = await imported(h, [{ role: "assistant", content: "orphan reply" }]);
    const none = await h.call("POST", "/api/session/retry", { session_id: orphan });
    strictEqual(none.status, 200);
    deepStrictEqual(none.body, { error: "No previous message to retry." });
    deepStrictEqual(await transcript(h, orphan), [["assistant", "orphan reply"]]);
    const empty = await h.call("POST", "/api/session/retry", { session_id: h.sessionId });
    deepStrictEqual(empty.body, { error: "No previous message to retry." });

    const unknown = await h.call("POST", "/api/session/retry", { session_id: "nonexistent_zzz" });
    strictEqual(unknown.status, 404);
    ok(String(unknown.body.error).toLowerCase().includes("not found"), unknown.body.error);
    const missing = await h.call("POST", "/api/session/retry", {});
    strictEqual(missing.status, 400);
    ok(missing.body.error);
  } finally {
    await h.close();
  }
});

Deno.test("concurrent session/retry calls each cut a different turn, never the same one twice", async () => {
  const h = await startHarness();
  try {
    const sid = await imported(h, FOUR);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => h.call("POST", "/api/session/retry", { session_id: sid })),
    );
    for (const a of answers) strictEqual(a.status, 200, JSON.stringify(a.body));
    const cut = answers.filter((a) => a.body.ok).map((a) => a.body.last_user_text).sort();
    // Two turns, two cuts: each handed out once (a client would resend each at most once).
    deepStrictEqual(cut, ["msg A", "msg B"]);
    strictEqual(answers.filter((a) => a.body.error === "No previous message to retry.").length, 2);
    deepStrictEqual(await transcript(h, sid), []);

    // A rewind racing a run-retry of the same turn: never both.
    const again = await imported(h, FOUR);
    h.fake.enqueue({ text: "reply B, second take" });
    const [plain, run] = await Promise.all([
      h.call("POST", "/api/session/retry", { session_id: again }),
      h.call("POST", "/api/session/retry", { session_id: again, run: true }),
    ]);
    const cutB = (a: { status: number; body: Record<string, unknown> }) =>
      a.status === 200 && a.body.last_user_text === "msg B";
    ok(!(cutB(plain) && cutB(run)), `both took msg B: ${JSON.stringify([plain.body, run.body])}`);
    if (run.status === 200) await h.stream(run.body.stream_id);
    const users = (await transcript(h, again)).filter(([role]) => role === "user");
    ok(users.filter(([, text]) => text === "msg B").length <= 1, JSON.stringify(users));
  } finally {
    await h.close();
  }
});

Deno.test("session/retry takes the removed turn's tool calls with it", async () => {
  const h = await startHarness();
  try {
    h.fake.enqueue(
      { text: "Looking.", toolCalls: [{ name: "list_directory", args: {} }] },
      { text: "done" },
    );
    await h.stream((await h.start("list it")).stream_id);
    const before = await h.call("GET", `/api/session?session_id=${h.sessionId}`);
    strictEqual(before.body.session.tool_calls.length, 1);
    const res = await h.call("POST", "/api/session/retry", { session_id: h.sessionId });
    deepStrictEqual([res.body.last_user_text, res.body.removed_count], ["list it", 4]);
    const after = await h.call("GET", `/api/session?session_id=${h.sessionId}`);
    deepStrictEqual([after.body.session.messages, after.body.session.tool_calls], [[], []]);
  } finally {
    await h.close();
  }
});
