// Media and file helpers in the original's shapes: GET /api/media (inline images, audio with
// ranges, sandboxed HTML, source as text attachments, secrets refused), GET /api/file/raw of a
// script, Latin-1-safe Content-Disposition, POST /api/file/path, /reveal and /open-vscode.
import { match, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp, type TestApp } from "./helpers.ts";
import { contentDisposition } from "../lib/workspace/mime.ts";
import { parseRange } from "../lib/workspace/media_policy.ts";

async function withApp(
  fn: (app: TestApp, sid: string) => Promise<void>,
  opts: Parameters<typeof createTestApp>[0] = {},
): Promise<void> {
  const app = await createTestApp(opts);
  try {
    const ws = app.workspace;
    await Deno.writeFile(join(ws, "pic.png"), PNG);
    await Deno.writeFile(join(ws, "song.mp3"), AUDIO);
    await Deno.writeTextFile(join(ws, "page.html"), "<script>alert(1)</script>");
    await Deno.writeTextFile(join(ws, "app.js"), "alert(1)");
    await Deno.writeTextFile(join(ws, "comp.tsx"), "export default () => <b/>;");
    await Deno.writeTextFile(join(ws, "résumé ü.txt"), "hello");
    const created = await app.call<{ session?: { session_id: string } }>(
      "POST",
      "/api/session/new",
      {},
    );
    // With auth on the fixture cannot create one (the test logs in and makes its own).
    await fn(app, created.body.session?.session_id ?? "");
  } finally {
    await app.close();
  }
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const AUDIO = new Uint8Array(1000).map((_, i) => i % 251);

Deno.test("GET /api/media serves images inline with their MIME; 400 without a path", async () => {
  await withApp(async (app) => {
    const res = await app.request("GET", "/api/media?path=pic.png");
    strictEqual(res.status, 200);
    strictEqual(res.headers.get("content-type"), "image/png");
    match(res.headers.get("content-disposition") ?? "", /^inline;/);
    strictEqual(res.headers.get("x-content-type-options"), "nosniff");
    strictEqual((await res.bytes()).length, PNG.length);
    const abs = await app.request("GET", `/api/media?path=${join(app.workspace, "pic.png")}`);
    strictEqual(abs.status, 200, "an absolute path inside a listed workspace works too");
    await abs.body?.cancel();
    strictEqual((await app.call("GET", "/api/media")).status, 400);
    strictEqual((await app.call("GET", "/api/media?path=missing.png")).status, 404);
    strictEqual((await app.call("GET", "/api/media?path=../../etc/passwd")).status, 404);
    strictEqual((await app.call("GET", "/api/media?path=/etc/passwd")).status, 404);
  });
});

Deno.test("GET /api/media serves audio with range requests", async () => {
  await withApp(async (app, sid) => {
    const full = await app.request("GET", `/api/media?path=song.mp3&session_id=${sid}`);
    strictEqual(full.status, 200);
    strictEqual(full.headers.get("content-type"), "audio/mpeg");
    strictEqual(full.headers.get("accept-ranges"), "bytes");
    strictEqual((await full.bytes()).length, 1000);
    const part = await app.request("GET", "/api/media?path=song.mp3", undefined, {
      range: "bytes=100-199",
    });
    strictEqual(part.status, 206);
    strictEqual(part.headers.get("content-range"), "bytes 100-199/1000");
    strictEqual(part.headers.get("content-length"), "100");
    const bytes = await part.bytes();
    strictEqual(bytes.length, 100);
    strictEqual(bytes[0], AUDIO[100]);
    strictEqual(bytes[99], AUDIO[199]);
    const tail = await app.request("GET", "/api/media?path=song.mp3", undefined, {
      range: "bytes=-10",
    });
    strictEqual(tail.status, 206);
    strictEqual((await tail.bytes()).length, 10);
    const beyond = await app.request("GET", "/api/media?path=song.mp3", undefined, {
      range: "bytes=5000-",
    });
    strictEqual(beyond.status, 416);
    strictEqual(beyond.headers.get("content-range"), "bytes */1000");
    await beyond.body?.cancel();
  });
});

Deno.test("GET /api/media: HTML only under CSP sandbox, source files as text/plain attachments", async () => {
  await withApp(async (app) => {
    const html = await app.request("GET", "/api/media?path=page.html");
    strictEqual(html.status, 200);
    strictEqual(html.headers.get("content-type"), "text/html; charset=utf-8");
    match(html.headers.get("content-security-policy") ?? "", /^sandbox/);
    await html.body?.cancel();
    for (const name of ["app.js", "comp.tsx"]) {
      const res = await app.request("GET", `/api/media?path=${name}`);
      strictEqual(res.status, 200, name);
      strictEqual(res.headers.get("content-type"), "text/plain; charset=utf-8", name);
      match(res.headers.get("content-disposition") ?? "", /^attachment;/, name);
      match(res.headers.get("content-security-policy") ?? "", /^sandbox/, name);
      await res.body?.cancel();
    }
  });
});

Deno.test("GET /api/media refuses the state dir's secret files with 403", async () => {
  await withApp(async (app) => {
    const secrets = [];
    for await (const e of Deno.readDir(app.stateDir)) if (e.isFile) secrets.push(e.name);
    ok(secrets.length > 0, "the state dir holds files (database, session secret)");
    for (const name of secrets) {
      const res = await app.call("GET", `/api/media?path=${join(app.stateDir, name)}`);
      strictEqual(res.status, 403, name);
    }
    // Also when the workspace is the home holding them, and by a relative path.
    const inside = await app.call(
      "GET",
      `/api/media?path=${encodeURIComponent(join(app.workspace, "..", "state", secrets[0]))}`,
    );
    strictEqual(inside.status, 403);
  });
});

Deno.test("GET /api/file/raw of a .js file answers application/octet-stream", async () => {
  await withApp(async (app, sid) => {
    const res = await app.request("GET", `/api/file/raw?session_id=${sid}&path=app.js`);
    strictEqual(res.status, 200);
    strictEqual(res.headers.get("content-type"), "application/octet-stream");
    strictEqual(await res.text(), "alert(1)");
  });
});

Deno.test("Content-Disposition is Latin-1-safe for Unicode names, inline and download", async () => {
  await withApp(async (app, sid) => {
    const name = encodeURIComponent("résumé ü.txt");
    for (
      const [url, kind] of [
        [`/api/file/raw?session_id=${sid}&path=${name}`, "inline"],
        [`/api/file/raw?session_id=${sid}&path=${name}&download=1`, "attachment"],
        [`/api/media?path=${name}`, "inline"],
      ]
    ) {
      const res = await app.request("GET", url);
      strictEqual(res.status, 200, url);
      await res.body?.cancel();
      const cd = res.headers.get("content-disposition")!;
      ok(cd.startsWith(`${kind};`), cd);
      ok(/^[\x20-\x7e]*$/.test(cd), `ASCII only: ${cd}`);
      ok(cd.includes(`filename*=UTF-8''r%C3%A9sum%C3%A9%20%C3%BC.txt`), cd);
    }
  });
  const cd = contentDisposition("attachment", "it's (a) *test*.txt");
  ok(cd.endsWith("filename*=UTF-8''it%27s%20%28a%29%20%2Atest%2A.txt"), cd);
});

Deno.test("parseRange() reads one byte range and refuses ones outside the file", () => {
  strictEqual(parseRange(null, 10).kind, "full");
  strictEqual(parseRange("bytes=0-", 10).kind, "partial");
  strictEqual(parseRange("bytes=3-100", 10).kind, "partial");
  strictEqual((parseRange("bytes=3-100", 10) as { end: number }).end, 9);
  strictEqual(parseRange("bytes=10-", 10).kind, "unsatisfiable");
  strictEqual(parseRange("bytes=5-2", 10).kind, "unsatisfiable");
  strictEqual(parseRange("items=1-2", 10).kind, "full");
});

Deno.test("POST /api/file/path returns the absolute path, even for a missing file; refuses traversal", async () => {
  await withApp(async (app, sid) => {
    const ws = await Deno.realPath(app.workspace);
    const there = await app.call<{ path: string; exists: boolean }>("POST", "/api/file/path", {
      session_id: sid,
      path: "pic.png",
    });
    strictEqual(there.status, 200);
    strictEqual(there.body.path, join(ws, "pic.png"));
    strictEqual(there.body.exists, true);
    const missing = await app.call<{ path: string; exists: boolean }>("POST", "/api/file/path", {
      session_id: sid,
      path: "new/dir/notes.md",
    });
    strictEqual(missing.status, 200);
    strictEqual(missing.body.path, join(ws, "new/dir/notes.md"));
    strictEqual(missing.body.exists, false);
    // Hostile on its face → 400 before any lookup, as the original.
    for (const path of ["../outside.txt", "/etc/passwd", "a/../../b"]) {
      const res = await app.call("POST", "/api/file/path", { session_id: sid, path });
      strictEqual(res.status, 400, path);
    }
    strictEqual((await app.call("POST", "/api/file/path", { session_id: sid })).status, 400);
  });
});

for (const action of ["reveal", "open-vscode"]) {
  Deno.test(`POST /api/file/${action} answers the original's errors and runs nothing unguarded`, async () => {
    await withApp(async (app, sid) => {
      const url = `/api/file/${action}`;
      strictEqual((await app.call("POST", url, { session_id: sid })).status, 400);
      strictEqual((await app.call("POST", url, { path: "pic.png" })).status, 400);
      const unknown = await app.call<{ error: string }>("POST", url, {
        session_id: "0123456789ab",
        path: "pic.png",
      });
      strictEqual(unknown.status, 404);
      match(unknown.body.error, /session/i);
      const missing = await app.call<{ error: string }>("POST", url, {
        session_id: sid,
        path: "gone.txt",
      });
      strictEqual(missing.status, 404);
      match(
        missing.body.error,
        new RegExp(`${join(await Deno.realPath(app.workspace), "gone.txt")}`),
      );
      const escape = await app.call<{ error: string }>("POST", url, {
        session_id: sid,
        path: "../../etc/passwd",
      });
      // As the original: a traversal is a 400 (before any lookup) that names nothing outside.
      strictEqual(escape.status, 400);
      match(escape.body.error, /leaves the workspace/);
      ok(!/passwd|\/etc/.test(escape.body.error), "the refusal says nothing about outside");
    });
  });

  Deno.test(`POST /api/file/${action} is refused with a clear message when not bound to loopback`, async () => {
    const password = "remote password 123";
    await withApp(async (app, _sid) => {
      const login = await app.request("POST", "/api/auth/login", { password });
      const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
      const created = await app.call<{ session: { session_id: string } }>(
        "POST",
        "/api/session/new",
        {},
        { cookie },
      );
      const res = await app.call<{ error: string }>("POST", `/api/file/${action}`, {
        session_id: created.body.session.session_id,
        path: "pic.png",
      }, { cookie });
      strictEqual(res.status, 403, JSON.stringify(res.body));
      match(res.body.error, /your own machine/);
    }, {
      env: {
        HERMES_WEBUI_HOST: "0.0.0.0",
        HERMES_WEBUI_PASSWORD: password,
        HERMES_WEBUI_ALLOWED_HOSTS: "127.0.0.1",
      },
    });
  });
}
