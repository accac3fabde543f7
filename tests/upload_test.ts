import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp, type TestApp } from "./helpers.ts";
import { createSession } from "../lib/sessions/sessions.ts";
import {
  MULTIPART_OVERHEAD_BYTES,
  resolveAttachment,
  sanitizeFilename,
} from "../lib/workspace/uploads.ts";
import { NotFoundError } from "../lib/errors.ts";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

function form(
  sid: string | null,
  file?: { name: string; data: Uint8Array | string; type?: string },
) {
  const fd = new FormData();
  if (sid !== null) fd.set("session_id", sid);
  if (file) fd.set("file", new File([file.data as BlobPart], file.name, { type: file.type ?? "" }));
  return fd;
}

async function upload(app: TestApp, fd: FormData) {
  return await app.call("POST", "/api/upload", fd);
}

Deno.test("sanitizeFilename() keeps safe names and neutralizes the rest", () => {
  const cases: Array<[string, string]> = [
    ["report.pdf", "report.pdf"],
    ["my file (1).txt", "my_file__1_.txt"],
    ["../../etc/passwd", "passwd"],
    ["..\\..\\win.ini", "win.ini"],
    [".bashrc", "bashrc"],
    ["...", "upload"],
    ["", "upload"],
    ["-rf", "rf"],
    ["naïve café.md", "na_ve_caf_.md"],
    ["a\0b\nc.txt", "a_b_c.txt"],
    ["<script>.html", "_script_.html"],
  ];
  for (const [input, expected] of cases) strictEqual(sanitizeFilename(input), expected, input);
  const long = sanitizeFilename("x".repeat(500) + ".tar.gz");
  strictEqual(long.length, 200);
  ok(long.endsWith(".gz"));
});

Deno.test("POST /api/upload stores the file under the session's attachments", async () => {
  const app = await createTestApp();
  try {
    const sid =
      (await createSession(app.ctx.db, app.ctx.clock, { workspace: app.workspace })).session_id;
    const { status, body } = await upload(app, form(sid, { name: "notes v1.txt", data: "hello" }));
    strictEqual(status, 200);
    const dir = join(app.stateDir, "attachments", sid);
    deepStrictEqual(body, {
      filename: "notes_v1.txt",
      path: join(dir, "notes_v1.txt"),
      size: 5,
      mime: "text/plain",
      is_image: false,
    });
    strictEqual(await Deno.readTextFile(join(dir, "notes_v1.txt")), "hello");
    strictEqual((await Deno.stat(join(dir, "notes_v1.txt"))).mode! & 0o777, 0o600);
    // is_image comes from the bytes: a PNG named .bin is an image, text named .png is not.
    const png = await upload(app, form(sid, { name: "shot.bin", data: PNG }));
    deepStrictEqual([png.body.mime, png.body.is_image], ["image/png", true]);
    const fake = await upload(
      app,
      form(sid, { name: "fake.png", data: "not a png", type: "image/png" }),
    );
    deepStrictEqual([fake.body.mime, fake.body.is_image], ["image/png", false]);
    // resolveAttachment() accepts what the upload returned, and nothing outside the folder.
    strictEqual(
      await resolveAttachment(app.stateDir, sid, String(body.path)),
      await Deno.realPath(String(body.path)),
    );
    strictEqual(
      await resolveAttachment(app.stateDir, sid, "notes_v1.txt"),
      await Deno.realPath(String(body.path)),
    );
    for (
      const ref of ["../hermes.db", join(app.stateDir, "hermes.db"), "/etc/passwd", "missing.txt"]
    ) {
      await rejects(resolveAttachment(app.stateDir, sid, ref), NotFoundError, ref);
    }
    await rejects(resolveAttachment(app.stateDir, "../../etc", "passwd"), NotFoundError);
  } finally {
    await app.close();
  }
});

