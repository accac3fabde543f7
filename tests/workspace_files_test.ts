// The panel's file operations through their routes: create, folders, save with conflicts,
// rename, move, delete to the trash and restore, and the hostile inputs each must refuse.
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

/** Paths that must never reach the filesystem: each is a 404 (or a 400 for a bad shape). */
const HOSTILE = [
  "../outside.txt",
  "a/../../outside.txt",
  "/etc/passwd",
  "a\0b.txt",
  "..",
  "..\\x.txt",
  "C:/x.txt",
  "%2e%2e/x.txt",
  "file:///etc/passwd",
  "x\u2215..\u2215y",
  "a".repeat(5000),
];

Deno.test("POST /api/file/create and create-dir make new entries and never replace one", () =>
  withSession(async (app, sid, ws) => {
    const r = await app.call("POST", "/api/file/create", {
      session_id: sid,
      path: "notes.md",
      content: "# hi\n",
    });
    deepStrictEqual(r, { status: 200, body: { ok: true, path: "notes.md" } });
    strictEqual(await Deno.readTextFile(join(ws, "notes.md")), "# hi\n");
    const again = await app.call("POST", "/api/file/create", { session_id: sid, path: "notes.md" });
    strictEqual(again.status, 400);
    ok(/already exists/.test(String(again.body.error)));
    strictEqual(await Deno.readTextFile(join(ws, "notes.md")), "# hi\n");

    const d = await app.call("POST", "/api/file/create-dir", { session_id: sid, path: "src" });
    deepStrictEqual(d, { status: 200, body: { ok: true, path: "src" } });
    ok((await Deno.stat(join(ws, "src"))).isDirectory);
    strictEqual(
      (await app.call("POST", "/api/file/create-dir", { session_id: sid, path: "src" })).status,
      400,
    );
    const nested = await app.call("POST", "/api/file/create", {
      session_id: sid,
      path: "src/main.ts",
    });
    strictEqual(nested.body.path, "src/main.ts");
    // The parent must exist.
    strictEqual(
      (await app.call("POST", "/api/file/create", { session_id: sid, path: "nope/x.ts" })).status,
      404,
    );
  }));

Deno.test("file routes refuse traversal, NUL, `..`, long names and URLs without touching disk", () =>
  withSession(async (app, sid, ws) => {
    await Deno.writeTextFile(join(ws, "keep.txt"), "keep");
    const outside = join(ws, "..", "outside.txt");
    for (const path of HOSTILE) {
      for (
        const [route, extra] of [
          ["create", {}],
          ["create-dir", {}],
          ["save", { content: "x" }],
          ["delete", { recursive: true }],
          ["rename", { new_name: "y" }],
          ["move", { dest_dir: "." }],
        ] as const
      ) {
        const r = await app.call("POST", `/api/file/${route}`, {
          session_id: sid,
          path,
          ...extra,
        });
        ok(r.status === 404 || r.status === 400, `${route} ${JSON.stringify(path)} → ${r.status}`);
      }
    }
    ok(!(await exists(outside)));
    // Hostile destinations and names.
    for (const dest of ["..", "../..", "/tmp", "a\0"]) {
      const r = await app.call("POST", "/api/file/move", {
        session_id: sid,
        path: "keep.txt",
        dest_dir: dest,
      });
      ok(r.status === 404 || r.status === 400, `move to ${dest} → ${r.status}`);
    }
    for (const name of ["../x", "a/b", "..", ".", "", "a\0b", "a\nb", "x".repeat(300), "a\\b"]) {
      const r = await app.call("POST", "/api/file/rename", {
        session_id: sid,
        path: "keep.txt",
        new_name: name,
      });
      strictEqual(r.status, 400, `rename to ${JSON.stringify(name)}`);
    }
    strictEqual(await Deno.readTextFile(join(ws, "keep.txt")), "keep");
    // The workspace root itself is not an entry.
    for (const route of ["delete", "rename"]) {
      const r = await app.call("POST", `/api/file/${route}`, {
        session_id: sid,
        path: ".",
        recursive: true,
        new_name: "z",
      });
      strictEqual(r.status, 400);
    }
    // Unknown session → 404; cross-site / missing proof → 403.
    strictEqual(
      (await app.call("POST", "/api/file/create", { session_id: "nope", path: "a" })).status,
      404,
    );
    const noProof = await app.call(
      "POST",
      "/api/file/create",
      { session_id: sid, path: "a.txt" },
      {},
      { proof: false },
    );
    strictEqual(noProof.status, 403);
    ok(!(await exists(join(ws, "a.txt"))));
  }));

