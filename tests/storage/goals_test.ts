// Standing goals through the real engine and the OpenAI-compatible fake provider: /goal sets one
// and starts its first turn on the server (answering the run's stream_id); each finished turn is
// judged by the model, asked with the verdict's JSON Schema and read leniently (JSON in prose or a
// code fence, a verdict word), "continue" starts the next turn by itself (goal_continue), three
// turns reach "met"; a "blocked" verdict stops and waits for the user; budgets and stalls pause;
// a pending approval is never continued past; a kickoff that cannot start restores the old goal.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { startHarness } from "../fixtures/engine_harness.ts";
import { readEvents } from "../../lib/engine/journal.ts";
import { type AsyncQueries, sql } from "../../lib/storage/db.ts";
import { createTestApp } from "../helpers.ts";
import { createSession } from "../../lib/sessions/sessions.ts";
import {
  clearGoal,
  DEFAULT_BUDGETS,
  getGoal,
  setGoal,
  updateGoal,
} from "../../lib/goals/goal_store.ts";

const verdict = (v: string, reason: string, progress = true, subgoals: unknown[] = []) => ({
  text: JSON.stringify({ verdict: v, reason, progress, subgoals }),
});

/** How many runs (streams) a session has had. */
async function streamCount(db: AsyncQueries, sessionId: string): Promise<number> {
  const row = await db.get<{ n: number | string }>(
    sql`SELECT count(*) AS n FROM streams WHERE session_id = ${sessionId}`,
  );
  return Number(row?.n ?? 0);
}

// deno-lint-ignore no-explicit-any
type GoalJson = Record<string, any>;

async function waitGoal(
  h: Awaited<ReturnType<typeof startHarness>>,
  until: (g: GoalJson | null) => boolean,
): Promise<GoalJson | null> {
  let g: GoalJson | null = null;
  for (let i = 0; i < 300; i++) {
    g = (await h.call("GET", `/api/goal?session_id=${h.sessionId}`)).body.goal;
    const s = (await h.call("GET", `/api/session?session_id=${h.sessionId}`)).body.session;
    if (until(g) && !s.active_stream_id) return g;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`goal never settled: ${JSON.stringify(g)}`);
}

Deno.test("POST /api/goal starts the kickoff turn; the goal goes continue, continue, met; then a blocked goal stops", async () => {
  const h = await startHarness();
  try {
    // Answers the way real chat models do: the first verdict is JSON inside prose and a code
    // fence, the second only names the verdict, the third is the bare object.
    h.fake.enqueue(
      { text: "Turn 1: wrote hello.txt." },
      {
        text: "Here is my assessment.\n```json\n" +
          JSON.stringify({
            verdict: "continue",
            reason: "the file is not tested yet",
            progress: true,
            subgoals: [
              { title: "write hello.txt", done: true },
              { title: "test it", done: false },
            ],
          }) + "\n```\nLet me know if you need more.",
      },
      { text: "Turn 2: started the test." },
      { text: "**Verdict:** continue. The test has not passed yet." },
      { text: "Turn 3: the test passes." },
      verdict("met", "hello.txt exists and its test passes", true, [
        { title: "write hello.txt", done: true },
        { title: "test it", done: true },
      ]),
    );
    const set = await h.call("POST", "/api/goal", {
      session_id: h.sessionId,
      args: "Write hello.txt and test it",
    });
    strictEqual(set.status, 200);
    strictEqual(set.body.ok, true);
    strictEqual(set.body.action, "set");
    strictEqual(set.body.kickoff_prompt, "Write hello.txt and test it");
    strictEqual(set.body.goal.status, "active");
    // The server started the first turn; the page only follows it.
    ok(set.body.stream_id, JSON.stringify(set.body));
    strictEqual(set.body.session_id, h.sessionId);
    const first = await h.stream(set.body.stream_id);
    ok(first.events.some((e) => e.event === "done"), "the kickoff turn ran");
    const g = await waitGoal(h, (g) => g?.status === "done");
    strictEqual(g!.turns_used, 3);
    strictEqual(g!.last_verdict, "met");
    strictEqual(g!.last_reason, "hello.txt exists and its test passes");
    deepStrictEqual(g!.subgoals.map((s: { done: boolean }) => s.done), [true, true]);
    strictEqual(h.fake.pending, 0, "every scripted response was used");

    const msgs = (await h.call("GET", `/api/session?session_id=${h.sessionId}`)).body.session
      .messages as Array<{ role: string; content: string }>;
    const users = msgs.filter((m) => m.role === "user").map((m) => m.content);
    strictEqual(users.length, 3);
    strictEqual(users[0], "Write hello.txt and test it", "the kickoff prompt was the first turn");
    ok(users[2].includes("The test has not passed yet"), "the prose verdict's reason");
    ok(users[1].startsWith("Continue working toward the goal: Write hello.txt and test it"));
    ok(users[1].includes("the file is not tested yet"));
    // Each continued turn's stream says why it started.
    const streams = await h.app.ctx.db.all<{ stream_id: string }>(
      sql`SELECT stream_id FROM streams WHERE session_id = ${h.sessionId} ORDER BY started_at`,
    );
    strictEqual(streams.length, 3);
    const continues: number[] = [];
    for (const s of streams) {
      const events = await readEvents(h.app.ctx.db, s.stream_id);
      continues.push(events.filter((e) => e.event === "goal_continue").length);
    }
    deepStrictEqual(continues, [0, 1, 1]);
    // The evaluator asked for the verdict, with the goal in its prompt and no tools, and the
    // model saw the schema: as response_format and in the system prompt.
    const evalReq = h.fake.chatRequests[1].body;
    ok(JSON.stringify(evalReq.messages).includes("Goal: Write hello.txt and test it"));
    ok(!evalReq.tools, "the evaluator has no tools");
    strictEqual(evalReq.response_format?.type, "json_schema", JSON.stringify(evalReq));
    deepStrictEqual(evalReq.response_format.json_schema.schema.properties.verdict.enum, [
      "met",
      "continue",
      "blocked",
    ]);
    const system = evalReq.messages.find((m: { role: string }) => m.role === "system").content;
    ok(system.includes('"verdict"') && system.includes('"subgoals"'), system);

    // A second goal: blocked after one turn, no further turn starts.
    h.fake.enqueue(
      { text: "I need the deploy credentials." },
      verdict("blocked", "the deploy credentials are missing", false),
    );
    const run = await h.call("POST", "/api/goal", {
      session_id: h.sessionId,
      args: "Deploy to production",
    });
    await h.stream(run.body.stream_id);
    const b = await waitGoal(h, (g) => g?.status === "blocked");
    strictEqual(b!.paused_reason, "the deploy credentials are missing");
    strictEqual(b!.turns_used, 1);
    await new Promise((r) => setTimeout(r, 100));
    strictEqual(
      await streamCount(h.app.ctx.db, h.sessionId),
      4,
      "no turn started after blocked",
    );
    const status = await h.call("POST", "/api/goal", { session_id: h.sessionId, args: "status" });
    ok(status.body.message.startsWith("⚠ Goal blocked"), status.body.message);
    const cleared = await h.call("POST", "/api/goal", { session_id: h.sessionId, args: "clear" });
    strictEqual(cleared.body.message, "Goal cleared.");
    strictEqual(cleared.body.goal, null);
  } finally {
    await h.close();
  }
});

