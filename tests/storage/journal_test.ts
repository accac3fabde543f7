// The run journal: atomic session claims, ordered events, recovery of unfinished runs.
import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { type Db, openDatabaseAt, sql, type SqlQuery } from "../../lib/storage/db.ts";
import { ConflictError, NotFoundError } from "../../lib/errors.ts";
import { createSession } from "../../lib/sessions/sessions.ts";
import {
  claimSession,
  createEventAppender,
  finishStream,
  getStream,
  readEvents,
  recoverInterruptedStreams,
} from "../../lib/engine/journal.ts";

async function fixture() {
  const db = openDatabaseAt(":memory:");
  let t = 1000;
  const clock = () => t++;
  const session = await createSession(db, clock, { workspace: "/tmp" });
  return { db, clock, sid: session.session_id };
}

Deno.test("claimSession() gives a session to one stream at a time", async () => {
  const { db, clock, sid } = await fixture();
  deepStrictEqual(
    await claimSession(db, clock, { streamId: "a".repeat(32), sessionId: sid, turnId: "t1" }),
    { ok: true },
  );
  deepStrictEqual(
    await claimSession(db, clock, { streamId: "b".repeat(32), sessionId: sid, turnId: "t2" }),
    { ok: false, conflict: "a".repeat(32) },
  );
  strictEqual(await getStream(db, "b".repeat(32)), null);
  await rejects(
    claimSession(db, clock, { streamId: "c".repeat(32), sessionId: "nope", turnId: "t" }),
    (err) => err instanceof NotFoundError && err.message === 'Session "nope" not found',
  );
  strictEqual(await getStream(db, "c".repeat(32)), null);
  await finishStream(db, clock, "a".repeat(32), "done");
  strictEqual((await getStream(db, "a".repeat(32)))?.status, "done");
  deepStrictEqual(
    await claimSession(db, clock, { streamId: "b".repeat(32), sessionId: sid, turnId: "t2" }),
    { ok: true },
  );
  db.close();
});

/**
 * Race claims for each of `sessions` (one claim per claimer, all at once) and check each session
 * went to exactly one of them, that every loser was told the winner's stream, and that only the
 * winner's run was recorded. Returns the winners' streams.
 */
async function raceClaims(
  claimers: Db[],
  check: Db,
  clock: () => number,
  sessions: string[],
  round: number,
): Promise<string[]> {
  const attempts = sessions.flatMap((sid, i) =>
    claimers.map((db, c) => {
      const streamId = `r${round}s${i}c${c}`.padEnd(32, "0");
      return claimSession(db, clock, { streamId, sessionId: sid, turnId: `t${round}` })
        .then((claim) => ({ sid, streamId, claim }));
    })
  );
  const results = await Promise.all(attempts);
  const winners: string[] = [];
  for (const sid of sessions) {
    const mine = results.filter((r) => r.sid === sid);
    const won = mine.filter((r) => r.claim.ok);
    strictEqual(won.length, 1, `exactly one claim of ${sid} wins: ${JSON.stringify(mine)}`);
    const winner = won[0].streamId;
    for (const lost of mine.filter((r) => !r.claim.ok)) {
      deepStrictEqual(lost.claim, { ok: false, conflict: winner }, "the loser names the winner");
      strictEqual(await getStream(check, lost.streamId), null, "a lost claim records no run");
    }
    strictEqual((await getStream(check, winner))?.status, "running");
    const row = await check.get<{ active_stream_id: string }>(
      sql`SELECT active_stream_id FROM sessions WHERE session_id = ${sid}`,
    );
    strictEqual(row?.active_stream_id, winner);
    winners.push(winner);
  }
  return winners;
}

Deno.test("claimSession() racing itself: exactly one claim wins, the other names the winner", async () => {
  const db = openDatabaseAt(":memory:");
  try {
    let t = 1000;
    const clock = () => t++;
    const sessions: string[] = [];
    for (let i = 0; i < 8; i++) {
      sessions.push((await createSession(db, clock, { workspace: "/tmp" })).session_id);
    }
    for (let round = 1; round <= 3; round++) {
      const winners = await raceClaims([db, db], db, clock, sessions, round);
      for (const w of winners) await finishStream(db, clock, w, "done");
    }
  } finally {
    db.close();
  }
});