Deno.test("POST /api/upload never overwrites: a name in use gets -1, -2, …", async () => {
  const app = await createTestApp();
  try {
    const sid =
      (await createSession(app.ctx.db, app.ctx.clock, { workspace: app.workspace })).session_id;
    const results = await Promise.all(
      [1, 2, 3, 4].map((i) => upload(app, form(sid, { name: "same.txt", data: `v${i}` }))),
    );
    const names = results.map((r) => r.body.filename).sort();
    deepStrictEqual(names, ["same-1.txt", "same-2.txt", "same-3.txt", "same.txt"]);
    const contents = await Promise.all(
      names.map((n) => Deno.readTextFile(join(app.stateDir, "attachments", sid, String(n)))),
    );
    deepStrictEqual(contents.sort(), ["v1", "v2", "v3", "v4"]);
    const noExt = await upload(app, form(sid, { name: "Makefile", data: "a" }));
    const noExt2 = await upload(app, form(sid, { name: "Makefile", data: "b" }));
    deepStrictEqual([noExt.body.filename, noExt2.body.filename], ["Makefile", "Makefile-1"]);
  } finally {
    await app.close();
  }
});

Deno.test("POST /api/upload: 413 over the cap, 400 without a file, 404 for an unknown session", async () => {
  // 0.01 MB = 10,485 bytes.
  const app = await createTestApp({ env: { HERMES_WEBUI_MAX_UPLOAD_MB: "0.01" } });
  try {
    const cap = app.ctx.config.maxUploadBytes;
    const sid =
      (await createSession(app.ctx.db, app.ctx.clock, { workspace: app.workspace })).session_id;
    strictEqual(
      (await upload(app, form(sid, { name: "ok.bin", data: new Uint8Array(cap) }))).status,
      200,
    );
    const over = await upload(app, form(sid, { name: "big.bin", data: new Uint8Array(cap + 1) }));
    strictEqual(over.status, 413);
    ok(/limit/.test(String(over.body.error)));
    // Way over: refused from Content-Length alone, before the body is read.
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        c.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const declared = await app.request("POST", "/api/upload", endless, {
      "content-type": "multipart/form-data; boundary=x",
      "content-length": String(cap + MULTIPART_OVERHEAD_BYTES + 1),
    });
    strictEqual(declared.status, 413);
    ok(pulled <= 2, `read ${pulled} chunks of a refused body`);
    // No Content-Length: the byte count cuts the stream off.
    pulled = 0;
    const streamed = await app.request(
      "POST",
      "/api/upload",
      new ReadableStream<Uint8Array>({
        pull(c) {
          pulled++;
          c.enqueue(new Uint8Array(16 * 1024));
        },
      }),
      { "content-type": "multipart/form-data; boundary=x" },
    );
    strictEqual(streamed.status, 413);
    ok(pulled < 20, `read ${pulled} chunks before refusing`);

    strictEqual((await upload(app, form(sid))).status, 400);
    const noFile = await upload(app, form(sid));
    ok(/No file in the upload/.test(String(noFile.body.error)));
    strictEqual((await upload(app, form(null, { name: "a.txt", data: "a" }))).status, 400);
    strictEqual(
      (await upload(app, form("ffffffffffff", { name: "a.txt", data: "a" }))).status,
      404,
    );
    strictEqual((await upload(app, form("../../x", { name: "a.txt", data: "a" }))).status, 404);
    strictEqual((await app.call("POST", "/api/upload", { session_id: sid })).status, 400);
    strictEqual(
      (await app.call("POST", "/api/upload", "garbage", {
        "content-type": "multipart/form-data; boundary=zz",
      }))
        .status,
      400,
    );
    // Nothing of the refused uploads was left behind.
    const stored = [];
    for await (const e of Deno.readDir(join(app.stateDir, "attachments", sid))) stored.push(e.name);
    deepStrictEqual(stored, ["ok.bin"]);
  } finally {
    await app.close();
  }
});
