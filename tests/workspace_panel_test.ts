// The panel's server side for this round: a new chat's panel lists the workspace it will use
// (GET /api/list?workspace=, trusted workspaces only) and the width the person dragged the panel
// to is painted from its cookie on first paint.
import { ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp } from "./helpers.ts";
import { panelWidthFrom } from "../components/WorkspacePanel.tsx";

Deno.test("GET /api/list?workspace= lists a trusted workspace for a new chat, nothing else", async () => {
  const app = await createTestApp();
  try {
    await Deno.writeTextFile(join(app.workspace, "hello.txt"), "hi");
    const r = await app.call<{ entries: { path: string }[] }>(
      "GET",
      `/api/list?workspace=${encodeURIComponent(app.workspace)}&path=.`,
    );
    strictEqual(r.status, 200);
    ok(r.body.entries.some((e) => e.path === "hello.txt"));
    for (
      const ws of ["/etc", "/", app.stateDir, join(app.stateDir, "..", ".ssh"), "relative", "\0"]
    ) {
      const bad = await app.call("GET", `/api/list?workspace=${encodeURIComponent(ws)}&path=.`);
      ok(bad.status === 400 || bad.status === 404, `${ws} → ${bad.status}`);
    }
    const escape = await app.call(
      "GET",
      `/api/list?workspace=${encodeURIComponent(app.workspace)}&path=..`,
    );
    strictEqual(escape.status, 404);
  } finally {
    await app.close();
  }
});

Deno.test("the panel is painted at the width in its cookie, clamped", async () => {
  const app = await createTestApp();
  try {
    const page = async (cookie: string) =>
      await (await app.request("GET", "/", undefined, { cookie })).text();
    ok(
      (await page("hermes_panel=open; hermes_panel_width=512")).includes(
        "<style>.app{--panel-width:512px;--panel-width-preview:512px}</style>",
      ),
    );
    ok((await page("hermes_panel_width=99999")).includes("--panel-width:1200px"));
    const hostile = await page("hermes_panel_width=1}</style><script>alert(1)</script>");
    ok(!hostile.includes("<script>alert(1)"));
    ok(!hostile.includes("--panel-width:"));
    strictEqual(panelWidthFrom("10"), 260);
    strictEqual(panelWidthFrom("abc"), null);
    strictEqual(panelWidthFrom(undefined), null);
  } finally {
    await app.close();
  }
});