Deno.test("file routes never follow a symlink out, nor write through one", () =>
  withSession(async (app, sid, ws) => {
    const outsideDir = await Deno.makeTempDir();
    try {
      await Deno.writeTextFile(join(outsideDir, "secret.txt"), "secret");
      await Deno.symlink(outsideDir, join(ws, "out"));
      await Deno.symlink(join(outsideDir, "secret.txt"), join(ws, "secret-link"));
      for (
        const [route, body] of [
          ["create", { path: "out/new.txt" }],
          ["create-dir", { path: "out/newdir" }],
          ["save", { path: "secret-link", content: "pwned" }],
          ["save", { path: "out/secret.txt", content: "pwned" }],
          ["move", { path: "out/secret.txt", dest_dir: "." }],
          ["rename", { path: "out/secret.txt", new_name: "x" }],
          ["delete", { path: "out/secret.txt" }],
        ] as const
      ) {
        const r = await app.call("POST", `/api/file/${route}`, { session_id: sid, ...body });
        ok(r.status === 404 || r.status === 400, `${route} ${body.path} → ${r.status}`);
      }
      await Deno.writeTextFile(join(ws, "f.txt"), "f");
      const mv = await app.call("POST", "/api/file/move", {
        session_id: sid,
        path: "f.txt",
        dest_dir: "out",
      });
      strictEqual(mv.status, 404);
      deepStrictEqual(
        [...Deno.readDirSync(outsideDir)].map((e) => e.name),
        ["secret.txt"],
      );
      strictEqual(await Deno.readTextFile(join(outsideDir, "secret.txt")), "secret");
      // Deleting the link deletes the link, never its target.
      const del = await app.call("POST", "/api/file/delete", { session_id: sid, path: "out" });
      strictEqual(del.status, 200);
      ok(!(await exists(join(ws, "out"))));
      strictEqual(await Deno.readTextFile(join(outsideDir, "secret.txt")), "secret");
    } finally {
      await Deno.remove(outsideDir, { recursive: true });
    }
  }));

Deno.test("file routes refuse protected paths inside the workspace (home as workspace)", async () => {
  const app = await createTestApp();
  try {
    // HOME is the test root: make it the workspace, with the state dir and .ssh inside.
    const home = join(app.stateDir, "..");
    await Deno.mkdir(join(home, ".ssh"), { recursive: true });
    await Deno.writeTextFile(join(home, ".ssh", "authorized_keys"), "");
    const sid = (await createSession(app.ctx.db, app.ctx.clock, { workspace: home })).session_id;
    for (
      const [route, body] of [
        ["create", { path: ".ssh/evil" }],
        ["save", { path: ".ssh/authorized_keys", content: "ssh-ed25519 AAAA" }],
        ["delete", { path: ".ssh", recursive: true }],
        ["rename", { path: ".ssh", new_name: "ssh2" }],
        ["rename", { path: "workspace", new_name: ".ssh" }],
        ["create-dir", { path: "state/x" }],
        ["create", { path: "config.yaml" }],
        ["move", { path: "workspace", dest_dir: ".ssh" }],
      ] as const
    ) {
      const r = await app.call("POST", `/api/file/${route}`, { session_id: sid, ...body });
      strictEqual(r.status, 404, `${route} ${JSON.stringify(body)}`);
    }
    strictEqual(await Deno.readTextFile(join(home, ".ssh", "authorized_keys")), "");
    ok(!(await exists(join(home, "config.yaml"))));
    // A folder named like a protected one cannot be moved to where that one would be, nor can
    // an upload or an archive create a protected path that does not exist yet.
    await Deno.mkdir(join(home, "x/.aws"), { recursive: true });
    const mv = await app.call("POST", "/api/file/move", {
      session_id: sid,
      path: "x/.aws",
      dest_dir: ".",
    });
    strictEqual(mv.status, 404);
    ok(!(await exists(join(home, ".aws"))));
    const fd = new FormData();
    fd.set("session_id", sid);
    fd.append("file", new File(["model: evil"], "config.yaml"));
    const up = await app.call("POST", "/api/workspace/upload", fd);
    strictEqual(up.status, 200);
    strictEqual(up.body.path, "config-1.yaml");
    ok(!(await exists(join(home, "config.yaml"))));
  } finally {
    await app.close();
  }
});

