// The POST file routes refuse a path that is hostile on its face (`..`, absolute, NUL, encoded
// dot-dot, Windows forms, URLs) with a 400 that says why, before any lookup, as the original
// answers (its tests: traversal on /api/file/path, /open-vscode, delete, save → 400). A
// well-formed path that does not exist stays a 404, and so does a symlink out of the workspace,
// which only a lookup can tell. Nothing outside the workspace is touched or named.
import { ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp, type TestApp } from "./helpers.ts";
import { createSession } from "../lib/sessions/sessions.ts";

/** Hostile on their face: each must be refused with 400 by every POST file route. */
const HOSTILE = [
  "../../../../../../etc/passwd",
  "../outside.txt",
  "a/../../outside.txt",
  "..",
  "../",
  "/etc/passwd",
  "//etc/passwd",
  "secret.txt\0",
  "../outside.txt\0.png",
  "%2e%2e/outside.txt",
  "..%2foutside.txt",
  "%252e%252e%252foutside.txt",
  "..\\outside.txt",
  "C:\\Windows\\win.ini",
  "file:///etc/passwd",
  "\uff0e\uff0e\uff0foutside.txt",
  "..\u2215outside.txt",
  "~/../../etc/passwd",
];

/** Each POST route that names a workspace path, with the rest of a valid body. */
const ROUTES: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
  ["path", {}],
  ["open-vscode", {}],
  ["reveal", {}],
  ["delete", { recursive: true }],
  ["save", { content: "pwned" }],
  ["create", { content: "pwned" }],
  ["create-dir", {}],
  ["rename", { new_name: "renamed.txt" }],
  ["move", { dest_dir: "." }],
];

async function withWorkspace(
  fn: (app: TestApp, sid: string, ws: string, outside: string) => Promise<void>,
): Promise<void> {
  const app = await createTestApp();
  try {
    const ws = app.workspace;
    const outside = join(ws, "..", "outside.txt");
    await Deno.writeTextFile(outside, "OUTSIDE-SECRET");
    await Deno.writeTextFile(join(ws, "keep.txt"), "keep");
    const sid = (await createSession(app.ctx.db, app.ctx.clock, { workspace: ws })).session_id;
    await fn(app, sid, ws, outside);
  } finally {
    await app.close();
  }
}

Deno.test("POST file routes answer a hostile path with 400 and a reason, touching nothing", () =>
  withWorkspace(async (app, sid, ws, outside) => {
    for (const [route, extra] of ROUTES) {
      for (const path of HOSTILE) {
        const label = `${route} ${JSON.stringify(path)}`;
        const r = await app.call<{ error?: unknown }>("POST", `/api/file/${route}`, {
          session_id: sid,
          path,
          ...extra,
        });
        strictEqual(r.status, 400, `${label} → ${r.status} ${JSON.stringify(r.body)}`);
        const error = String(r.body.error ?? "");
        ok(/^The path /.test(error), `${label}: a reason in words, got ${JSON.stringify(error)}`);
        // The answer repeats nothing of the path it refused (the original's test: no "passwd").
        ok(!/passwd|outside\.txt|win\.ini/i.test(error), `${label}: echoes ${error}`);
      }
    }
    // Each kind of hostility is named, so a person can see what to fix.
    const reasons: Array<[string, RegExp]> = [
      ["../../etc/passwd", /leaves the workspace/],
      ["/etc/passwd", /absolute/],
      ["a\0b", /NUL/],
      ["%2e%2e/x", /percent-escape/],
      ["..\\x", /Windows/],
      ["file:///etc/passwd", /URL/],
    ];
    for (const [path, why] of reasons) {
      const r = await app.call<{ error: string }>("POST", "/api/file/path", {
        session_id: sid,
        path,
      });
      strictEqual(r.status, 400, path);
      ok(why.test(r.body.error), `${JSON.stringify(path)}: ${r.body.error}`);
    }
    // A move's destination is a path too.
    const dest = await app.call<{ error: string }>("POST", "/api/file/move", {
      session_id: sid,
      path: "keep.txt",
      dest_dir: "../..",
    });
    strictEqual(dest.status, 400);
    ok(/leaves the workspace/.test(dest.body.error), dest.body.error);
    // Nothing was written, moved or deleted, inside or out.
    strictEqual(await Deno.readTextFile(outside), "OUTSIDE-SECRET");
    strictEqual(await Deno.readTextFile(join(ws, "keep.txt")), "keep");
    const names = [...Deno.readDirSync(ws)].map((e) => e.name).sort();
    ok(names.includes("keep.txt") && !names.includes("renamed.txt"), names.join(","));
  }));

Deno.test("a well-formed path that does not exist stays 404; a symlink out stays 404", () =>
  withWorkspace(async (app, sid, ws) => {
    for (
      const [route, extra] of [
        ["open-vscode", {}],
        ["reveal", {}],
        ["delete", {}],
        ["save", { content: "x" }],
        ["rename", { new_name: "y.txt" }],
        ["move", { dest_dir: "." }],
      ] as const
    ) {
      const r = await app.call("POST", `/api/file/${route}`, {
        session_id: sid,
        path: "missing-2735.txt",
        ...extra,
      });
      strictEqual(r.status, 404, `${route} missing → ${r.status} ${JSON.stringify(r.body)}`);
    }
    // /api/file/path names a missing file too (copying a deleted file's path is useful).
    const named = await app.call<{ path: string; exists: boolean }>("POST", "/api/file/path", {
      session_id: sid,
      path: "missing-2735.txt",
    });
    strictEqual(named.status, 200);
    strictEqual(named.body.exists, false);
    // Only a lookup can tell a symlink leads out: that refusal stays the guard's bare 404.
    const outsideDir = await Deno.makeTempDir();
    try {
      await Deno.writeTextFile(join(outsideDir, "secret.txt"), "secret");
      await Deno.symlink(outsideDir, join(ws, "out"));
      for (const route of ["path", "save"]) {
        const r = await app.call("POST", `/api/file/${route}`, {
          session_id: sid,
          path: "out/secret.txt",
          content: "pwned",
        });
        strictEqual(r.status, 404, `${route} via a symlink out → ${r.status}`);
      }
      strictEqual(await Deno.readTextFile(join(outsideDir, "secret.txt")), "secret");
    } finally {
      await Deno.remove(outsideDir, { recursive: true });
    }
    // An unknown session is still the session's 404, whatever the path.
    const unknown = await app.call<{ error: string }>("POST", "/api/file/delete", {
      session_id: "0123456789ab",
      path: "keep.txt",
    });
    strictEqual(unknown.status, 404);
  }));
