// Uploads into workspace folders, archive extraction (with a zip-slip corpus) and the streamed
// folder zip, through their routes.
import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { gzipSync, unzipSync, zipSync } from "fflate";
import { createTestApp, withWorkspaceSession as withSession } from "./helpers.ts";
import { createSession } from "../lib/sessions/sessions.ts";
import { extractArchive } from "../lib/workspace/archive_extract.ts";
import { PayloadTooLargeError } from "../lib/errors.ts";

const enc = new TextEncoder();

/** One ustar entry (header + padded data). `type`: "0" file, "5" dir, "2" symlink, "1" link. */
function tarEntry(name: string, type: string, data = "", link = ""): Uint8Array {
  const body = enc.encode(data);
  const h = new Uint8Array(512);
  const put = (s: string, off: number, len: number) => h.set(enc.encode(s).subarray(0, len), off);
  put(name, 0, 100);
  put("0000644\0", 100, 8);
  put("0000000\0", 108, 8);
  put("0000000\0", 116, 8);
  put(body.length.toString(8).padStart(11, "0") + "\0", 124, 12);
  put("00000000000\0", 136, 12);
  put("        ", 148, 8);
  put(type, 156, 1);
  put(link, 157, 100);
  put("ustar\u000000", 257, 8);
  const sum = h.reduce((a, b) => a + b, 0);
  put(sum.toString(8).padStart(6, "0") + "\0 ", 148, 8);
  const padded = new Uint8Array(512 + Math.ceil(body.length / 512) * 512);
  padded.set(h);
  padded.set(body, 512);
  return padded;
}

function tar(...entries: Uint8Array[]): Uint8Array {
  const total = entries.reduce((a, e) => a + e.length, 0) + 1024;
  const out = new Uint8Array(total);
  let o = 0;
  for (const e of entries) {
    out.set(e, o);
    o += e.length;
  }
  return out;
}

function form(sid: string, name: string, data: Uint8Array | string, path?: string): FormData {
  const fd = new FormData();
  fd.set("session_id", sid);
  if (path !== undefined) fd.set("path", path);
  fd.append("file", new File([data as BlobPart], name));
  return fd;
}

const listNames = (dir: string) => [...Deno.readDirSync(dir)].map((e) => e.name).sort();

Deno.test("POST /api/workspace/upload stores into the chosen folder and never overwrites", () =>
  withSession(async (app, sid, ws) => {
    await Deno.mkdir(join(ws, "docs"));
    const r = await app.call("POST", "/api/workspace/upload", form(sid, "a b.txt", "one", "docs"));
    strictEqual(r.status, 200);
    deepStrictEqual(r.body, {
      filename: "a_b.txt",
      path: "docs/a_b.txt",
      size: 3,
      mime: "text/plain",
      is_image: false,
      extracted: false,
    });
    const again = await app.call(
      "POST",
      "/api/workspace/upload",
      form(sid, "a b.txt", "two", "docs"),
    );
    strictEqual(again.body.path, "docs/a_b-1.txt");
    strictEqual(await Deno.readTextFile(join(ws, "docs/a_b.txt")), "one");
    // Several files in one body.
    const fd = form(sid, "x.md", "x");
    fd.append("file", new File(["y"], "y.md"));
    const many = await app.call("POST", "/api/workspace/upload", fd);
    strictEqual(many.body.count, 2);
    // Hostile names are made safe; hostile folders are refused.
    const evil = await app.call("POST", "/api/workspace/upload", form(sid, "../../evil.sh", "x"));
    strictEqual(evil.body.path, "evil.sh");
    for (const path of ["..", "../x", "/tmp", "a\0b", "docs/a_b.txt"]) {
      const res = await app.call("POST", "/api/workspace/upload", form(sid, "f.txt", "f", path));
      strictEqual(res.status, 400, `${path} → ${res.status}`);
    }
    // A missing folder is made (issue 30; tests/workspace_upload_folders_test.ts covers it).
    const made = await app.call(
      "POST",
      "/api/workspace/upload",
      form(sid, "f.txt", "f", "missing"),
    );
    strictEqual(made.body.path, "missing/f.txt");
    const outside = await Deno.makeTempDir();
    try {
      await Deno.symlink(outside, join(ws, "link"));
      const res = await app.call("POST", "/api/workspace/upload", form(sid, "f.txt", "f", "link"));
      strictEqual(res.status, 400);
      deepStrictEqual(listNames(outside), []);
    } finally {
      await Deno.remove(outside, { recursive: true });
    }
    strictEqual((await app.call("POST", "/api/workspace/upload", new FormData())).status, 400);
  }));

