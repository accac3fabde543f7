import { deepStrictEqual as assertEquals, match, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp, type TestApp } from "../helpers.ts";
import { bindProject, getProject } from "../../lib/sessions/projects.ts";

type Json = Record<string, unknown>;
type Project = Json & { project_id: string; workspaces: string[] };

async function withApp(fn: (app: TestApp) => Promise<void>): Promise<void> {
  const app = await createTestApp();
  try {
    await fn(app);
  } finally {
    await app.close();
  }
}

async function createProject(app: TestApp, body: Json = { name: "Work" }): Promise<Project> {
  const res = await app.call<{ ok: boolean; project: Project }>(
    "POST",
    "/api/projects/create",
    body,
  );
  strictEqual(res.status, 200, JSON.stringify(res.body));
  strictEqual(res.body.ok, true);
  return res.body.project;
}

function bind(app: TestApp, body: Json) {
  return app.call<{ ok: boolean; project: Project; error?: string }>(
    "POST",
    "/api/projects/bind",
    body,
  );
}

Deno.test("POST /api/projects/create returns the project with the API's fields", () =>
  withApp(async (app) => {
    const p = await createProject(app, { name: "  Work  ", color: "#3b82f6" });
    match(p.project_id, /^[0-9a-f]{12}$/);
    strictEqual(p.name, "Work");
    strictEqual(p.color, "#3b82f6");
    assertEquals(p.workspaces, []);
    strictEqual(p.default_workspace, null);
    strictEqual(p.model, null);
    strictEqual(p.model_provider, null);
    strictEqual(typeof p.created_at, "number");
    const list = await app.call<{ projects: Project[] }>("GET", "/api/projects");
    assertEquals(list.body.projects, [p]);
  }));

Deno.test("POST /api/projects/create validates name and color", () =>
  withApp(async (app) => {
    for (const color of ["red", "#12", "#123456789", "3b82f6", "#zzz"]) {
      const res = await app.call("POST", "/api/projects/create", { name: "P", color });
      strictEqual(res.status, 400, color);
      match(String(res.body.error), /color/);
    }
    for (const color of ["#abc", "#ABCD", "#a1b2c3", "#a1b2c3d4"]) {
      strictEqual(
        (await app.call("POST", "/api/projects/create", { name: "P", color })).status,
        200,
      );
    }
    strictEqual((await app.call("POST", "/api/projects/create", { name: "" })).status, 400);
    strictEqual((await app.call("POST", "/api/projects/create", { name: "   " })).status, 400);
    strictEqual((await app.call("POST", "/api/projects/create", {})).status, 400);
    strictEqual(
      (await app.call("POST", "/api/projects/create", { name: "x".repeat(129) })).status,
      400,
    );
    strictEqual(
      (await app.call("POST", "/api/projects/create", { name: "x".repeat(128) })).status,
      200,
    );
    const bad = await app.call("POST", "/api/projects/create", "{", {
      "content-type": "application/json",
    });
    strictEqual(bad.status, 400);
  }));

Deno.test("POST /api/projects/rename changes name and color; unknown → 404", () =>
  withApp(async (app) => {
    const p = await createProject(app);
    const res = await app.call<{ project: Project }>("POST", "/api/projects/rename", {
      project_id: p.project_id,
      name: "Home",
      color: "#fff",
    });
    strictEqual(res.status, 200);
    strictEqual(res.body.project.name, "Home");
    strictEqual(res.body.project.color, "#fff");
    const colorOnly = await app.call<{ project: Project }>("POST", "/api/projects/rename", {
      project_id: p.project_id,
      color: "#000000",
    });
    strictEqual(colorOnly.body.project.name, "Home");
    strictEqual(colorOnly.body.project.color, "#000000");
    strictEqual(
      (await app.call("POST", "/api/projects/rename", { project_id: p.project_id, color: "blue" }))
        .status,
      400,
    );
    strictEqual(
      (await app.call("POST", "/api/projects/rename", { project_id: "000000000000", name: "x" }))
        .status,
      404,
    );
    strictEqual((await app.call("POST", "/api/projects/rename", { name: "x" })).status, 400);
  }));

