// Files › New file with a path whose folders do not exist yet (`notes/todo.md`): with `parents`
// the folders are made beneath the workspace, each checked like a typed name, never through a
// symlink and never into a protected folder; `..` is refused plainly.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp, withWorkspaceSession as withSession } from "./helpers.ts";
import { createSession } from "../lib/sessions/sessions.ts";

const exists = async (p: string) => {
  try {
    await Deno.lstat(p);
    return true;
  } catch {
    return false;
  }
};

Deno.test("POST /api/file/create with parents makes the missing folders of notes/todo.md", () =>
  withSession(async (app, sid, ws) => {
    const r = await app.call("POST", "/api/file/create", {
      session_id: sid,
      path: "notes/todo.md",
      content: "- [ ] write it down\n",
      parents: true,
    });
    deepStrictEqual(r, { status: 200, body: { ok: true, path: "notes/todo.md" } });
    ok((await Deno.stat(join(ws, "notes"))).isDirectory);
    strictEqual(await Deno.readTextFile(join(ws, "notes/todo.md")), "- [ ] write it down\n");

    // Several levels at once, and a folder that already exists on the way.
    const deep = await app.call("POST", "/api/file/create", {
      session_id: sid,
      path: "notes/2026/may/plan.md",
      parents: true,
    });
    strictEqual(deep.status, 200);
    ok((await Deno.stat(join(ws, "notes/2026/may/plan.md"))).isFile);
  }));

Deno.test("POST /api/file/create with parents still refuses `..`, files as folders and links out", () =>
  withSession(async (app, sid, ws) => {
    const outside = await Deno.makeTempDir();
    try {
      const climb = await app.call("POST", "/api/file/create", {
        session_id: sid,
        path: "../x",
        parents: true,
      });
      strictEqual(climb.status, 400);
      ok(/leaves the workspace/.test(String(climb.body.error)), String(climb.body.error));
      const deepClimb = await app.call("POST", "/api/file/create", {
        session_id: sid,
        path: "a/../../x/y.md",
        parents: true,
      });
      strictEqual(deepClimb.status, 400);
      ok(!(await exists(join(ws, "..", "x"))));
      ok(!(await exists(join(ws, "a"))), "nothing is made before the refusal");

      // A file in the way is named.
      await Deno.writeTextFile(join(ws, "readme"), "hi");
      const file = await app.call("POST", "/api/file/create", {
        session_id: sid,
        path: "readme/todo.md",
        parents: true,
      });
      strictEqual(file.status, 400);
      ok(/"readme" is a file/.test(String(file.body.error)), String(file.body.error));

      // A symlink on the way is never followed, not even to make a folder beyond it.
      await Deno.symlink(outside, join(ws, "out"));
      const viaLink = await app.call("POST", "/api/file/create", {
        session_id: sid,
        path: "out/new/x.md",
        parents: true,
      });
      ok(viaLink.status === 404 || viaLink.status === 400, `→ ${viaLink.status}`);
      deepStrictEqual([...Deno.readDirSync(outside)], []);

      // Without `parents` a missing folder is still a 404 (the route's old contract).
      const plain = await app.call("POST", "/api/file/create", {
        session_id: sid,
        path: "other/x.md",
      });
      strictEqual(plain.status, 404);
      ok(!(await exists(join(ws, "other"))));
    } finally {
      await Deno.remove(outside, { recursive: true });
    }
  }));

Deno.test("POST /api/file/create with parents makes no folder inside a protected one", async () => {
  const app = await createTestApp();
  try {
    const home = join(app.stateDir, "..");
    await Deno.mkdir(join(home, ".ssh"), { recursive: true });
    const sid = (await createSession(app.ctx.db, app.ctx.clock, { workspace: home })).session_id;
    const r = await app.call("POST", "/api/file/create", {
      session_id: sid,
      path: ".ssh/keys/evil",
      parents: true,
    });
    strictEqual(r.status, 404);
    ok(!(await exists(join(home, ".ssh", "keys"))));
  } finally {
    await app.close();
  }
});
