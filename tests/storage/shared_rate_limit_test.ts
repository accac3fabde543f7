// The rate limiter replicas share counts in the database: two limiter objects on one database
// (two processes) meet one limit together.
import { ok, strictEqual } from "node:assert/strict";
import { openDatabaseAt } from "../../lib/storage/db.ts";
import { createSharedRateLimiter } from "../../lib/security/shared_rate_limit.ts";

Deno.test("two replicas' limiters on one database count one window together", async () => {
  const db = openDatabaseAt(":memory:");
  try {
    let now = 1_000;
    const opts = { limit: 3, windowSeconds: 60, clock: () => now };
    const a = createSharedRateLimiter(db, "login", opts);
    const b = createSharedRateLimiter(db, "login", opts);
    ok((await a.hit("1.2.3.4")).ok);
    ok((await b.hit("1.2.3.4")).ok);
    ok((await a.hit("1.2.3.4")).ok);
    const refused = await b.hit("1.2.3.4");
    strictEqual(refused.ok, false);
    strictEqual(refused.count, 3);
    strictEqual(refused.retryAfterSeconds, 60);
    ok((await a.hit("5.6.7.8")).ok, "another client has its own window");
    ok(
      (await createSharedRateLimiter(db, "upload", opts).hit("1.2.3.4")).ok,
      "and another limiter",
    );
    now += 61;
    ok((await b.peek("1.2.3.4")).ok, "the window slides");
    await b.hit("1.2.3.4");
    await a.reset("1.2.3.4");
    strictEqual((await b.peek("1.2.3.4")).count, 0);
  } finally {
    db.close();
  }
});

Deno.test("hits sent at once still admit exactly the limit (check-and-record is atomic)", async () => {
  const db = openDatabaseAt(":memory:");
  try {
    const opts = { limit: 3, windowSeconds: 60, clock: () => 1_000 };
    const replicas = [0, 1].map(() => createSharedRateLimiter(db, "chat_start", opts));
    const decisions = await Promise.all(
      Array.from({ length: 8 }, (_, i) => replicas[i % 2].hit("9.9.9.9")),
    );
    strictEqual(decisions.filter((d) => d.ok).length, 3);
    strictEqual((await replicas[0].peek("9.9.9.9")).count, 3, "refused hits are not recorded");
  } finally {
    db.close();
  }
});