Deno.test("POST /api/goal answers the stream_id of the kickoff run; a kickoff that cannot start restores the old goal", async () => {
  const h = await startHarness();
  try {
    h.fake.enqueue({ text: "Shipped." }, verdict("met", "it shipped"));
    const set = await h.call("POST", "/api/goal", { session_id: h.sessionId, args: "Ship it" });
    strictEqual(set.status, 200);
    const { stream_id, turn_id, title } = set.body;
    ok(typeof stream_id === "string" && stream_id, JSON.stringify(set.body));
    ok(typeof turn_id === "string" && turn_id);
    strictEqual(title, "Ship it");
    // A run of this session with that id exists, and its stream replays the kickoff turn.
    const row = await h.app.ctx.db.get<{ session_id: string }>(
      sql`SELECT session_id FROM streams WHERE stream_id = ${stream_id}`,
    );
    strictEqual(row?.session_id, h.sessionId);
    const replay = await h.stream(stream_id);
    ok(replay.events.some((e) => e.event === "done"), JSON.stringify(replay.events));
    const g = await waitGoal(h, (g) => g?.status === "done");
    strictEqual(g!.last_verdict, "met");
    strictEqual(h.fake.chatRequests[0].body.messages.at(-1).content, "Ship it");

    // The next goal's first turn is refused (a workspace outside the trusted roots): the answer
    // says why and the goal that was there before is back, untouched.
    const refused = await h.call("POST", "/api/goal", {
      session_id: h.sessionId,
      args: "Another goal",
      workspace: "/definitely/not/a/workspace",
    });
    strictEqual(refused.status, 400, JSON.stringify(refused.body));
    const after = (await h.call("GET", `/api/goal?session_id=${h.sessionId}`)).body.goal;
    deepStrictEqual([after.goal, after.status, after.last_verdict], ["Ship it", "done", "met"]);
    strictEqual(await streamCount(h.app.ctx.db, h.sessionId), 1);

    // With no goal before, a refused kickoff leaves none.
    const other = await h.newSession();
    const none = await h.call("POST", "/api/goal", {
      session_id: other,
      args: "Never started",
      workspace: "/definitely/not/a/workspace",
    });
    strictEqual(none.status, 400);
    strictEqual((await h.call("GET", `/api/goal?session_id=${other}`)).body.goal, null);
  } finally {
    await h.close();
  }
});

