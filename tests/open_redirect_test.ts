// Where the login page sends the browser next: only a same-origin path, judged AFTER dot
// segments are folded, so `/.//evil.example` cannot become `//evil.example` (issue 12, finding 8).
import { ok, strictEqual } from "node:assert/strict";
import { createTestApp } from "./helpers.ts";
import { safeNextPath } from "../lib/security/request_guard.ts";

const ESCAPES = [
  "/.//evil.example",
  "/.//evil.example/path?q=1",
  "/%2e%2e//evil.example",
  "/%2E%2E//evil.example",
  "/x/..//evil.example",
  "/x/%2e%2e//evil.example",
  "/././/evil.example",
  "/..//evil.example",
  "/.\\\\evil.example",
  "/\\evil.example",
  "/\\\\evil.example",
  "//evil.example",
  "/%5cevil.example",
  "/%2f%2fevil.example",
  "https://evil.example/",
  "/\t/evil.example",
];

Deno.test("safeNextPath() never yields a path a browser reads as another host", () => {
  for (const next of ESCAPES) {
    const out = safeNextPath(next);
    ok(/^\/(?![\/\\])/.test(out) || out === "/", `${next} → ${out}`);
    ok(!out.includes("evil.example") || !/^\/[\/\\]/.test(out), `${next} → ${out}`);
  }
  strictEqual(safeNextPath("/.//evil.example"), "/");
  strictEqual(safeNextPath("/%2e%2e//evil.example"), "/");
  strictEqual(safeNextPath("/x/..//evil.example"), "/");
  // Ordinary targets survive, normalized.
  strictEqual(safeNextPath("/insights?days=7#top"), "/insights?days=7#top");
  strictEqual(safeNextPath("/a/./b/../c"), "/a/c");
  strictEqual(safeNextPath("/"), "/");
});

Deno.test("GET /login?next=… answers no Location (or link) that leaves the console", async () => {
  const PASSWORD = "correct horse battery staple";
  const app = await createTestApp({ env: { HERMES_WEBUI_PASSWORD: PASSWORD } });
  const open = await createTestApp(); // auth off: the page links on to `next`
  try {
    const login = await app.request("POST", "/api/auth/login", { password: PASSWORD });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
    const same = (target: string) =>
      /^\/(?![\/\\])/.test(target) &&
      new URL(target, "http://127.0.0.1:8787").origin === "http://127.0.0.1:8787";
    for (const next of ESCAPES) {
      // Logged in: straight on with a redirect.
      const res = await app.request("GET", `/login?next=${encodeURIComponent(next)}`, undefined, {
        cookie,
      });
      strictEqual(res.status, 302, next);
      const location = res.headers.get("location") ?? "";
      ok(same(location), `${next} → ${location}`);
      const page = await (await open.request("GET", `/login?next=${encodeURIComponent(next)}`))
        .text();
      const href = page.match(/<a class="login-submit" href="([^"]*)"/)?.[1] ?? "";
      ok(same(href.replaceAll("&amp;", "&")), `${next} → link ${href}`);
    }
    // The raw query form from the report (not re-encoded).
    const raw = await app.request("GET", "/login?next=/.//evil.example", undefined, { cookie });
    strictEqual(raw.headers.get("location"), "/");
  } finally {
    await app.close();
    await open.close();
  }
});

Deno.test("the login form post honours only a safe next (auth on)", async () => {
  const PASSWORD = "correct horse battery staple";
  const app = await createTestApp({ env: { HERMES_WEBUI_PASSWORD: PASSWORD } });
  try {
    for (const next of ["/.//evil.example", "/x/..//evil.example", "/%2e%2e//evil.example"]) {
      const page = await (await app.request("GET", `/login?next=${encodeURIComponent(next)}`))
        .text();
      ok(page.includes(`name="next" value="/"`), `login page for ${next}`);
      const form = new URLSearchParams({ password: PASSWORD, next }).toString();
      const res = await app.request("POST", "/api/auth/login", form, {
        "content-type": "application/x-www-form-urlencoded",
      });
      strictEqual(res.status, 303, next);
      strictEqual(res.headers.get("location"), "/", next);
    }
  } finally {
    await app.close();
  }
});
