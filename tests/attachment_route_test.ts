// GET /api/attachment serves a session's uploaded attachments for the chips and thumbnails of
// sent messages: images inline with their type under a sandbox CSP, nothing outside the
// session's attachments folder (other sessions, traversal) — and a stored message's
// attachments fold into views with the image flag, so a reload shows the same chips.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { createTestApp } from "./helpers.ts";
import { createSession } from "../lib/sessions/sessions.ts";
import { foldMessages } from "../lib/shared/transcript_fold.ts";

// A 1×1 PNG.
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  ),
  (c) => c.charCodeAt(0),
);

Deno.test("GET /api/attachment serves the session's upload inline and nothing else", async () => {
  const app = await createTestApp();
  try {
    const sid =
      (await createSession(app.ctx.db, app.ctx.clock, { workspace: app.workspace })).session_id;
    const other = await createSession(app.ctx.db, app.ctx.clock, { workspace: app.workspace });
    const fd = new FormData();
    fd.set("session_id", sid);
    fd.set("file", new File([PNG], "shot.png", { type: "image/png" }));
    const up = await app.call<{ filename: string; is_image: boolean }>("POST", "/api/upload", fd);
    strictEqual(up.status, 200);
    strictEqual(up.body.is_image, true);

    const res = await app.request("GET", `/api/attachment?session_id=${sid}&name=shot.png`);
    strictEqual(res.status, 200);
    strictEqual(res.headers.get("content-type"), "image/png");
    ok(res.headers.get("content-security-policy")?.startsWith("default-src 'none'"));
    ok(res.headers.get("content-disposition")?.startsWith("inline"));
    deepStrictEqual(new Uint8Array(await res.arrayBuffer()), PNG);
    // An SVG may carry script: it stays sandboxed.
    const svg = new FormData();
    svg.set("session_id", sid);
    svg.set("file", new File(["<svg xmlns='http://www.w3.org/2000/svg'/>"], "x.svg"));
    const upSvg = await app.call<{ filename: string }>("POST", "/api/upload", svg);
    const r2 = await app.request(
      "GET",
      `/api/attachment?session_id=${sid}&name=${upSvg.body.filename}`,
    );
    await r2.body?.cancel();
    ok(r2.headers.get("content-security-policy")?.startsWith("sandbox"));

    for (
      const q of [
        `session_id=${other.session_id}&name=shot.png`,
        `session_id=${sid}&name=..%2F..%2Fconfig.yaml`,
        `session_id=${sid}&name=missing.png`,
      ]
    ) {
      const r = await app.request("GET", `/api/attachment?${q}`);
      await r.body?.cancel();
      strictEqual(r.status, 404, q);
    }
    strictEqual((await app.call("GET", `/api/attachment?session_id=${sid}`)).status, 400);
  } finally {
    await app.close();
  }
});

Deno.test("foldMessages() keeps each attachment's name and image flag for the chips", () => {
  const [turn] = foldMessages([{
    idx: 0,
    role: "user",
    content: "see",
    attachments: [
      {
        filename: "shot.png",
        path: "/s/attachments/x/shot.png",
        mime: "image/png",
        is_image: true,
      },
      { filename: "notes.txt", path: "/s/attachments/x/notes.txt", mime: "text/plain" },
    ],
  }]);
  deepStrictEqual(turn.userFiles, [
    { name: "shot.png", image: true },
    { name: "notes.txt", image: false },
  ]);
});