Deno.test("an endpoint that refuses response_format json_schema is asked again with the schema in the prompt only", async () => {
  const h = await startHarness();
  try {
    h.fake.enqueue(
      { text: "Done it." },
      { status: 400, error: { message: "response_format type json_schema is unavailable" } },
      { text: "The goal is met: the report exists." },
    );
    const set = await h.call("POST", "/api/goal", { session_id: h.sessionId, args: "Write it" });
    await h.stream(set.body.stream_id);
    const g = await waitGoal(h, (g) => g?.status === "done");
    strictEqual(g!.last_verdict, "met");
    strictEqual(g!.last_reason, "The goal is met: the report exists.");
    const [, structured, plain] = h.fake.chatRequests.map((r) => r.body);
    strictEqual(structured.response_format?.type, "json_schema");
    strictEqual(plain.response_format, undefined);
    const system = plain.messages.find((m: { role: string }) => m.role === "system").content;
    ok(system.includes('"verdict"'), "the schema is in the prompt");
  } finally {
    await h.close();
  }
});

Deno.test("goal budgets: stalls pause the goal; pause/resume; a pending approval is never continued past", async () => {
  const h = await startHarness({ yaml: "goals:\n  max_no_progress: 2\n" });
  try {
    h.fake.enqueue(
      { text: "Tried A." },
      verdict("continue", "no faster yet", false),
      { text: "Tried B." },
      verdict("continue", "still not faster", false),
    );
    const run = await h.call("POST", "/api/goal", {
      session_id: h.sessionId,
      args: "Make it faster",
    });
    await h.stream(run.body.stream_id);
    const g = await waitGoal(h, (g) => g?.status === "paused");
    strictEqual(g!.paused_reason, "no progress in 2 evaluations");
    strictEqual(g!.turns_used, 2);

    const resumed = await h.call("POST", "/api/goal", { session_id: h.sessionId, args: "resume" });
    strictEqual(resumed.body.goal.status, "active");
    strictEqual(resumed.body.goal.turns_used, 0);
    const paused = await h.call("POST", "/api/goal", { session_id: h.sessionId, args: "pause" });
    strictEqual(paused.body.goal.status, "paused");
    // Paused: a turn ends without evaluation or continuation.
    h.fake.enqueue({ text: "ok" });
    const r2 = await h.start("just a question");
    await h.stream(r2.stream_id);
    await new Promise((r) => setTimeout(r, 100));
    strictEqual(h.fake.pending, 0);
    strictEqual(
      (await h.call("GET", `/api/goal?session_id=${h.sessionId}`)).body.goal.status,
      "paused",
    );

    // Active again, with an approval left pending: evaluated, but not continued.
    await h.call("POST", "/api/goal", { session_id: h.sessionId, args: "resume" });
    await h.app.ctx.db.run(
      sql`INSERT INTO approvals (approval_id, session_id, seq, command, description, pattern_key,
         pattern_keys, status, created_at)
         VALUES ('a1', ${h.sessionId}, 1, 'rm -rf x', 'd', 'k', '[]', 'pending', 0)`,
    );
    h.fake.enqueue({ text: "working" }, verdict("continue", "keep going"));
    const r3 = await h.start("go on");
    await h.stream(r3.stream_id);
    await waitGoal(h, (g) => g?.turns_used === 1);
    await new Promise((r) => setTimeout(r, 100));
    strictEqual(
      await streamCount(h.app.ctx.db, h.sessionId),
      4,
      "no turn started while an approval is pending",
    );
    strictEqual((await h.call("POST", "/api/goal", { session_id: "nope", args: "x" })).status, 404);
    strictEqual((await h.call("POST", "/api/goal", { args: "x" })).status, 400);
  } finally {
    await h.close();
  }
});

Deno.test("updateGoal() writes only the fields it is given; a goal carries its own columns", async () => {
  const app = await createTestApp();
  try {
    const db = app.ctx.db;
    const { session_id } = await createSession(db, app.ctx.clock, { workspace: app.workspace });
    strictEqual(await getGoal(db, session_id), null);
    strictEqual(await updateGoal(db, session_id, { status: "paused" }, 2), null, "no goal yet");
    const set = await setGoal(db, session_id, "  Ship it  ", DEFAULT_BUDGETS, 1);
    deepStrictEqual([set.goal, set.status, set.subgoals, set.created_at], [
      "Ship it",
      "active",
      [],
      1,
    ]);
    // Two patches of different fields (the user pausing, the runner counting a turn): neither
    // undoes the other.
    await updateGoal(db, session_id, { status: "paused", paused_reason: "user-paused" }, 2);
    const g = await updateGoal(db, session_id, {
      turns_used: 1,
      subgoals: [{ title: "tests", done: true }],
    }, 3);
    deepStrictEqual(
      [g!.status, g!.paused_reason, g!.turns_used, g!.subgoals, g!.updated_at],
      ["paused", "user-paused", 1, [{ title: "tests", done: true }], 3],
    );
    deepStrictEqual({ ...(await getGoal(db, session_id)) }, { ...g });
    // PostgreSQL's tables also have a `rowid`: it never reaches a Goal.
    ok(!("rowid" in g!), Object.keys(g!).join(", "));
    // A new goal replaces the old one whole.
    const again = await setGoal(db, session_id, "Ship it again", DEFAULT_BUDGETS, 4);
    deepStrictEqual([again.status, again.paused_reason, again.turns_used, again.subgoals], [
      "active",
      null,
      0,
      [],
    ]);
    strictEqual(await clearGoal(db, session_id), true);
    strictEqual(await clearGoal(db, session_id), false);
  } finally {
    await app.close();
  }
});
