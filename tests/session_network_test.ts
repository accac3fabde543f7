// The per-session network switch of the sandboxed shell: POST /api/session/network stores it,
// the session row reports it, and the engine's tool hook hands it to the terminal tool (whose
// bubblewrap run then keeps or drops --unshare-net: tests/sandbox_test.ts).
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { createTestApp } from "./helpers.ts";
import { TOOL_HOOKS } from "../lib/engine/tool_hooks.ts";
import { getSession } from "../lib/sessions/sessions.ts";

Deno.test("POST /api/session/network switches the shell's network for one session", async () => {
  const app = await createTestApp();
  try {
    const created = await app.call<{ session: { session_id: string; allow_network: boolean } }>(
      "POST",
      "/api/session/new",
      {},
    );
    const sid = created.body.session.session_id;
    strictEqual(created.body.session.allow_network, false, "off by default");
    strictEqual(TOOL_HOOKS.allowNetwork(app.ctx, await getSession(app.ctx.db, sid)), false);

    const on = await app.call("POST", "/api/session/network", { session_id: sid, enabled: true });
    deepStrictEqual(on, { status: 200, body: { ok: true, allow_network: true } });
    strictEqual(TOOL_HOOKS.allowNetwork(app.ctx, await getSession(app.ctx.db, sid)), true);
    const row = await app.call<{ session: { allow_network: boolean } }>(
      "GET",
      `/api/session?session_id=${sid}&messages=0`,
    );
    strictEqual(row.body.session.allow_network, true);

    const other = await app.call<{ session: { session_id: string } }>(
      "POST",
      "/api/session/new",
      {},
    );
    const otherRow = await getSession(app.ctx.db, other.body.session.session_id);
    strictEqual(TOOL_HOOKS.allowNetwork(app.ctx, otherRow), false, "other sessions stay offline");

    const off = await app.call("POST", "/api/session/network", { session_id: sid, enabled: false });
    deepStrictEqual(off.body, { ok: true, allow_network: false });
    strictEqual(TOOL_HOOKS.allowNetwork(app.ctx, await getSession(app.ctx.db, sid)), false);
  } finally {
    await app.close();
  }
});

Deno.test("POST /api/session/network: 404 for an unknown session, 400 without enabled", async () => {
  const app = await createTestApp();
  try {
    const unknown = await app.call("POST", "/api/session/network", {
      session_id: "0123456789ab",
      enabled: true,
    });
    strictEqual(unknown.status, 404);
    const missing = await app.call("POST", "/api/session/network", { session_id: "0123456789ab" });
    strictEqual(missing.status, 400);
  } finally {
    await app.close();
  }
});

Deno.test("terminal.allow_network in config.yaml opens the network for every session", async () => {
  const app = await createTestApp({ configYaml: "terminal:\n  allow_network: true\n" });
  try {
    const created = await app.call<{ session: { session_id: string } }>(
      "POST",
      "/api/session/new",
      {},
    );
    const row = await getSession(app.ctx.db, created.body.session.session_id);
    strictEqual(row.allow_network, false);
    strictEqual(TOOL_HOOKS.allowNetwork(app.ctx, row), true);
  } finally {
    await app.close();
  }
});