Deno.test("claimSession() from two databases opened on one (two replicas): one winner each time", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hermes-claim-" });
  const path = join(dir, "hermes.db");
  const a = openDatabaseAt(path);
  // Two connections to one SQLite file in one thread would wait on each other's lock (the
  // busy timeout blocks the thread the other needs): replicas are a PostgreSQL setup.
  const b = a.backend === "postgres" ? openDatabaseAt(path) : undefined;
  try {
    if (!b) return;
    let t = 1000;
    const clock = () => t++;
    const sessions: string[] = [];
    for (let i = 0; i < 8; i++) {
      sessions.push((await createSession(a, clock, { workspace: "/tmp" })).session_id);
    }
    for (let round = 1; round <= 3; round++) {
      const winners = await raceClaims([a, b], b, clock, sessions, round);
      for (const w of winners) await finishStream(a, clock, w, "done");
    }
  } finally {
    b?.close();
    a.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * `db` as seen by a claimer that loses its first `losses` claims to runs which finish before it
 * looks (its conditional UPDATE changes nothing, yet the session reads free). The claim's only
 * `all` call is that UPDATE.
 */
function outrunBy(db: Db, losses: number): Db {
  let lost = 0;
  return {
    backend: db.backend,
    owner: db,
    ready: () => db.ready(),
    close: () => db.close(),
    all: <R>(q: SqlQuery) => lost++ < losses ? Promise.resolve([] as R[]) : db.all<R>(q),
    get: (q) => db.get(q),
    run: (q) => db.run(q),
    transaction: (fn, opts) => db.transaction(fn, opts),
  } as Db;
}

Deno.test("claimSession() claims again when the run it lost to has already finished", async () => {
  const { db, clock, sid } = await fixture();
  try {
    deepStrictEqual(
      await claimSession(outrunBy(db, 1), clock, {
        streamId: "a".repeat(32),
        sessionId: sid,
        turnId: "t",
      }),
      { ok: true },
    );
    strictEqual((await getStream(db, "a".repeat(32)))?.status, "running");
    await finishStream(db, clock, "a".repeat(32), "done");
    // Outrun every time: a 409 that says so, never a conflict without a stream to name.
    await rejects(
      claimSession(outrunBy(db, 99), clock, {
        streamId: "b".repeat(32),
        sessionId: sid,
        turnId: "t",
      }),
      (err) => err instanceof ConflictError && /was taken and freed 3 times/.test(err.message),
    );
    strictEqual(await getStream(db, "b".repeat(32)), null);
  } finally {
    db.close();
  }
});

Deno.test("claimSession() holds no lock between its statements: another write to sessions mid-claim goes through", async () => {
  const { db, clock, sid } = await fixture();
  try {
    // Right after the conditional UPDATE, this process writes to sessions on the database
    // itself, not the claim's handle (as another request's handler would), and the claim waits
    // for that write. Had the claim left a transaction open, that write would wait for it (its
    // locks on PostgreSQL, the one connection on SQLite) while the claim waits for the write: a
    // deadlock.
    let other = "";
    const afterUpdate = async <R>(rows: R[]): Promise<R[]> => {
      other ||= (await createSession(db, clock, { workspace: "/tmp" })).session_id;
      return rows;
    };
    const meddling: Db = {
      backend: db.backend,
      owner: db,
      ready: () => db.ready(),
      close: () => db.close(),
      all: <R>(q: SqlQuery) => db.all<R>(q).then(afterUpdate),
      get: (q) => db.get(q),
      run: (q) => db.run(q),
      transaction: (fn, opts) =>
        db.transaction((tx) =>
          fn({
            ...tx,
            backend: tx.backend,
            owner: tx.owner,
            all: <R>(q: SqlQuery) => tx.all<R>(q).then(afterUpdate),
            get: (q) => tx.get(q),
            run: (q) => tx.run(q),
            transaction: (inner, o) => tx.transaction(inner, o),
          }), opts),
    } as Db;
    deepStrictEqual(
      await claimSession(meddling, clock, {
        streamId: "a".repeat(32),
        sessionId: sid,
        turnId: "t",
      }),
      { ok: true },
    );
    ok(other, "the other write ran during the claim");
    strictEqual((await getStream(db, "a".repeat(32)))?.status, "running");
  } finally {
    db.close();
  }
});

Deno.test("readEvents() returns the events after a cursor, in order", async () => {
  const { db, clock, sid } = await fixture();
  const id = "a".repeat(32);
  await claimSession(db, clock, { streamId: id, sessionId: sid, turnId: "t" });
  const append = createEventAppender(db, clock);
  for (let i = 1; i <= 5; i++) await append(id, i, { event: "token", data: { text: `t${i}` } });
  deepStrictEqual((await readEvents(db, id, 3)).map((e) => [e.seq, e.data]), [[4, { text: "t4" }], [
    5,
    {
      text: "t5",
    },
  ]]);
  deepStrictEqual((await readEvents(db, id)).length, 5);
  db.close();
});

Deno.test("recoverInterruptedStreams() closes runs left running and frees their sessions", async () => {
  const { db, clock, sid } = await fixture();
  const id = "a".repeat(32);
  await claimSession(db, clock, { streamId: id, sessionId: sid, turnId: "t" });
  await createEventAppender(db, clock)(id, 1, { event: "token", data: { text: "half" } });
  await db.run(
    sql`INSERT INTO tool_calls (session_id, tool_call_id, name, status, started_at)
        VALUES (${sid}, 'c1', 'terminal', 'running', 1)`,
  );
  const recovered = await recoverInterruptedStreams(db, clock);
  deepStrictEqual(recovered.map((s) => s.stream_id), [id]);
  deepStrictEqual((await readEvents(db, id)).map((e) => e.event), [
    "token",
    "apperror",
    "stream_end",
  ]);
  strictEqual(((await readEvents(db, id))[1].data as { type: string }).type, "interrupted");
  strictEqual((await getStream(db, id))?.status, "interrupted");
  strictEqual((await getStream(db, id))?.last_seq, 3);
  const row = await db.get<{ active_stream_id: string | null }>(
    sql`SELECT active_stream_id FROM sessions`,
  );
  strictEqual(row?.active_stream_id, null);
  const tc = await db.get<{ status: string }>(sql`SELECT status FROM tool_calls`);
  strictEqual(tc?.status, "error");
  deepStrictEqual(await recoverInterruptedStreams(db, clock), []);
  db.close();
});
