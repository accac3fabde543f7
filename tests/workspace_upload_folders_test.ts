// POST /api/workspace/upload into a folder that does not exist yet (made beneath the workspace,
// never outside it) and with an archive (extracted in the same request, as the original does).
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { gzipSync, zipSync } from "fflate";
import { withWorkspaceSession as withSession } from "./helpers.ts";

const enc = new TextEncoder();

function form(sid: string, path: string, ...files: [string, Uint8Array | string][]): FormData {
  const fd = new FormData();
  fd.set("session_id", sid);
  fd.set("path", path);
  for (const [name, data] of files) fd.append("file", new File([data as BlobPart], name));
  return fd;
}

/** Every path beneath `dir`, "/"-separated, sorted (symlinks listed, not followed). */
function tree(dir: string, prefix = ""): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    const rel = prefix + e.name;
    out.push(e.isDirectory ? rel + "/" : rel);
    if (e.isDirectory) out.push(...tree(join(dir, e.name), rel + "/"));
  }
  return out.sort();
}

const listNames = (dir: string) => [...Deno.readDirSync(dir)].map((e) => e.name).sort();

Deno.test("workspace upload into a missing nested folder makes it and stores the file there", () =>
  withSession(async (app, sid, ws) => {
    const r = await app.call(
      "POST",
      "/api/workspace/upload",
      form(sid, "inbox/deep", ["n.txt", "hi"]),
    );
    strictEqual(r.status, 200, JSON.stringify(r.body));
    deepStrictEqual(r.body, {
      filename: "n.txt",
      path: "inbox/deep/n.txt",
      size: 2,
      mime: "text/plain",
      is_image: false,
      extracted: false,
    });
    strictEqual(await Deno.readTextFile(join(ws, "inbox/deep/n.txt")), "hi");
    // Into the folder now there, and one level further: the existing part is reused.
    const again = await app.call(
      "POST",
      "/api/workspace/upload",
      form(sid, "inbox/deep/more/", ["m.txt", "m"]),
    );
    strictEqual(again.body.path, "inbox/deep/more/m.txt");
    deepStrictEqual(tree(ws), [
      "inbox/",
      "inbox/deep/",
      "inbox/deep/more/",
      "inbox/deep/more/m.txt",
      "inbox/deep/n.txt",
    ]);
    // A symlink to a folder inside the workspace is followed to its real place.
    await Deno.symlink(join(ws, "inbox"), join(ws, "alias"));
    const viaAlias = await app.call(
      "POST",
      "/api/workspace/upload",
      form(sid, "alias/new", ["a.txt", "a"]),
    );
    strictEqual(viaAlias.status, 200, JSON.stringify(viaAlias.body));
    strictEqual(viaAlias.body.path, "inbox/new/a.txt");
    // A file where a folder is asked for: 400 naming it.
    const onFile = await app.call(
      "POST",
      "/api/workspace/upload",
      form(sid, "inbox/deep/n.txt/x", ["f.txt", "f"]),
    );
    strictEqual(onFile.status, 400);
    ok(/is a file/.test(String(onFile.body.error)), JSON.stringify(onFile.body));
  }));

Deno.test("workspace upload refuses a folder outside the workspace with 400 and creates nothing", () =>
  withSession(async (app, sid, ws) => {
    const outside = await Deno.makeTempDir();
    const parent = join(ws, "..");
    try {
      await Deno.symlink(outside, join(ws, "link"));
      await Deno.symlink(join(outside, "gone"), join(ws, "dangling"));
      const parentBefore = listNames(parent);
      const hostile = [
        "../x",
        "../../x/y",
        "inbox/../../x",
        "/tmp/hermes-upload-abs",
        join(ws, "abs-inside"),
        "link",
        "link/new",
        "link/new/deeper",
        "dangling",
        "dangling/new",
        "new/\u0000x",
        "new/" + "x".repeat(300),
        "new/\uff0e\uff0e\uff0fx",
      ];
      for (const path of hostile) {
        const r = await app.call("POST", "/api/workspace/upload", form(sid, path, ["f.txt", "f"]));
        strictEqual(
          r.status,
          400,
          `${JSON.stringify(path)} → ${r.status} ${JSON.stringify(r.body)}`,
        );
        strictEqual(typeof r.body.error, "string");
      }
      deepStrictEqual(tree(ws), ["dangling", "link"], "nothing was created in the workspace");
      deepStrictEqual(tree(outside), [], "nothing was created through the symlink");
      deepStrictEqual(listNames(parent), parentBefore);
      ok(!(await Deno.lstat("/tmp/hermes-upload-abs").then(() => true, () => false)));
    } finally {
      await Deno.remove(outside, { recursive: true });
    }
  }));

