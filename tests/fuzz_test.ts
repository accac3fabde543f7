// Bad input never crashes or corrupts: every route in the manifest, with every method it
// answers, gets random, truncated and wrongly typed JSON, huge strings, unicode junk, odd
// content types and hostile query strings (a seeded PRNG: failures reproduce). Every answer
// must be < 500 and the server must stay healthy.
import { ok, strictEqual } from "node:assert/strict";
import { createTestApp } from "./helpers.ts";
import { manifestRoutes, type RouteProbe } from "./fixtures/manifest_routes.ts";
import { createSession } from "../lib/sessions/sessions.ts";
import { scaled } from "./fixtures/scale.ts";
import { sql } from "../lib/storage/db.ts";

const SEED = Number(Deno.env.get("FUZZ_SEED") ?? 20240611);
// 12 cases a route in the default run, 36 in the slow lane (tests/fixtures/scale.ts).
const PER_ROUTE = Number(Deno.env.get("FUZZ_PER_ROUTE") ?? scaled(12, 36));

/** mulberry32: small, fast, seeded. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
  return { next, int, pick };
}
type Rng = ReturnType<typeof prng>;

/** Field names the API uses, so random bodies reach past "missing field" checks. */
const FIELDS = [
  "session_id",
  "message",
  "path",
  "workspace",
  "model",
  "model_provider",
  "project_id",
  "title",
  "pinned",
  "archived",
  "stream_id",
  "choice",
  "approval_id",
  "clarify_id",
  "response",
  "name",
  "color",
  "workspaces",
  "default_workspace",
  "messages",
  "attachments",
  "format",
  "q",
  "content",
  "days",
  "start",
  "end",
  "provider",
  "password",
  "enabled",
  "text",
  "msg_limit",
  "msg_before",
  "include_archived",
  "after_seq",
  "pattern_key",
  "command",
  "download",
  "role",
  "tool_calls",
  "index",
  "keep",
  "settings",
  "theme",
  "send_key",
  "skip_approvals",
  "yolo",
  "file",
  "args",
];

const JUNK_STRINGS = [
  "",
  " ",
  "\u0000",
  "\u202e\u202dRTL",
  "💥".repeat(50),
  "\ud800",
  "null",
  "undefined",
  "NaN",
  "-1",
  "0",
  "1e309",
  "9".repeat(400),
  "true",
  "[]",
  "{}",
  "../../../../etc/passwd",
  "%00",
  "%2e%2e%2f",
  "<script>alert(1)</script>",
  "'; DROP TABLE sessions; --",
  "${HOME}",
  "$(id)",
  "\\\\server\\share",
  "C:\\Windows",
  "a\nb\r\nc",
  "\t",
  "ＡＢＣ",
  "e\u0301",
  "#ffffff",
  "#zz",
  "deadbeefcafe",
  "0".repeat(32),
  "f".repeat(12),
  "x".repeat(5000),
];

function junkString(r: Rng, validSid: string): string {
  switch (r.int(6)) {
    case 0:
      return validSid;
    case 1: {
      let s = "";
      const n = r.int(40);
      for (let i = 0; i < n; i++) {
        s += String.fromCodePoint(r.pick([r.int(0x80), r.int(0x800), r.int(0x10ffff)]));
      }
      return s.replace(/[\ud800-\udfff]/g, "?");
    }
    case 2:
      return "A".repeat(r.pick([1000, 70_000, 300_000]));
    default:
      return r.pick(JUNK_STRINGS);
  }
}

function junkValue(r: Rng, validSid: string, depth = 0): unknown {
  switch (r.int(depth > 3 ? 6 : 9)) {
    case 0:
      return null;
    case 1:
      return r.pick([true, false]);
    case 2:
      return r.pick([0, -1, 1, 2 ** 53, -(2 ** 31), 1.5, 1e308, -0, 3]);
    case 3:
    case 4:
    case 5:
      return junkString(r, validSid);
    case 6:
      return Array.from({ length: r.int(5) }, () => junkValue(r, validSid, depth + 1));
    case 7:
      return junkObject(r, validSid, depth + 1);
    default:
      return r.pick([[], {}, [[[[]]]], { "__proto__": { polluted: true } }]);
  }
}