Deno.test("POST /api/projects/delete unassigns its sessions and never deletes them", () =>
  withApp(async (app) => {
    const p = await createProject(app);
    const { body } = await app.call<{ session: Json }>("POST", "/api/session/new", {
      project_id: p.project_id,
    });
    const sid = body.session.session_id as string;
    strictEqual(body.session.project_id, p.project_id);
    const del = await app.call("POST", "/api/projects/delete", { project_id: p.project_id });
    strictEqual(del.status, 200);
    assertEquals(del.body, { ok: true });
    const s = await app.call<{ session: Json }>("GET", `/api/session?session_id=${sid}`);
    strictEqual(s.status, 200);
    strictEqual(s.body.session.project_id, null);
    const list = await app.call<{ projects: Project[] }>("GET", "/api/projects");
    assertEquals(list.body.projects, []);
    strictEqual(
      (await app.call("POST", "/api/projects/delete", { project_id: p.project_id })).status,
      404,
    );
    strictEqual((await app.call("POST", "/api/projects/delete", {})).status, 400);
  }));

Deno.test("POST /api/projects/bind: workspaces are validated, deduplicated and registered", async (t) => {
  const app = await createTestApp();
  const outside = await Deno.makeTempDir({ prefix: "hermes-bind-" });
  try {
    const p = await createProject(app);
    const a = join(app.workspace, "a");
    const b = join(app.workspace, "b");
    await Deno.mkdir(a);
    await Deno.mkdir(b);
    const realA = await Deno.realPath(a), realB = await Deno.realPath(b);
    const realOutside = await Deno.realPath(outside);

    await t.step("the list is replaced, deduplicated in first-seen order", async () => {
      const res = await bind(app, {
        project_id: p.project_id,
        workspaces: [b, a, b + "/", a],
      });
      strictEqual(res.status, 200, JSON.stringify(res.body));
      assertEquals(res.body.project.workspaces, [realB, realA]);
      strictEqual(res.body.project.default_workspace, null);
    });

    await t.step("a path outside the default root is auto-registered in one step", async () => {
      const res = await bind(app, { project_id: p.project_id, workspaces: [a, outside] });
      strictEqual(res.status, 200, JSON.stringify(res.body));
      assertEquals(res.body.project.workspaces, [realA, realOutside]);
      const ws = await app.call<{ workspaces: Array<{ path: string }> }>("GET", "/api/workspaces");
      ok(ws.body.workspaces.some((w) => w.path === realOutside));
      // …and is then trusted for new sessions.
      const s = await app.call("POST", "/api/session/new", { workspace: outside });
      strictEqual(s.status, 200);
    });

    await t.step("missing, non-directory and system paths are 400 and change nothing", async () => {
      const file = join(app.workspace, "f.txt");
      await Deno.writeTextFile(file, "x");
      for (const bad of [join(app.workspace, "missing"), file, "/etc", "/proc/self", "rel/path"]) {
        const res = await bind(app, { project_id: p.project_id, workspaces: [a, bad] });
        strictEqual(res.status, 400, bad);
      }
      const list = await app.call<{ projects: Project[] }>("GET", "/api/projects");
      assertEquals(list.body.projects[0].workspaces, [realA, realOutside]);
    });

    await t.step("default_workspace must be in the list; an outside one is added", async () => {
      const res = await bind(app, { project_id: p.project_id, default_workspace: a });
      strictEqual(res.body.project.default_workspace, realA);
      assertEquals(res.body.project.workspaces, [realA, realOutside]);
      const added = await bind(app, { project_id: p.project_id, default_workspace: b });
      strictEqual(added.body.project.default_workspace, realB);
      assertEquals(added.body.project.workspaces, [realA, realOutside, realB]);
    });

    await t.step("dropping the default's workspace drops the default", async () => {
      const res = await bind(app, { project_id: p.project_id, workspaces: [a] });
      assertEquals(res.body.project.workspaces, [realA]);
      strictEqual(res.body.project.default_workspace, null);
    });

    await t.step("workspaces: null clears the list and the default", async () => {
      await bind(app, { project_id: p.project_id, workspaces: [a], default_workspace: a });
      const res = await bind(app, { project_id: p.project_id, workspaces: null });
      assertEquals(res.body.project.workspaces, []);
      strictEqual(res.body.project.default_workspace, null);
    });

    await t.step("legacy `workspace` is kept in sync as workspaces: [w]", async () => {
      const res = await bind(app, { project_id: p.project_id, workspace: b });
      assertEquals(res.body.project.workspaces, [realB]);
      strictEqual(res.body.project.default_workspace, realB);
      const cleared = await bind(app, { project_id: p.project_id, workspace: null });
      assertEquals(cleared.body.project.workspaces, []);
    });

    await t.step("model and provider bind and null clears each axis alone", async () => {
      const res = await bind(app, {
        project_id: p.project_id,
        model: "gpt-x",
        model_provider: "openai",
      });
      strictEqual(res.body.project.model, "gpt-x");
      strictEqual(res.body.project.model_provider, "openai");
      const cleared = await bind(app, { project_id: p.project_id, model: null });
      strictEqual(cleared.body.project.model, null);
      strictEqual(cleared.body.project.model_provider, "openai");
    });

    await t.step(
      "reasoning_effort and auto_assign are shape-checked, stored, preserved",
      async () => {
        const res = await bind(app, {
          project_id: p.project_id,
          reasoning_effort: "high",
          auto_assign: true,
        });
        strictEqual(res.status, 200);
        strictEqual(res.body.project.reasoning_effort, "high");
        strictEqual(res.body.project.auto_assign, true);
        // A bind that does not mention them keeps them (the dialog never submits effort).
        const kept = await bind(app, { project_id: p.project_id, model: "m" });
        strictEqual(kept.body.project.reasoning_effort, "high");
        strictEqual(kept.body.project.auto_assign, true);
        strictEqual(
          (await bind(app, { project_id: p.project_id, reasoning_effort: "extreme" })).status,
          400,
        );
        strictEqual(
          (await bind(app, { project_id: p.project_id, auto_assign: "yes" })).status,
          400,
        );
        const cleared = await bind(app, {
          project_id: p.project_id,
          reasoning_effort: null,
          auto_assign: null,
        });
        strictEqual(cleared.body.project.reasoning_effort, null);
        strictEqual(cleared.body.project.auto_assign, false);
      },
    );

    await t.step("shape errors and unknown projects", async () => {
      strictEqual((await bind(app, { project_id: p.project_id, workspaces: "x" })).status, 400);
      strictEqual((await bind(app, { project_id: p.project_id, workspaces: [1] })).status, 400);
      strictEqual((await bind(app, { project_id: p.project_id, model: 5 })).status, 400);
      strictEqual((await bind(app, { project_id: "000000000000", model: "m" })).status, 404);
      strictEqual((await bind(app, { model: "m" })).status, 400);
    });
  } finally {
    await app.close();
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("bindProject() at once from many requests: applied in turn, no workspace lost", () =>
  withApp(async (app) => {
    const p = await createProject(app);
    const dirs = Array.from({ length: 8 }, (_, i) => join(app.workspace, `w${i}`));
    // Each bind adds its own default to the list: read, changed and written back. Reading at
    // once first opens several pool connections, so the binds may run side by side.
    await Promise.all(dirs.map(() => getProject(app.ctx.db, p.project_id)));
    await Promise.all(
      dirs.map((d) => bindProject(app.ctx.db, p.project_id, { default_workspace: d })),
    );
    const bound = await getProject(app.ctx.db, p.project_id);
    assertEquals([...bound.workspaces].sort(), [...dirs].sort());
  }));
