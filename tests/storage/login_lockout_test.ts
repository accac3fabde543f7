// The password-login limit must throttle guesses without letting anyone who shares the owner's
// address lock the owner out (lib/security/login_throttle.ts). Every local process reaches the
// console from 127.0.0.1, so six wrong passwords from "a neighbour" must not stop a browser that
// has signed in before; the neighbour's own guesses still meet 429, and the lock is logged.
import { ok, strictEqual } from "node:assert/strict";
import { createTestApp, type TestApp } from "../helpers.ts";
import { hashPassword } from "../../lib/security/password.ts";
import { PASSWORD_HASH_SETTING } from "../../lib/security/auth.ts";
import { sql } from "../../lib/storage/db.ts";

const PASSWORD = "correct horse battery staple";

function manualClock(start = 1_800_000_000) {
  let now = start;
  return { clock: () => now, advance: (s: number) => (now += s) };
}

/** A client at `address` keeping the cookies it is given, as a browser would. */
function client(app: TestApp, address: string) {
  const jar = new Map<string, string>();
  const send = async (path: string, body?: unknown) => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (jar.size) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    const res = await app.fetch(
      new Request(`http://127.0.0.1:8787${path}`, {
        method: "POST",
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
      { remoteAddr: { hostname: address, port: 40000, transport: "tcp" } } as Deno.ServeHandlerInfo,
    );
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair.indexOf("=");
      const [name, value] = [pair.slice(0, eq).trim(), pair.slice(eq + 1).trim()];
      if (/max-age=0/i.test(line) || !value) jar.delete(name);
      else jar.set(name, value);
    }
    const text = await res.text();
    return { status: res.status, retryAfter: res.headers.get("retry-after"), text };
  };
  return {
    jar,
    login: (password: string) => send("/api/auth/login", { password }),
    logout: () => send("/api/auth/logout"),
  };
}

Deno.test("POST /api/auth/login: 6 wrong passwords from 127.0.0.1, then the owner's right one → 200", async () => {
  const t = manualClock();
  const app = await createTestApp({ env: { HERMES_WEBUI_PASSWORD: PASSWORD }, clock: t.clock });
  try {
    // The owner's browser signed in on an earlier day, then signed out.
    const owner = client(app, "127.0.0.1");
    strictEqual((await owner.login(PASSWORD)).status, 200);
    strictEqual((await owner.logout()).status, 200);
    t.advance(3600);

    // Another local process guesses from the same address.
    const neighbour = client(app, "127.0.0.1");
    for (let i = 0; i < 5; i++) strictEqual((await neighbour.login(`guess ${i}`)).status, 401);
    for (let i = 5; i < 8; i++) {
      const limited = await neighbour.login(`guess ${i}`);
      strictEqual(limited.status, 429, "guesses past the limit are refused");
      ok(Number(limited.retryAfter) > 0, "with Retry-After");
    }

    const back = await owner.login(PASSWORD);
    strictEqual(back.status, 200, `the owner is not locked out: ${back.text}`);
    ok(back.text.includes('"ok":true'));

    // The limit still holds for the guesser: past it, even a right guess is not checked.
    strictEqual((await neighbour.login(PASSWORD)).status, 429);
    // The owner's sign-in did not lift the address's lock for the guesser.
    strictEqual((await neighbour.login("guess 9")).status, 429);
    // The owner's browser has a limit of its own: its wrong passwords meet 429 past it.
    for (let i = 0; i < 5; i++) strictEqual((await owner.login(`typo ${i}`)).status, 401);
    const typo = await owner.login("correct horse battery stapel");
    strictEqual(typo.status, 429);
    ok(Number(typo.retryAfter) > 0);
    // Another client address has its own count.
    strictEqual((await client(app, "10.1.2.3").login(PASSWORD)).status, 200);
    t.advance(61);
    strictEqual((await neighbour.login(PASSWORD)).status, 200, "the window passes");
  } finally {
    await app.close();
  }
});

Deno.test("POST /api/auth/login logs one line when a client gets locked, never the password", async () => {
  const app = await createTestApp({ env: { HERMES_WEBUI_PASSWORD: PASSWORD } });
  try {
    const neighbour = client(app, "127.0.0.1");
    const guesses = Array.from({ length: 8 }, (_, i) => `hunter2-guess-${i}`);
    for (const guess of guesses) await neighbour.login(guess);
    const locked = app.logs.filter((l) => /login locked/i.test(l));
    strictEqual(locked.length, 1, app.logs.join("\n"));
    ok(locked[0].includes("WARN"), locked[0]);
    ok(locked[0].includes('"client":"127.0.0.1"'), locked[0]);
    ok(locked[0].includes('"account":"owner"'), locked[0]);
    for (const line of app.logs) {
      ok(!guesses.some((g) => line.includes(g)), `a guess reached the log: ${line}`);
      ok(!line.includes(PASSWORD), `the password reached the log: ${line}`);
    }
  } finally {
    await app.close();
  }
});

Deno.test("POST /api/auth/login: a forged device cookie, or one from before a password change, gets nothing past the limit", async () => {
  const app = await createTestApp();
  try {
    const hash = await hashPassword(PASSWORD);
    await app.ctx.db.run(
      sql`INSERT INTO settings (key, value) VALUES (${PASSWORD_HASH_SETTING}, ${hash})
          ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    );
    const owner = client(app, "127.0.0.1");
    strictEqual((await owner.login(PASSWORD)).status, 200);
    const remembered = [...owner.jar].filter(([k]) => k !== "hermes_session");
    ok(remembered.length > 0, "a successful login leaves this browser a device cookie");

    // The password changes; the old device cookie proves nothing about the new one.
    const NEW = "a brand new passphrase";
    const newHash = await hashPassword(NEW);
    await app.ctx.db.run(
      sql`UPDATE settings SET value = ${newHash} WHERE key = ${PASSWORD_HASH_SETTING}`,
    );
    const neighbour = client(app, "127.0.0.1");
    for (let i = 0; i < 6; i++) await neighbour.login(`guess ${i}`);
    const stale = client(app, "127.0.0.1");
    for (const [k, v] of remembered) stale.jar.set(k, v);
    strictEqual((await stale.login(NEW)).status, 429);
    const forged = client(app, "127.0.0.1");
    for (const [k, v] of remembered) {
      forged.jar.set(
        k,
        v.replace(/.$/, (c) => c === "A" ? "B" : "A"),
      );
    }
    strictEqual((await forged.login(NEW)).status, 429);
    // Signing in elsewhere with the new password earns a device cookie that works.
    const laptop = client(app, "10.9.9.9");
    strictEqual((await laptop.login(NEW)).status, 200);
    const moved = client(app, "127.0.0.1");
    for (const [k, v] of laptop.jar) if (k !== "hermes_session") moved.jar.set(k, v);
    strictEqual((await moved.login(NEW)).status, 200);
  } finally {
    await app.close();
  }
});