Deno.test("workspace upload extracts a zip or tar.gz into a new folder and answers its files", () =>
  withSession(async (app, sid, ws) => {
    const zip = zipSync({ "readme.md": enc.encode("hi"), "src/a.ts": enc.encode("a") });
    const r = await app.call(
      "POST",
      "/api/workspace/upload",
      form(sid, "inbox", ["bundle.zip", zip]),
    );
    strictEqual(r.status, 200, JSON.stringify(r.body));
    strictEqual(r.body.filename, "bundle.zip");
    strictEqual(r.body.path, "inbox/bundle");
    strictEqual(r.body.size, zip.length);
    strictEqual(r.body.is_image, false);
    strictEqual(r.body.extracted, true);
    strictEqual(r.body.extracted_count, 2);
    deepStrictEqual(
      [...(r.body.extracted_files as string[])].sort(),
      ["inbox/bundle/readme.md", "inbox/bundle/src/a.ts"],
    );
    ok(!("extract_error" in r.body));
    strictEqual(await Deno.readTextFile(join(ws, "inbox/bundle/src/a.ts")), "a");
    // The archive itself is not stored; the same name again gets a new folder.
    const again = await app.call(
      "POST",
      "/api/workspace/upload",
      form(sid, "inbox", ["bundle.zip", zip]),
    );
    strictEqual(again.body.path, "inbox/bundle-1");
    // A tarball among plain files: each answered in `files`.
    const tgz = gzipSync(tarOf("t.txt", "tar"));
    const many = await app.call(
      "POST",
      "/api/workspace/upload",
      form(sid, "inbox", ["notes.txt", "n"], ["pack.tgz", tgz]),
    );
    strictEqual(many.status, 200, JSON.stringify(many.body));
    const files = many.body.files as Record<string, unknown>[];
    strictEqual(many.body.count, 2);
    strictEqual(files[0].path, "inbox/notes.txt");
    strictEqual(files[0].extracted, false);
    strictEqual(files[1].extracted, true);
    deepStrictEqual(files[1].extracted_files, ["inbox/pack/t.txt"]);
    deepStrictEqual(tree(join(ws, "inbox")), [
      "bundle-1/",
      "bundle-1/readme.md",
      "bundle-1/src/",
      "bundle-1/src/a.ts",
      "bundle/",
      "bundle/readme.md",
      "bundle/src/",
      "bundle/src/a.ts",
      "notes.txt",
      "pack/",
      "pack/t.txt",
    ]);
  }));

Deno.test("workspace upload of a zip-slip archive answers extract_error and writes nothing", () =>
  withSession(async (app, sid, ws) => {
    const parent = join(ws, "..");
    const parentBefore = listNames(parent);
    const corpus: [string, Uint8Array][] = [
      ["slip.zip", zipSync({ "ok.txt": enc.encode("ok"), "../evil.txt": enc.encode("x") })],
      ["deep.zip", zipSync({ "a/../../../evil.txt": enc.encode("x") })],
      ["abs.zip", zipSync({ "/tmp/hermes-upload-evil.txt": enc.encode("x") })],
      ["fake.zip", enc.encode("not a zip at all")],
    ];
    for (const [name, bytes] of corpus) {
      const r = await app.call("POST", "/api/workspace/upload", form(sid, "inbox", [name, bytes]));
      strictEqual(r.status, 200, `${name}: ${JSON.stringify(r.body)}`);
      strictEqual(r.body.extracted, false, name);
      strictEqual(r.body.filename, name);
      strictEqual(r.body.path, "inbox");
      ok(typeof r.body.extract_error === "string" && r.body.extract_error !== "", name);
      ok(!("extracted_files" in r.body), name);
    }
    deepStrictEqual(tree(ws), ["inbox/"], "no archive, no partial folder");
    deepStrictEqual(listNames(parent), parentBefore);
    ok(!(await Deno.lstat("/tmp/hermes-upload-evil.txt").then(() => true, () => false)));
  }));

/** A one-file ustar archive. */
function tarOf(name: string, data: string): Uint8Array {
  const body = enc.encode(data);
  const h = new Uint8Array(512);
  const put = (s: string, off: number) => h.set(enc.encode(s), off);
  put(name, 0);
  put("0000644\0", 100);
  put("0000000\0", 108);
  put("0000000\0", 116);
  put(body.length.toString(8).padStart(11, "0") + "\0", 124);
  put("00000000000\0", 136);
  put("        ", 148);
  put("0", 156);
  put("ustar\u000000", 257);
  put(h.reduce((a, b) => a + b, 0).toString(8).padStart(6, "0") + "\0 ", 148);
  const out = new Uint8Array(512 + Math.ceil(body.length / 512) * 512 + 1024);
  out.set(h);
  out.set(body, 512);
  return out;
}
