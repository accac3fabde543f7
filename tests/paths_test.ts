import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp } from "./helpers.ts";
import { createHostileWorkspace, HOSTILE_PATHS, OUTSIDE_SECRET } from "./fixtures/hostile_paths.ts";
import { NotFoundError } from "../lib/errors.ts";
import { resolveInWorkspace } from "../lib/workspace/workspace_paths.ts";
import { createSession } from "../lib/sessions/sessions.ts";

const FILE_ROUTES = ["/api/list", "/api/file", "/api/file/raw"] as const;

Deno.test("the hostile path corpus holds at least 60 distinct entries", () => {
  ok(HOSTILE_PATHS.length >= 60, `only ${HOSTILE_PATHS.length} entries`);
  strictEqual(new Set(HOSTILE_PATHS).size, HOSTILE_PATHS.length, "duplicate entries");
});

Deno.test("resolveInWorkspace() refuses every hostile path, existing or about to be created", async () => {
  const root = await Deno.makeTempDir({ prefix: "hermes-paths-" });
  try {
    const { workspace, outside } = await createHostileWorkspace(root);
    for (const p of [...HOSTILE_PATHS, join(outside, "secret.txt")]) {
      for (const mustExist of [true, false]) {
        await rejects(
          resolveInWorkspace(workspace, p, { mustExist }),
          (err) => err instanceof NotFoundError && err.message === "not found",
          `accepted ${JSON.stringify(p.slice(0, 80))} (mustExist: ${mustExist})`,
        );
      }
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("resolveInWorkspace() still accepts ordinary and oddly named paths inside", async () => {
  const root = await Deno.makeTempDir({ prefix: "hermes-paths-" });
  try {
    const { workspace } = await createHostileWorkspace(root);
    const real = await Deno.realPath(workspace);
    for (
      const name of [
        "..foo",
        "a..b",
        "...",
        "a b.txt",
        "naïve.md",
        "100%.txt",
        "ｆｕｌｌ．txt",
        "-rf",
      ]
    ) {
      await Deno.writeTextFile(join(workspace, name), "x");
      strictEqual(await resolveInWorkspace(workspace, name), join(real, name));
    }
    strictEqual(await resolveInWorkspace(workspace, "."), real);
    strictEqual(await resolveInWorkspace(workspace, ""), real);
    strictEqual(
      await resolveInWorkspace(workspace, "sub/./inner.txt"),
      join(real, "sub/inner.txt"),
    );
    strictEqual(await resolveInWorkspace(workspace, "sub/"), join(real, "sub"));
    // A symlink that stays inside is followed to its real path.
    await Deno.symlink("sub", join(workspace, "link-in"));
    strictEqual(
      await resolveInWorkspace(workspace, "link-in/inner.txt"),
      join(real, "sub/inner.txt"),
    );
    // A file that does not exist yet resolves under its (real, inside) parent.
    strictEqual(
      await resolveInWorkspace(workspace, "sub/new/deep.txt", { mustExist: false }),
      join(real, "sub/new/deep.txt"),
    );
    await rejects(resolveInWorkspace(workspace, "missing.txt"), NotFoundError);
    // …but not under a parent that is a symlink leading out.
    await rejects(
      resolveInWorkspace(workspace, "link-out/new.txt", { mustExist: false }),
      NotFoundError,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("file routes answer every hostile path with a bare 404 and leak nothing", async () => {
  const app = await createTestApp();
  const root = await Deno.makeTempDir({ prefix: "hermes-paths-" });
  try {
    const { workspace, outside, secretPath } = await createHostileWorkspace(root);
    const session = await createSession(app.ctx.db, app.ctx.clock, { workspace });
    const sid = session.session_id;
    const corpus = [...HOSTILE_PATHS, secretPath, outside];
    let requests = 0;
    for (const route of FILE_ROUTES) {
      for (const p of corpus) {
        // Sent encoded (the server sees `p` exactly) and raw (the server decodes `p` once more).
        const urls = [`${route}?session_id=${sid}&path=${encodeURIComponent(p)}`];
        if (!/[#&+]/.test(p)) urls.push(`${route}?session_id=${sid}&path=${p}`);
        for (const url of urls) {
          const res = await app.request("GET", url);
          const text = await res.text();
          requests++;
          const label = `${url.slice(0, 120)} → ${res.status} ${text.slice(0, 120)}`;
          // The URL parser drops a trailing raw control character: nothing hostile left.
          if (new URL(url, "http://x").searchParams.get("path") === "") continue;
          strictEqual(res.status, 404, label);
          deepStrictEqual(JSON.parse(text), { error: "not found" }, label);
          ok(!text.includes(OUTSIDE_SECRET) && !text.includes(outside), label);
        }
      }
    }
    ok(requests >= 3 * 60 * 2 - 30, `only ${requests} requests`);
    // The same routes do work for ordinary paths (the 404s above are refusals, not breakage).
    strictEqual((await app.call("GET", `/api/file?session_id=${sid}&path=hello.txt`)).status, 200);
    strictEqual((await app.call("GET", `/api/list?session_id=${sid}&path=sub`)).status, 200);
    const raw = await app.request("GET", `/api/file/raw?session_id=${sid}&path=sub/inner.txt`);
    strictEqual(await raw.text(), "inner\n");
    for (const line of app.logs) ok(!line.includes(OUTSIDE_SECRET), line);
  } finally {
    await app.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a listing shows symlinks out of the workspace as symlinks and never follows them", async () => {
  const app = await createTestApp();
  const root = await Deno.makeTempDir({ prefix: "hermes-paths-" });
  try {
    const { workspace } = await createHostileWorkspace(root);
    const sid = (await createSession(app.ctx.db, app.ctx.clock, { workspace })).session_id;
    const { status, body } = await app.call<{ entries: Array<Record<string, unknown>> }>(
      "GET",
      `/api/list?session_id=${sid}&path=.`,
    );
    strictEqual(status, 200);
    const byName = new Map(body.entries.map((e) => [e.name, e]));
    for (const name of ["link-out", "link-out-file", "link-root", "link-etc", "loop", "dangling"]) {
      const e = byName.get(name);
      ok(e, `${name} missing from the listing`);
      strictEqual(e.type, "symlink", name);
      strictEqual(e.size, null, name);
      strictEqual(e.is_symlink, true, name);
    }
    ok(!JSON.stringify(body).includes(root.replace(/\/workspace$/, "") + "/outside"));
  } finally {
    await app.close();
    await Deno.remove(root, { recursive: true });
  }
});