function junkObject(r: Rng, validSid: string, depth = 0): Record<string, unknown> {
  const obj: Record<string, unknown> = {};
  const n = r.int(6);
  for (let i = 0; i < n; i++) {
    obj[r.int(8) === 0 ? junkString(r, validSid).slice(0, 50) : r.pick(FIELDS)] = junkValue(
      r,
      validSid,
      depth,
    );
  }
  return obj;
}

/**
 * A body that passes most routes' schemas (zod objects ignore fields they do not know), so
 * mutating a few of its fields exercises the code behind validation, not only validation.
 */
function plausible(r: Rng, sid: string, workspace: string): Record<string, unknown> {
  return {
    session_id: sid,
    message: "hello there",
    path: r.pick([".", "a.txt", "sub"]),
    workspace,
    model: "fuzz-model",
    model_provider: r.pick(["openai", "custom", "nope"]),
    project_id: null,
    title: "A title",
    pinned: r.pick([true, false]),
    archived: r.pick([true, false]),
    stream_id: "0".repeat(32),
    choice: r.pick(["once", "session", "always", "deny"]),
    approval_id: "0".repeat(12),
    clarify_id: "0".repeat(12),
    response: "yes",
    name: r.pick(["fuzz", "fuzz-server"]),
    color: "#abcdef",
    workspaces: [workspace],
    default_workspace: workspace,
    messages: [{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }],
    attachments: [],
    format: r.pick(["json", "md", "html"]),
    q: "hello",
    content: "some content",
    days: 7,
    provider: r.pick(["openai", "anthropic", "custom"]),
    enabled: r.pick([true, false]),
    text: "text",
    index: 0,
    msg_limit: 5,
    command: "/nonexistent/hermes-fuzz-binary",
    args: [],
    transport: "stdio",
  };
}

function mutate(r: Rng, base: Record<string, unknown>, sid: string): Record<string, unknown> {
  const out = { ...base };
  const keys = Object.keys(out);
  const n = r.int(4);
  for (let i = 0; i < n; i++) {
    const k = r.pick(keys);
    if (r.int(4) === 0) delete out[k];
    else out[k] = junkValue(r, sid);
  }
  return out;
}

function junkQuery(r: Rng, validSid: string): string {
  const params = new URLSearchParams();
  const n = r.int(5);
  for (let i = 0; i < n; i++) params.append(r.pick(FIELDS), junkString(r, validSid).slice(0, 2000));
  if (r.int(3) === 0) params.set("session_id", validSid);
  const q = params.toString();
  return q ? "?" + q : r.pick(["", "?", "?&&", "?session_id", "?%zz=1", "?a=%"]);
}

interface Input {
  query: string;
  body?: string | Uint8Array | FormData;
  headers: Record<string, string>;
  label: string;
}

function junkInput(r: Rng, probe: RouteProbe, validSid: string, workspace: string): Input {
  const base = plausible(r, validSid, workspace);
  let query = junkQuery(r, validSid);
  if (r.int(2) === 0) {
    const fields = mutate(r, base, validSid);
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) {
      if (v !== undefined && typeof v !== "object") params.set(k, String(v).slice(0, 2000));
    }
    query = "?" + params.toString();
  }
  if (probe.method === "GET") return { query, headers: {}, label: "query" };
  const json = { "content-type": "application/json" };
  switch (r.int(14)) {
    case 9: {
      const fd = new FormData();
      const fields = mutate(r, { session_id: validSid }, validSid);
      for (const [k, v] of Object.entries(fields)) fd.set(k, String(v));
      if (r.int(4) > 0) {
        const data = junkString(r, validSid).slice(0, r.pick([0, 10, 100_000]));
        fd.set("file", new File([data], junkString(r, validSid).slice(0, 300) || "f"));
      }
      return { query, body: fd, headers: {}, label: "multipart form" };
    }
    case 10:
    case 11:
    case 12:
    case 13:
      return {
        query,
        body: JSON.stringify(mutate(r, base, validSid)),
        headers: json,
        label: "mutated json",
      };
    case 0: {
      const text = JSON.stringify(junkObject(r, validSid));
      return {
        query,
        body: text.slice(0, r.int(text.length + 1)),
        headers: json,
        label: "truncated json",
      };
    }
    case 1:
      return {
        query,
        body: JSON.stringify(junkValue(r, validSid)),
        headers: json,
        label: "non-object json",
      };
    case 2:
      return { query, body: "", headers: json, label: "empty" };
    case 3:
      return {
        query,
        body: new Uint8Array(Array.from({ length: r.int(200) }, () => r.int(256))),
        headers: {
          "content-type": r.pick(["application/json", "application/octet-stream", "text/plain"]),
        },
        label: "random bytes",
      };
    case 4:
      return {
        query,
        body: '--b\r\nContent-Disposition: form-data; name="file"; filename="../x"\r\n\r\n' +
          junkString(r, validSid).slice(0, 500) + (r.int(2) ? "\r\n--b--\r\n" : ""),
        headers: {
          "content-type": r.pick([
            "multipart/form-data; boundary=b",
            "multipart/form-data",
            "multipart/form-data; boundary=",
          ]),
        },
        label: "multipart junk",
      };
    case 5:
      return {
        query,
        body: "[".repeat(r.pick([10, 3000])) + "]".repeat(r.int(3)),
        headers: json,
        label: "deep nesting",
      };
    case 6:
      return {
        query,
        body: new URLSearchParams(junkObject(r, validSid) as Record<string, string>).toString(),
        headers: { "content-type": "application/x-www-form-urlencoded" },
        label: "form",
      };
    default:
      return {
        query,
        body: JSON.stringify(junkObject(r, validSid)),
        headers: json,
        label: "object json",
      };
  }
}

