// The async half of the storage interface on the backend this lane runs (both lanes run this
// file): queries written once with the `sql` tag, explicit transactions that commit together or
// roll back together, savepoints for nested ones, RETURNING, and an atomic conditional claim.
import { deepStrictEqual, rejects, strictEqual } from "node:assert/strict";
import { openDatabaseAt, sql } from "../../lib/storage/db.ts";
import { DatabaseUnavailableError } from "../../lib/errors.ts";

const session = (id: string) =>
  sql`INSERT INTO sessions (session_id, workspace, created_at, updated_at)
      VALUES (${id}, '/w', 1, 1)`;

Deno.test("async queries: all, get and run with parameters, the same text on both backends", async () => {
  const db = openDatabaseAt(":memory:");
  try {
    strictEqual((await db.run(session("s1"))).changes, 1);
    await db.run(session("s2"));
    const rows = await db.all<{ session_id: string; n: number }>(
      sql`SELECT session_id, message_count AS n FROM sessions ORDER BY session_id`,
    );
    deepStrictEqual(rows.map((r) => ({ ...r })), [{ session_id: "s1", n: 0 }, {
      session_id: "s2",
      n: 0,
    }]);
    const one = await db.get<{ total: number }>(sql`SELECT count(*) AS total FROM sessions`);
    strictEqual(one?.total, 2, "a count is a number on both backends");
    strictEqual(
      await db.get(sql`SELECT session_id FROM sessions WHERE session_id = ${"x"}`),
      undefined,
    );
    // A NUL byte in a parameter is a value that finds nothing, never a server error.
    strictEqual(
      await db.get(sql`SELECT 1 AS one FROM sessions WHERE session_id = ${"s\u00001"}`),
      undefined,
    );
    const changed = await db.run(sql`UPDATE sessions SET title = ${"T"} WHERE archived = 0`);
    strictEqual(changed.changes, 2);
  } finally {
    db.close();
  }
});

Deno.test("async transaction: commits together, rolls back together, nests as a savepoint", async () => {
  const db = openDatabaseAt(":memory:");
  try {
    const count = async () =>
      (await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM sessions`))!.n;
    await db.transaction(async (tx) => {
      await tx.run(session("a"));
      await tx.run(session("b"));
    });
    strictEqual(await count(), 2);
    await rejects(
      db.transaction(async (tx) => {
        await tx.run(session("c"));
        throw new Error("boom");
      }),
      /boom/,
    );
    strictEqual(await count(), 2, "the failed transaction left nothing");
    await db.transaction(async (tx) => {
      await tx.run(session("d"));
      await rejects(
        tx.transaction(async (inner) => {
          await inner.run(session("e"));
          throw new Error("inner");
        }),
        /inner/,
      );
      await tx.run(session("f"));
    });
    deepStrictEqual(
      (await db.all<{ session_id: string }>(sql`SELECT session_id FROM sessions ORDER BY 1`))
        .map((r) => r.session_id),
      ["a", "b", "d", "f"],
      "the inner failure rolled back to its savepoint only",
    );
  } finally {
    db.close();
  }
});

Deno.test("async claim: one conditional UPDATE … RETURNING wins, the other sees 0 rows", async () => {
  const db = openDatabaseAt(":memory:");
  try {
    await db.run(session("s"));
    const claim = (stream: string) =>
      db.all<{ active_stream_id: string }>(
        sql`UPDATE sessions SET active_stream_id = ${stream}
            WHERE session_id = ${"s"} AND active_stream_id IS NULL
            RETURNING active_stream_id`,
      );
    const [a, b] = await Promise.all([claim("one"), claim("two")]);
    deepStrictEqual([a.length + b.length, [...a, ...b][0].active_stream_id], [1, "one"]);
  } finally {
    db.close();
  }
});

Deno.test("async transaction: a statement past its time bound is a DatabaseUnavailableError", async () => {
  const db = openDatabaseAt(":memory:");
  try {
    if (db.backend !== "postgres") return; // SQLite runs in process: no statement timeout
    await rejects(
      db.transaction(async (tx) => {
        await tx.run(sql`SET LOCAL statement_timeout = 200`);
        await tx.all(sql`SELECT pg_sleep(2)`);
      }),
      (err) =>
        err instanceof DatabaseUnavailableError && /did not answer in time/.test(err.message),
    );
    // The pool still serves the next request.
    strictEqual((await db.get<{ one: number }>(sql`SELECT 1 AS one`))?.one, 1);
  } finally {
    db.close();
  }
});