Deno.test("POST /api/file/save writes, and a file changed on disk since opening is a 409", () =>
  withSession(async (app, sid, ws) => {
    await Deno.writeTextFile(join(ws, "a.txt"), "one");
    const opened = await app.call<{ content: string; sha256: string; mtime: number }>(
      "GET",
      `/api/file?session_id=${sid}&path=a.txt`,
    );
    strictEqual(opened.body.content, "one");
    ok(/^[0-9a-f]{64}$/.test(opened.body.sha256));
    const saved = await app.call("POST", "/api/file/save", {
      session_id: sid,
      path: "a.txt",
      content: "two",
      expected_sha256: opened.body.sha256,
    });
    strictEqual(saved.status, 200);
    strictEqual(saved.body.size, 3);
    strictEqual(await Deno.readTextFile(join(ws, "a.txt")), "two");
    // Someone (the agent) changes it; a save against the old base is refused, nothing written.
    await Deno.writeTextFile(join(ws, "a.txt"), "agent");
    const stale = await app.call("POST", "/api/file/save", {
      session_id: sid,
      path: "a.txt",
      content: "mine",
      expected_sha256: saved.body.sha256,
    });
    strictEqual(stale.status, 409);
    strictEqual(stale.body.conflict, true);
    ok(/changed on disk/.test(String(stale.body.error)));
    strictEqual(await Deno.readTextFile(join(ws, "a.txt")), "agent");
    // Overwrite = save without an expectation.
    const forced = await app.call("POST", "/api/file/save", {
      session_id: sid,
      path: "a.txt",
      content: "mine",
    });
    strictEqual(forced.status, 200);
    strictEqual(await Deno.readTextFile(join(ws, "a.txt")), "mine");
    // A file grown past what the editor can hold is a conflict, never read whole.
    await Deno.writeFile(join(ws, "a.txt"), new Uint8Array(6 * 1024 * 1024));
    const grown = await app.call("POST", "/api/file/save", {
      session_id: sid,
      path: "a.txt",
      content: "small",
      expected_sha256: saved.body.sha256,
    });
    strictEqual(grown.status, 409);
    strictEqual((await Deno.stat(join(ws, "a.txt"))).size, 6 * 1024 * 1024);
    // Missing file → 404, folder → 400, malformed expectation → 400.
    strictEqual(
      (await app.call("POST", "/api/file/save", { session_id: sid, path: "no.txt", content: "" }))
        .status,
      404,
    );
    await Deno.mkdir(join(ws, "dir"));
    strictEqual(
      (await app.call("POST", "/api/file/save", { session_id: sid, path: "dir", content: "" }))
        .status,
      400,
    );
    strictEqual(
      (await app.call("POST", "/api/file/save", {
        session_id: sid,
        path: "a.txt",
        content: "",
        expected_sha256: "../../etc",
      })).status,
      400,
    );
  }));

Deno.test("a file replaced by a folder mid-call is refused, never written into", () =>
  withSession(async (app, sid, ws) => {
    await Deno.writeTextFile(join(ws, "swap"), "file");
    // Replace the file by a folder between two calls that name it as a file.
    await Deno.remove(join(ws, "swap"));
    await Deno.mkdir(join(ws, "swap"));
    const save = await app.call("POST", "/api/file/save", {
      session_id: sid,
      path: "swap",
      content: "x",
    });
    strictEqual(save.status, 400);
    const del = await app.call("POST", "/api/file/delete", { session_id: sid, path: "swap" });
    strictEqual(del.status, 400);
    ok(/recursive/.test(String(del.body.error)));
    // Races: save and swap at once, many times; the folder is never turned into a file and no
    // file appears inside it.
    for (let i = 0; i < 20; i++) {
      await Deno.remove(join(ws, "swap"), { recursive: true });
      await Deno.writeTextFile(join(ws, "swap"), "file");
      const [r] = await Promise.all([
        app.call("POST", "/api/file/save", { session_id: sid, path: "swap", content: "new" }),
        (async () => {
          await Deno.remove(join(ws, "swap"));
          await Deno.mkdir(join(ws, "swap"));
        })(),
      ]);
      ok([200, 400, 404].includes(r.status), `status ${r.status}`);
      ok((await Deno.stat(join(ws, "swap"))).isDirectory);
      deepStrictEqual([...Deno.readDirSync(join(ws, "swap"))], []);
    }
  }));