async function drain(res: Response): Promise<string> {
  const type = res.headers.get("content-type") ?? "";
  if (type.startsWith("text/event-stream")) {
    await res.body?.cancel();
    return "(event stream)";
  }
  return (await res.text()).slice(0, 300);
}

Deno.test("every route answers random and malformed input with < 500 and stays healthy", async () => {
  const app = await createTestApp();
  const failures: string[] = [];
  let requests = 0;
  const histogram: Record<string, Record<number, number>> = {};
  try {
    const r = prng(SEED);
    const routes = manifestRoutes().filter((p) => !p.path.startsWith("/static/"));
    ok(routes.length >= 20, `only ${routes.length} routes found`);
    for (const probe of routes) {
      for (let i = 0; i < PER_ROUTE; i++) {
        // A real session (recreated when a fuzzed request deleted it) so inputs reach deep code.
        const sid =
          (await createSession(app.ctx.db, app.ctx.clock, { workspace: app.workspace })).session_id;
        const input = junkInput(r, probe, sid, app.workspace);
        let status = 0;
        let text = "";
        try {
          const res = await app.request(
            probe.method,
            probe.path + input.query,
            input.body,
            input.headers,
          );
          status = res.status;
          text = await drain(res);
        } catch (err) {
          status = 599;
          text = `threw ${(err as Error).stack ?? err}`;
        }
        requests++;
        const key = `${probe.method} ${probe.path}`;
        const h = (histogram[key] ??= {});
        h[status] = (h[status] ?? 0) + 1;
        // A fuzzed settings write may have set a password: keep auth off so later requests
        // still reach the routes (auth itself is covered by auth_test.ts).
        await app.ctx.db.run(sql`DELETE FROM settings WHERE key = 'password_hash'`);
        if (status >= 500) {
          const body = typeof input.body === "string"
            ? input.body.slice(0, 300)
            : input.body instanceof FormData
            ? JSON.stringify(
              [...input.body.entries()].map((
                [k, v],
              ) => [k, typeof v === "string" ? v.slice(0, 100) : v.name.slice(0, 100)]),
            )
            : `${input.body?.length ?? 0} bytes`;
          failures.push(
            `${probe.method} ${probe.path}${input.query.slice(0, 200)} [${input.label}] body=${
              JSON.stringify(body)
            } → ${status} ${text}`,
          );
        }
      }
    }
    if (Deno.env.get("FUZZ_VERBOSE")) console.log(histogram);
    const health = await app.call("GET", "/health");
    strictEqual(health.status, 200);
    strictEqual(health.body.status, "ok");
    const errors = app.logs.filter((l) => / ERROR /.test(l));
    if (failures.length > 0) {
      console.error(
        `seed ${SEED}: ${failures.length} of ${requests} requests failed:\n` +
          failures.slice(0, 30).join("\n") + "\n" + errors.slice(0, 10).join("\n"),
      );
    }
    strictEqual(
      failures.length,
      0,
      `${failures.length} server errors (seed ${SEED}); first: ${failures[0]}`,
    );
    ok(requests >= routes.length * PER_ROUTE);
  } finally {
    await app.close();
  }
});
