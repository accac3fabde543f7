// Bodies a client can make the server chew on: before logging in a few KB at most, and JSON
// nested no deeper than MAX_JSON_DEPTH anywhere a body is parsed (issue 12, finding 9).
import { ok, strictEqual } from "node:assert/strict";
import { createTestApp } from "./helpers.ts";
import { MAX_JSON_DEPTH, MAX_UNAUTHENTICATED_BODY_BYTES } from "../lib/server/http.ts";

const PASSWORD = "correct horse battery staple";
const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

/** A body of `bytes` deeply nested JSON, streamed (no Content-Length). */
function streamedBody(bytes: number): ReadableStream<Uint8Array> {
  const chunk = new TextEncoder().encode("[".repeat(64 * 1024));
  let sent = 0;
  return new ReadableStream({
    pull(ctrl) {
      if (sent >= bytes) return ctrl.close();
      ctrl.enqueue(chunk);
      sent += chunk.byteLength;
    },
  });
}

Deno.test("POST /api/auth/login refuses megabytes of nested JSON before reading them (auth on)", async () => {
  const app = await createTestApp({ env: { HERMES_WEBUI_PASSWORD: PASSWORD } });
  try {
    const big = '{"password":' + nested(9 * 1024 * 1024) + "}"; // ≈ 18 MB
    const declared = await Promise.all(
      [1, 2, 3, 4].map(() =>
        app.call("POST", "/api/auth/login", big, {
          "content-type": "application/json",
          "content-length": String(big.length),
        })
      ),
    );
    for (const res of declared) {
      strictEqual(res.status, 413);
      ok(String(res.body.error).includes(`${MAX_UNAUTHENTICATED_BODY_BYTES} bytes`));
    }
    // Streamed without a length: the route stops reading at the cap.
    const streamed = await Promise.all(
      [1, 2, 3, 4].map(() =>
        app.call("POST", "/api/auth/login", streamedBody(18 * 1024 * 1024), {
          "content-type": "application/json",
        })
      ),
    );
    for (const res of streamed) strictEqual(res.status, 413);
    const form = await app.request("POST", "/api/auth/login", streamedBody(1024 * 1024), {
      "content-type": "application/x-www-form-urlencoded",
    });
    strictEqual(form.status, 413);
    // Any other write before logging in is refused up front too.
    const other = await app.call("POST", "/api/session/import", big, {
      "content-type": "application/json",
      "content-length": String(big.length),
    });
    strictEqual(other.status, 413);
    strictEqual(
      (await app.call("POST", "/api/session/import", big, { "content-type": "application/json" }))
        .status,
      401,
      "undeclared: refused unread by the login gate",
    );
    // The real password still logs in.
    strictEqual((await app.call("POST", "/api/auth/login", { password: PASSWORD })).status, 200);
  } finally {
    await app.close();
  }
});

Deno.test("readJsonObject() refuses JSON nested deeper than MAX_JSON_DEPTH with a 400", async () => {
  const app = await createTestApp();
  try {
    const deep = `{"title":${nested(MAX_JSON_DEPTH + 1)}}`;
    const res = await app.call("POST", "/api/session/new", deep, {
      "content-type": "application/json",
    });
    strictEqual(res.status, 400);
    ok(/nested deeper than 64 levels/.test(String(res.body.error)), JSON.stringify(res.body));
    // Brackets inside strings are text, not nesting.
    const text = JSON.stringify({ messages: [{ role: "user", content: "[{".repeat(5000) }] });
    const fine = await app.call("POST", "/api/session/import", text, {
      "content-type": "application/json",
    });
    strictEqual(fine.status, 200, JSON.stringify(fine.body).slice(0, 300));
    // The MCP reload route parses its own body: same rule.
    const reload = await app.call("POST", "/api/mcp/reload", `{"name":${nested(5000)}}`, {
      "content-type": "application/json",
    });
    strictEqual(reload.status, 400);
  } finally {
    await app.close();
  }
});

Deno.test("POST /api/session/import refuses a 5,000-deep array, so it can never be exported", async () => {
  const app = await createTestApp();
  try {
    const before = (await app.call<{ sessions: unknown[] }>("GET", "/api/sessions")).body.sessions;
    const body = `{"title":"deep","messages":[{"role":"user","content":${nested(5000)}}]}`;
    const res = await app.call("POST", "/api/session/import", body, {
      "content-type": "application/json",
    });
    strictEqual(res.status, 400);
    ok(/nested deeper than/.test(String(res.body.error)));
    const after = (await app.call<{ sessions: unknown[] }>("GET", "/api/sessions")).body.sessions;
    strictEqual(after.length, before.length, "no session was created");
  } finally {
    await app.close();
  }
});