Deno.test("POST /api/file/rename and move keep contents and never overwrite", () =>
  withSession(async (app, sid, ws) => {
    await Deno.mkdir(join(ws, "dir/sub"), { recursive: true });
    await Deno.writeTextFile(join(ws, "a.txt"), "A");
    await Deno.writeTextFile(join(ws, "b.txt"), "B");
    const r = await app.call("POST", "/api/file/rename", {
      session_id: sid,
      path: "a.txt",
      new_name: "c.txt",
    });
    deepStrictEqual(r.body, { ok: true, old_path: "a.txt", new_path: "c.txt" });
    const taken = await app.call("POST", "/api/file/rename", {
      session_id: sid,
      path: "c.txt",
      new_name: "b.txt",
    });
    strictEqual(taken.status, 400);
    strictEqual(await Deno.readTextFile(join(ws, "b.txt")), "B");
    const mv = await app.call("POST", "/api/file/move", {
      session_id: sid,
      path: "c.txt",
      dest_dir: "dir/sub",
    });
    deepStrictEqual(mv.body, { ok: true, old_path: "c.txt", new_path: "dir/sub/c.txt" });
    strictEqual(await Deno.readTextFile(join(ws, "dir/sub/c.txt")), "A");
    await Deno.writeTextFile(join(ws, "c.txt"), "other");
    const clash = await app.call("POST", "/api/file/move", {
      session_id: sid,
      path: "c.txt",
      dest_dir: "dir/sub",
    });
    strictEqual(clash.status, 400);
    strictEqual(await Deno.readTextFile(join(ws, "dir/sub/c.txt")), "A");
    const into = await app.call("POST", "/api/file/move", {
      session_id: sid,
      path: "dir",
      dest_dir: "dir/sub",
    });
    strictEqual(into.status, 400);
    ok(/into itself/.test(String(into.body.error)));
    strictEqual(
      (await app.call("POST", "/api/file/move", {
        session_id: sid,
        path: "b.txt",
        dest_dir: "missing",
      })).status,
      404,
    );
  }));

Deno.test("POST /api/file/delete moves to the trash; GET trash lists it; restore puts it back", () =>
  withSession(async (app, sid, ws) => {
    await Deno.mkdir(join(ws, "proj/src"), { recursive: true });
    await Deno.writeTextFile(join(ws, "proj/src/x.ts"), "x");
    await Deno.writeTextFile(join(ws, "note.txt"), "n");
    const d1 = await app.call("POST", "/api/file/delete", { session_id: sid, path: "note.txt" });
    strictEqual(d1.status, 200);
    ok(typeof d1.body.trash_id === "string");
    ok(!(await exists(join(ws, "note.txt"))));
    const d2 = await app.call("POST", "/api/file/delete", {
      session_id: sid,
      path: "proj",
      recursive: true,
    });
    strictEqual(d2.status, 200);
    const list = await app.call<{ items: { id: string; path: string; type: string }[] }>(
      "GET",
      `/api/file/trash?session_id=${sid}`,
    );
    deepStrictEqual(list.body.items.map((i) => [i.path, i.type]).sort(), [
      ["note.txt", "file"],
      ["proj", "dir"],
    ]);
    ok(!("workspace" in list.body.items[0]));
    // Another workspace's session sees none of it and cannot restore it.
    const other = await Deno.makeTempDir();
    try {
      const sid2 =
        (await createSession(app.ctx.db, app.ctx.clock, { workspace: other })).session_id;
      deepStrictEqual(
        (await app.call("GET", `/api/file/trash?session_id=${sid2}`)).body,
        { items: [] },
      );
      strictEqual(
        (await app.call("POST", "/api/file/restore", {
          session_id: sid2,
          id: String(d2.body.trash_id),
        })).status,
        404,
      );
    } finally {
      await Deno.remove(other, { recursive: true });
    }
    const back = await app.call("POST", "/api/file/restore", {
      session_id: sid,
      id: String(d2.body.trash_id),
    });
    deepStrictEqual(back.body, { ok: true, path: "proj" });
    strictEqual(await Deno.readTextFile(join(ws, "proj/src/x.ts")), "x");
    // Restoring over a new entry of the same name is a 409; nothing is overwritten.
    await Deno.writeTextFile(join(ws, "note.txt"), "new");
    const clash = await app.call("POST", "/api/file/restore", {
      session_id: sid,
      id: String(d1.body.trash_id),
    });
    strictEqual(clash.status, 409);
    strictEqual(await Deno.readTextFile(join(ws, "note.txt")), "new");
    for (const id of ["../../etc", "x", "", "0000000000000-000000000000"]) {
      strictEqual(
        (await app.call("POST", "/api/file/restore", { session_id: sid, id })).status,
        404,
        id,
      );
    }
    // permanent skips the trash.
    const p = await app.call("POST", "/api/file/delete", {
      session_id: sid,
      path: "proj",
      recursive: true,
      permanent: true,
    });
    deepStrictEqual(p.body, { ok: true, path: "proj", trash_id: null });
    ok(!(await exists(join(ws, "proj"))));
  }));

