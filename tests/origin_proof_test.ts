// Every state-changing request must prove it comes from the console's own page (the token in
// X-Hermes-CSRF-Token), with auth off as with auth on: a local process that simply omits
// Origin — the agent's own shell — is refused (issue 12, finding 3a).
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp } from "./helpers.ts";
import { manifestRoutes } from "./fixtures/manifest_routes.ts";
import { startHarness } from "./fixtures/engine_harness.ts";
import {
  CONSOLE_TOKEN_FILE,
  consoleToken,
  STATE_CHANGING_GET_PATHS,
} from "../lib/security/request_proof.ts";

// Sign-in routes prove themselves (a password, or a passkey's signature over a single-use
// challenge); logout ends only the session its own cookie names; a CSP report is filed by the
// browser itself, with no page script to add the token, and only reaches the log (bounded, rate
// limited: tests/original_route_names_test.ts).
const EXEMPT = new Set([
  "/api/csp-report",
  "/api/auth/login",
  "/api/auth/logout",
  "/api/auth/passkey/options",
  "/api/auth/passkey/login",
]);

Deno.test("checkRequestProof: every unsafe route in the manifest refuses a request without the token (auth off)", async () => {
  const app = await createTestApp();
  try {
    const probes = manifestRoutes().filter((r) => r.method !== "GET" && !EXEMPT.has(r.path));
    ok(probes.length >= 30, `the manifest lists the unsafe routes (${probes.length})`);
    const gets = [...STATE_CHANGING_GET_PATHS].map((path) => ({ method: "GET", path }));
    for (const { method, path } of [...probes, ...gets]) {
      const attempts: Record<string, string>[] = [{}, { "x-hermes-csrf-token": "0".repeat(64) }];
      for (const headers of attempts) {
        const body = method === "GET" ? undefined : {};
        const res = await app.call(method, path, body, headers, { proof: false });
        strictEqual(res.status, 403, `${method} ${path} ${JSON.stringify(headers)}`);
        ok(
          /^Missing or invalid X-Hermes-CSRF-Token header: .*console's own page/.test(
            String(res.body.error),
          ),
          `${method} ${path}: ${JSON.stringify(res.body)}`,
        );
      }
    }
    // The same-origin check alone (an Origin naming the console) is no proof either.
    const same = await app.call("POST", "/api/session/new", {}, {
      origin: "http://127.0.0.1:8787",
      "sec-fetch-site": "same-origin",
    }, { proof: false });
    strictEqual(same.status, 403);
    // With the token, the request reaches its route.
    strictEqual((await app.call("POST", "/api/session/new", {})).status, 200);
    // Login and logout need no token (the password is the proof; logout ends only the
    // session its own cookie names).
    strictEqual((await app.call("POST", "/api/auth/logout", {}, {}, { proof: false })).status, 200);
  } finally {
    await app.close();
  }
});

Deno.test("consoleToken() lives in the state dir (0600), and pages carry it for their scripts", async () => {
  const app = await createTestApp();
  try {
    const token = await consoleToken(app.ctx.security);
    ok(/^[0-9a-f]{64}$/.test(token));
    const path = join(app.stateDir, CONSOLE_TOKEN_FILE);
    strictEqual((await Deno.readTextFile(path)).trim(), token);
    strictEqual((await Deno.stat(path)).mode! & 0o777, 0o600);
    const html = await (await app.request("GET", "/", undefined, {}, { proof: false })).text();
    ok(html.includes(`<meta name="hermes-csrf-token" content="${token}"/>`), html.slice(0, 600));
    // A script reading the file is let through (SECURITY.md, "HTTP surface").
    const res = await app.call("POST", "/api/session/new", {}, {
      "x-hermes-csrf-token": (await Deno.readTextFile(path)).trim(),
    });
    strictEqual(res.status, 200);
  } finally {
    await app.close();
  }
});

