// Workspace reorder and suggestions through their routes, with hostile inputs.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp } from "./helpers.ts";
import { createSession } from "../lib/sessions/sessions.ts";

Deno.test("POST /api/workspaces/reorder puts workspaces in the given order, default first", async () => {
  const app = await createTestApp();
  try {
    const home = join(app.stateDir, "..");
    const paths: string[] = [];
    for (const n of ["a", "b", "c"]) {
      await Deno.mkdir(join(home, n));
      const r = await app.call("POST", "/api/workspaces/add", { path: join(home, n) });
      strictEqual(r.status, 200);
      paths.push(await Deno.realPath(join(home, n)));
    }
    const r = await app.call<{ workspaces: { path: string }[] }>(
      "POST",
      "/api/workspaces/reorder",
      { paths: [paths[2], paths[0]] },
    );
    strictEqual(r.status, 200);
    const def = await Deno.realPath(app.workspace);
    deepStrictEqual(r.body.workspaces.map((w) => w.path), [def, paths[2], paths[0], paths[1]]);
    const listed = await app.call<{ workspaces: { path: string }[] }>("GET", "/api/workspaces");
    deepStrictEqual(listed.body.workspaces.map((w) => w.path), [def, paths[2], paths[0], paths[1]]);
    for (
      const body of [
        { paths: ["/etc"] },
        { paths: [paths[0], paths[0]] },
        { paths: "x" },
        { paths: ["a\0"] },
        {},
      ]
    ) {
      const bad = await app.call("POST", "/api/workspaces/reorder", body);
      ok(bad.status === 400 || bad.status === 404, `${JSON.stringify(body)} → ${bad.status}`);
    }
    strictEqual(
      (await app.call("POST", "/api/workspaces/reorder", { paths: [] }, {}, { proof: false }))
        .status,
      403,
    );
  } finally {
    await app.close();
  }
});

Deno.test("GET /api/workspaces/suggest offers recent folders and git repos, never protected ones", async () => {
  const app = await createTestApp();
  try {
    const home = join(app.stateDir, "..");
    await Deno.mkdir(join(home, "code/proj-one/.git"), { recursive: true });
    await Deno.mkdir(join(home, "code/proj-one/sub/.git"), { recursive: true });
    await Deno.mkdir(join(home, ".hermes/repo/.git"), { recursive: true });
    await Deno.mkdir(join(home, "state/repo/.git"), { recursive: true });
    await Deno.mkdir(join(home, "node_modules/pkg/.git"), { recursive: true });
    await createSession(app.ctx.db, app.ctx.clock, { workspace: app.workspace });
    const r = await app.call<{ suggestions: string[]; prefix: string }>(
      "GET",
      "/api/workspaces/suggest",
    );
    strictEqual(r.status, 200);
    ok(r.body.suggestions.includes(app.workspace), r.body.suggestions.join(","));
    ok(r.body.suggestions.includes(join(home, "code/proj-one")));
    for (const s of r.body.suggestions) {
      ok(!/\.hermes|\/state\/|node_modules|\/sub$/.test(s), s);
    }
    const filtered = await app.call<{ suggestions: string[] }>(
      "GET",
      "/api/workspaces/suggest?prefix=proj",
    );
    deepStrictEqual(filtered.body.suggestions, [join(home, "code/proj-one")]);
    const typed = await app.call<{ suggestions: string[] }>(
      "GET",
      `/api/workspaces/suggest?prefix=${encodeURIComponent(home + "/co")}`,
    );
    deepStrictEqual(typed.body.suggestions, [join(home, "code")]);
    for (const prefix of ["/etc/", "/proc/", home + "/.ss", home + "/st", "../../", "\0"]) {
      const h = await app.call<{ suggestions: string[] }>(
        "GET",
        `/api/workspaces/suggest?prefix=${encodeURIComponent(prefix)}`,
      );
      strictEqual(h.status, 200);
      for (const s of h.body.suggestions) {
        ok(!/^\/(etc|proc)|\.ssh|\/state$/.test(s), `${prefix}: ${s}`);
      }
    }
  } finally {
    await app.close();
  }
});
