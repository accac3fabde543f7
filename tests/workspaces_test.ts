import {
  deepStrictEqual as assertEquals,
  match,
  ok,
  rejects,
  strictEqual,
} from "node:assert/strict";
import { join } from "node:path";
import { createTestApp, type TestApp } from "./helpers.ts";
import { resolveTrustedWorkspace, validateWorkspaceToAdd } from "../lib/workspace/workspaces.ts";
import { ValidationError } from "../lib/errors.ts";

type Ws = { path: string; name: string };
type WsList = { workspaces: Ws[]; last: string };

async function withApp(fn: (app: TestApp, outside: string) => Promise<void>): Promise<void> {
  const app = await createTestApp();
  const outside = await Deno.makeTempDir({ prefix: "hermes-ws-" });
  try {
    await fn(app, await Deno.realPath(outside));
  } finally {
    await app.close();
    await Deno.remove(outside, { recursive: true });
  }
}

Deno.test("GET /api/workspaces lists the default workspace and the last one used", () =>
  withApp(async (app) => {
    const real = await Deno.realPath(app.workspace);
    const { status, body } = await app.call<WsList>("GET", "/api/workspaces");
    strictEqual(status, 200);
    assertEquals(body.workspaces, [{ path: real, name: "Home" }]);
    strictEqual(body.last, real);
  }));

Deno.test("POST /api/workspaces/add stores the real path; rename and remove work by path", () =>
  withApp(async (app, outside) => {
    const link = join(app.workspace, "to-outside");
    await Deno.symlink(outside, link);
    const add = await app.call<{ workspace: Ws } & WsList>("POST", "/api/workspaces/add", {
      path: link,
      name: "Data",
    });
    strictEqual(add.status, 200, JSON.stringify(add.body));
    assertEquals(add.body.workspace, { path: outside, name: "Data" });
    ok(add.body.workspaces.some((w) => w.path === outside));
    // Adding again is not a duplicate.
    await app.call("POST", "/api/workspaces/add", { path: outside });
    const list = await app.call<WsList>("GET", "/api/workspaces");
    strictEqual(list.body.workspaces.filter((w) => w.path === outside).length, 1);
    strictEqual(list.body.workspaces.find((w) => w.path === outside)!.name, "Data");

    const renamed = await app.call<{ workspace: Ws }>("POST", "/api/workspaces/rename", {
      path: outside,
      name: "  Big data ",
    });
    strictEqual(renamed.status, 200);
    strictEqual(renamed.body.workspace.name, "Big data");

    const sessionThere = await app.call("POST", "/api/session/new", { workspace: outside });
    strictEqual(sessionThere.status, 200);
    strictEqual((await app.call<WsList>("GET", "/api/workspaces")).body.last, outside);

    const removed = await app.call<WsList>("POST", "/api/workspaces/remove", { path: outside });
    strictEqual(removed.status, 200);
    ok(!removed.body.workspaces.some((w) => w.path === outside));
    // No longer trusted for new sessions.
    strictEqual((await app.call("POST", "/api/session/new", { workspace: outside })).status, 400);
    strictEqual(
      (await app.call("POST", "/api/workspaces/remove", { path: outside })).status,
      404,
    );
    strictEqual(
      (await app.call("POST", "/api/workspaces/rename", { path: outside, name: "x" })).status,
      404,
    );
  }));

Deno.test("POST /api/workspaces/add refuses missing paths, files and system roots", () =>
  withApp(async (app) => {
    const file = join(app.workspace, "file.txt");
    await Deno.writeTextFile(file, "x");
    for (
      const path of [join(app.workspace, "missing"), file, "/", "/etc", "/usr/bin", "relative"]
    ) {
      const res = await app.call("POST", "/api/workspaces/add", { path });
      strictEqual(res.status, 400, path);
      ok(typeof res.body.error === "string");
    }
    strictEqual((await app.call("POST", "/api/workspaces/add", {})).status, 400);
    strictEqual((await app.call("POST", "/api/workspaces/add", { path: 3 })).status, 400);
  }));

Deno.test("POST /api/workspaces/remove refuses to drop the default workspace", () =>
  withApp(async (app) => {
    const res = await app.call("POST", "/api/workspaces/remove", { path: app.workspace });
    strictEqual(res.status, 400);
    match(String(res.body.error), /default workspace/);
  }));

Deno.test("validateWorkspaceToAdd() strips paired quotes and expands ~", () =>
  withApp(async (app) => {
    const real = await Deno.realPath(app.workspace);
    strictEqual(await validateWorkspaceToAdd(app.ctx.config, `'${app.workspace}'`), real);
    strictEqual(await validateWorkspaceToAdd(app.ctx.config, "~/workspace"), real);
  }));

Deno.test("resolveTrustedWorkspace() trusts home, the default workspace and registered dirs only", () =>
  withApp(async (app, outside) => {
    const deps = { db: app.ctx.db, config: app.ctx.config };
    strictEqual(
      await resolveTrustedWorkspace(deps, app.workspace),
      await Deno.realPath(app.workspace),
    );
    await rejects(resolveTrustedWorkspace(deps, outside), ValidationError);
    await rejects(resolveTrustedWorkspace(deps, "/etc"), ValidationError);
    await rejects(resolveTrustedWorkspace(deps, "/"), ValidationError);
    await rejects(resolveTrustedWorkspace(deps, "ws\0x"), ValidationError);
    await app.call("POST", "/api/workspaces/add", { path: outside });
    await Deno.mkdir(join(outside, "sub"));
    strictEqual(await resolveTrustedWorkspace(deps, join(outside, "sub")), join(outside, "sub"));
  }));

Deno.test("resolveTrustedWorkspace() trusts a default workspace outside home", async () => {
  const outside = await Deno.realPath(await Deno.makeTempDir({ prefix: "hermes-dflt-" }));
  const app = await createTestApp({ env: { HERMES_WEBUI_DEFAULT_WORKSPACE: outside } });
  try {
    const s = await app.call<{ session: { workspace: string } }>("POST", "/api/session/new", {});
    strictEqual(s.status, 200);
    strictEqual(s.body.session.workspace, outside);
    await Deno.mkdir(join(outside, "deep"));
    const deep = await app.call("POST", "/api/session/new", { workspace: join(outside, "deep") });
    strictEqual(deep.status, 200);
  } finally {
    await app.close();
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("POST /api/workspaces/rename can name the default workspace, which stays first", () =>
  withApp(async (app, outside) => {
    await app.call("POST", "/api/workspaces/add", { path: outside, name: "Other" });
    const res = await app.call<{ workspaces: Ws[] }>("POST", "/api/workspaces/rename", {
      path: app.workspace,
      name: "Main",
    });
    strictEqual(res.status, 200, JSON.stringify(res.body));
    assertEquals(res.body.workspaces, [
      { path: await Deno.realPath(app.workspace), name: "Main" },
      { path: outside, name: "Other" },
    ]);
  }));