Deno.test("with auth on, the console token is no login and no substitute for the session token", async () => {
  const PASSWORD = "correct horse battery staple";
  const app = await createTestApp({ env: { HERMES_WEBUI_PASSWORD: PASSWORD } });
  try {
    const token = await consoleToken(app.ctx.security);
    // Not logged in: the install token does not log anyone in.
    strictEqual(
      (await app.call("POST", "/api/session/new", {}, { "x-hermes-csrf-token": token })).status,
      401,
    );
    const login = await app.request("POST", "/api/auth/login", { password: PASSWORD });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
    const browser = { cookie, origin: "http://127.0.0.1:8787", "sec-fetch-site": "same-origin" };
    const res = await app.call("POST", "/api/session/new", {}, {
      ...browser,
      "x-hermes-csrf-token": token,
    });
    strictEqual(res.status, 403, "a logged-in page must echo its session's token");
    // The page served to that session carries the session token, not the install one.
    const html = await (await app.request("GET", "/", undefined, { cookie })).text();
    const meta = html.match(/<meta name="hermes-csrf-token" content="([^"]+)"/)?.[1];
    ok(meta && meta !== token);
    strictEqual(
      (await app.call("POST", "/api/session/new", {}, { ...browser, "x-hermes-csrf-token": meta }))
        .status,
      200,
    );
  } finally {
    await app.close();
  }
});

Deno.test("the agent's terminal cannot reconfigure the console through its HTTP API", async () => {
  const h = await startHarness();
  try {
    // Network on for the session's shell, as in the reported attack.
    strictEqual(
      (await h.call("POST", "/api/session/network", { session_id: h.sessionId, enabled: true }))
        .status,
      200,
    );
    const before = (await h.call("GET", "/api/mcp/servers")).body;
    const configBefore = await Deno.readTextFile(join(h.root, "config.yaml"));
    const body = JSON.stringify({ command: "sh", args: ["-c", "touch /tmp/pwned-by-agent"] });
    const command = `curl -s -o /dev/null -w 'status=%{http_code}' -X PUT ` +
      `-H 'content-type: application/json' -d '${body}' ${h.url}/api/mcp/servers/evil; ` +
      `curl -s -o /dev/null -w ' yolo=%{http_code}' -X POST ` +
      `-H 'content-type: application/json' -d '{"session_id":"${h.sessionId}","enabled":true}' ` +
      `${h.url}/api/session/yolo`;
    h.fake.enqueue(
      { toolCalls: [{ id: "call_1", name: "terminal", args: { command } }] },
      { text: "done" },
    );
    const started = await h.start("configure yourself");
    const { events } = await h.stream(started.stream_id);
    const complete = events.find((e) => e.event === "tool_complete");
    ok(complete, `a tool_complete event (got ${events.map((e) => e.event).join(", ")})`);
    const output = String(complete.data.result_preview);
    ok(output.includes("status=403") || output.includes("status=000"), output);
    ok(output.includes("yolo=403") || output.includes("yolo=000"), output);
    deepStrictEqual((await h.call("GET", "/api/mcp/servers")).body, before);
    strictEqual(await Deno.readTextFile(join(h.root, "config.yaml")), configBefore);
    const session = (await h.call("GET", `/api/session?session_id=${h.sessionId}`)).body.session;
    strictEqual(session.skip_approvals, false, "approvals are still asked");
  } finally {
    await h.close();
  }
});

Deno.test("apiRequest() sends the page's token on every method, GET (cancel) included", async () => {
  const g = globalThis as unknown as { document?: unknown; fetch: typeof fetch };
  const realFetch = g.fetch;
  const seen: Array<[string, string | null]> = [];
  g.document = {
    querySelector: (sel: string) =>
      sel === 'meta[name="hermes-csrf-token"]' ? { content: "page-token" } : null,
  };
  g.fetch = (_input, init) => {
    seen.push([String(init?.method), new Headers(init?.headers).get("x-hermes-csrf-token")]);
    return Promise.resolve(new Response("{}", { headers: { "content-type": "application/json" } }));
  };
  try {
    const { api } = await import("../lib/browser/api_client.ts");
    await api("GET", "/api/chat/cancel?stream_id=x");
    await api("POST", "/api/session/new", {});
    await api("DELETE", "/api/mcp/servers/x");
    deepStrictEqual(seen, [["GET", "page-token"], ["POST", "page-token"], [
      "DELETE",
      "page-token",
    ]]);
  } finally {
    g.fetch = realFetch;
    delete g.document;
  }
});