Deno.test("POST /api/workspace/upload: over the cap is a 413 and leaves nothing", () =>
  withSession(async (app, sid, ws) => {
    const cap = app.ctx.config.maxUploadBytes;
    const r = await app.call(
      "POST",
      "/api/workspace/upload",
      form(sid, "big.bin", new Uint8Array(cap + 1)),
    );
    strictEqual(r.status, 413);
    deepStrictEqual(listNames(ws), []);
  }, { HERMES_WEBUI_MAX_UPLOAD_MB: "0.01" }));

Deno.test("POST /api/upload/extract unpacks zip, tar and tar.gz into a new folder", () =>
  withSession(async (app, sid, ws) => {
    const zip = zipSync({ "proj/readme.md": enc.encode("hi"), "proj/src/a.ts": enc.encode("a") });
    const r = await app.call("POST", "/api/upload/extract", form(sid, "proj.zip", zip));
    strictEqual(r.status, 200);
    strictEqual(r.body.dest, "proj");
    strictEqual(r.body.extracted, 2);
    strictEqual(await Deno.readTextFile(join(ws, "proj/proj/src/a.ts")), "a");
    // Same name again → proj-1, nothing overwritten.
    const r2 = await app.call("POST", "/api/upload/extract", form(sid, "proj.zip", zip));
    strictEqual(r2.body.dest, "proj-1");
    const t = tar(
      tarEntry("d/", "5"),
      tarEntry("d/f.txt", "0", "x".repeat(1000)),
      tarEntry("d/rel-link", "2", "", "f.txt"),
    );
    const r3 = await app.call("POST", "/api/upload/extract", form(sid, "t.tar.gz", gzipSync(t)));
    strictEqual(r3.status, 200, JSON.stringify(r3.body));
    strictEqual(await Deno.readTextFile(join(ws, "t/d/f.txt")), "x".repeat(1000));
    strictEqual(await Deno.readLink(join(ws, "t/d/rel-link")), "f.txt");
    const r4 = await app.call("POST", "/api/upload/extract", form(sid, "plain.tar", t));
    strictEqual(r4.body.dest, "plain");
    // Not an archive → 400.
    strictEqual(
      (await app.call("POST", "/api/upload/extract", form(sid, "x.zip", "not a zip"))).status,
      400,
    );
  }));

Deno.test("POST /api/upload/extract refuses a zip-slip corpus and leaves nothing behind", () =>
  withSession(async (app, sid, ws) => {
    const root = join(ws, "..");
    const before = listNames(root);
    const corpus: [string, Uint8Array][] = [
      ["dotdot.zip", zipSync({ "../evil.txt": enc.encode("x") })],
      ["deep.zip", zipSync({ "ok/../../../evil.txt": enc.encode("x") })],
      ["abs.zip", zipSync({ "/tmp/evil.txt": enc.encode("x") })],
      ["win.zip", zipSync({ "..\\evil.txt": enc.encode("x") })],
      ["drive.zip", zipSync({ "C:/evil.txt": enc.encode("x") })],
      ["nul.zip", zipSync({ "a\u0000b.txt": enc.encode("x") })],
      ["dotdot.tar", tar(tarEntry("../evil.txt", "0", "x"))],
      ["abs.tar", tar(tarEntry("/tmp/evil.txt", "0", "x"))],
      ["abslink.tar", tar(tarEntry("l", "2", "", "/etc"))],
      ["uplink.tar", tar(tarEntry("l", "2", "", "../../.."))],
      // A link to the inside first, then a file written through it: refused (no symlink is
      // ever followed while writing).
      ["through.tar", tar(tarEntry("l", "2", "", "."), tarEntry("l/x.txt", "0", "x"))],
      ["dup.tar", tar(tarEntry("a.txt", "0", "1"), tarEntry("a.txt", "0", "2"))],
      ["deep.zip", zipSync({ ["d/".repeat(65) + "x.txt"]: enc.encode("x") })],
      [
        "longname.tar",
        tar(tarEntry("x".repeat(100), "L", "a/".repeat(70) + "f"), tarEntry("ignored", "0", "x")),
      ],
    ];
    for (const [name, bytes] of corpus) {
      const r = await app.call("POST", "/api/upload/extract", form(sid, name, bytes));
      strictEqual(r.status, 400, `${name}: ${JSON.stringify(r.body)}`);
    }
    deepStrictEqual(listNames(ws), [], "no partial folder is left behind");
    deepStrictEqual(listNames(root), before);
    // Hard links are skipped, not created.
    const hard = await app.call(
      "POST",
      "/api/upload/extract",
      form(sid, "hard.tar", tar(tarEntry("h", "1", "", "/etc/passwd"), tarEntry("ok.txt", "0"))),
    );
    strictEqual(hard.status, 200);
    deepStrictEqual(hard.body.skipped, ["h"]);
    deepStrictEqual(listNames(join(ws, "hard")), ["ok.txt"]);
  }));

