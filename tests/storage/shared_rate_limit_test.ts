// The rate limiter replicas share counts in the database: two limiter objects on one database
// (two processes) meet one limit together.
import { ok, strictEqual } from "node:assert/strict";
import { openDatabaseAt } from "../../lib/storage/db.ts";
import { createSharedRateLimiter } from "../../lib/security/shared_rate_limit.ts";

Deno.test("two replicas' limiters on one database count one window together", () => {
  const db = openDatabaseAt(":memory:");
  try {
    let now = 1_000;
    const opts = { limit: 3, windowSeconds: 60, clock: () => now };
    const a = createSharedRateLimiter(db, "login", opts);
    const b = createSharedRateLimiter(db, "login", opts);
    ok(a.hit("1.2.3.4").ok);
    ok(b.hit("1.2.3.4").ok);
    ok(a.hit("1.2.3.4").ok);
    const refused = b.hit("1.2.3.4");
    strictEqual(refused.ok, false);
    strictEqual(refused.count, 3);
    strictEqual(refused.retryAfterSeconds, 60);
    ok(a.hit("5.6.7.8").ok, "another client has its own window");
    ok(createSharedRateLimiter(db, "upload", opts).hit("1.2.3.4").ok, "and another limiter");
    now += 61;
    ok(b.peek("1.2.3.4").ok, "the window slides");
    b.hit("1.2.3.4");
    a.reset("1.2.3.4");
    strictEqual(b.peek("1.2.3.4").count, 0);
  } finally {
    db.close();
  }
});