Deno.test("GET /api/sessions/events?watch= pushes workspace_changed; the watcher closes after", () =>
  withSession(async (app, sid, ws) => {
    const { workspaceWatchers } = await import("../lib/workspace/workspace_watcher.ts");
    const res = await app.request("GET", `/api/sessions/events?watch=${sid}`);
    strictEqual(res.status, 200);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes(": connected")) text += (await reader.read()).value ?? "";
    // Wait until the watcher is open, then change files.
    for (let i = 0; i < 100 && workspaceWatchers(app.ctx.db).count() === 0; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    strictEqual(workspaceWatchers(app.ctx.db).count(), 1);
    await Deno.writeTextFile(join(ws, "new.txt"), "x");
    await Deno.mkdir(join(app.stateDir, "..", "elsewhere"), { recursive: true });
    while (!text.includes("event: workspace_changed")) text += (await reader.read()).value ?? "";
    while (!text.endsWith("\n\n")) text += (await reader.read()).value ?? "";
    const data = JSON.parse(
      text.split("event: workspace_changed\ndata: ")[1].split("\n")[0],
    );
    strictEqual(data.type, "workspace_changed");
    strictEqual(data.session_id, sid);
    strictEqual(data.workspace, await Deno.realPath(ws));
    ok(data.paths.includes("new.txt"), JSON.stringify(data.paths));
    for (const p of data.paths) ok(!p.startsWith("..") && !p.startsWith("/"), p);
    await reader.cancel();
    for (let i = 0; i < 100 && workspaceWatchers(app.ctx.db).count() > 0; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    strictEqual(workspaceWatchers(app.ctx.db).count(), 0);
    strictEqual((await app.call("GET", "/api/sessions/events?watch=nope")).status, 404);
  }));

Deno.test("GET /api/file?head=1 opens a large file read-only with its first whole lines", () =>
  withSession(async (app, sid, ws) => {
    const line = "0123456789".repeat(9) + "\n";
    await Deno.writeTextFile(join(ws, "big.log"), line.repeat(10_000));
    strictEqual((await app.call("GET", `/api/file?session_id=${sid}&path=big.log`)).status, 413);
    const r = await app.call<
      { content: string; truncated: boolean; readonly: boolean; size: number; lines: number }
    >("GET", `/api/file?session_id=${sid}&path=big.log&head=1`);
    strictEqual(r.status, 200);
    strictEqual(r.body.truncated, true);
    strictEqual(r.body.readonly, true);
    strictEqual(r.body.size, line.length * 10_000);
    ok(r.body.content.endsWith("\n"));
    ok(r.body.content.length <= 400_000);
    strictEqual(r.body.lines, r.body.content.length / line.length);
  }));