Deno.test("extractArchive() caps entries and inflated bytes while inflating (zip bomb)", async () => {
  const ws = await Deno.makeTempDir();
  try {
    const bomb = zipSync({ "zeros.bin": new Uint8Array(4 * 1024 * 1024) }, { level: 9 });
    ok(bomb.length < 20_000);
    await rejects(
      extractArchive(ws, ".", "bomb.zip", bomb, { limits: { maxEntries: 10, maxBytes: 1 << 20 } }),
      PayloadTooLargeError,
    );
    const many: Record<string, Uint8Array> = {};
    for (let i = 0; i < 20; i++) many[`f${i}.txt`] = enc.encode("x");
    await rejects(
      extractArchive(ws, ".", "many.zip", zipSync(many), {
        limits: { maxEntries: 10, maxBytes: 1 << 20 },
      }),
      PayloadTooLargeError,
    );
    const tarBomb = gzipSync(tar(tarEntry("z", "0", "\0".repeat(2 << 20))), { level: 9 });
    await rejects(
      extractArchive(ws, ".", "bomb.tgz", tarBomb, {
        limits: { maxEntries: 10, maxBytes: 1 << 20 },
      }),
      PayloadTooLargeError,
    );
    deepStrictEqual(listNames(ws), []);
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("GET /api/folder/download streams a zip without symlinks or protected paths", () =>
  withSession(async (app, sid, ws) => {
    await Deno.mkdir(join(ws, "proj/src"), { recursive: true });
    await Deno.writeTextFile(join(ws, "proj/readme.md"), "hello");
    await Deno.writeFile(join(ws, "proj/src/big.bin"), new Uint8Array(600_000).fill(7));
    const outside = await Deno.makeTempDir();
    try {
      await Deno.writeTextFile(join(outside, "secret"), "s");
      await Deno.symlink(outside, join(ws, "proj/out"));
      await Deno.symlink(join(outside, "secret"), join(ws, "proj/secret-link"));
      const res = await app.request("GET", `/api/folder/download?session_id=${sid}&path=proj`);
      strictEqual(res.status, 200);
      strictEqual(res.headers.get("content-type"), "application/zip");
      ok(/proj\.zip/.test(res.headers.get("content-disposition") ?? ""));
      const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
      deepStrictEqual(Object.keys(files).sort(), ["readme.md", "src/", "src/big.bin"]);
      strictEqual(new TextDecoder().decode(files["readme.md"]), "hello");
      strictEqual(files["src/big.bin"].length, 600_000);
      ok(files["src/big.bin"].every((b) => b === 7));
    } finally {
      await Deno.remove(outside, { recursive: true });
    }
    for (const path of ["..", "../..", "/etc", "proj/readme.md", "missing", "a\0"]) {
      const r = await app.request(
        "GET",
        `/api/folder/download?session_id=${sid}&path=${encodeURIComponent(path)}`,
      );
      ok(r.status === 404 || r.status === 400, `${path} → ${r.status}`);
      await r.body?.cancel();
    }
  }));

Deno.test("GET /api/folder/download of a home workspace leaves protected paths out", async () => {
  const app = await createTestApp();
  try {
    const home = join(app.stateDir, "..");
    await Deno.mkdir(join(home, ".ssh"), { recursive: true });
    await Deno.writeTextFile(join(home, ".ssh", "id_ed25519"), "KEY");
    await Deno.writeTextFile(join(home, "config.yaml"), "model: x\n");
    await Deno.writeTextFile(join(home, ".env"), "KEY=1\n");
    await Deno.writeTextFile(join(app.workspace, "w.txt"), "w");
    const sid = (await createSession(app.ctx.db, app.ctx.clock, { workspace: home })).session_id;
    const res = await app.request("GET", `/api/folder/download?session_id=${sid}&path=.`);
    strictEqual(res.status, 200);
    const names = Object.keys(unzipSync(new Uint8Array(await res.arrayBuffer())));
    ok(names.includes("workspace/w.txt"), names.join(","));
    for (const n of names) {
      ok(!/^(\.ssh|state|config\.yaml|\.env)(\/|$)/.test(n), `protected ${n} in the zip`);
    }
  } finally {
    await app.close();
  }
});
