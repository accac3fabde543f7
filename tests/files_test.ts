import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp, type TestApp } from "./helpers.ts";
import { createSession } from "../lib/sessions/sessions.ts";
import { countLines, MAX_LIST_ENTRIES, MAX_VIEW_BYTES } from "../lib/workspace/files.ts";
import { gitStatus, parseGitStatus } from "../lib/workspace/git_info.ts";
import { git } from "./git_fixture.ts";

type Entry = {
  name: string;
  path: string;
  type: string;
  size: number | null;
  mtime: number | null;
};

async function withSession(
  fn: (app: TestApp, sid: string, ws: string) => Promise<void>,
  workspace?: (app: TestApp) => string,
): Promise<void> {
  const app = await createTestApp();
  try {
    const ws = workspace ? workspace(app) : app.workspace;
    const sid = (await createSession(app.ctx.db, app.ctx.clock, { workspace: ws })).session_id;
    await fn(app, sid, ws);
  } finally {
    await app.close();
  }
}

Deno.test("GET /api/list lists folders first, then files, case-insensitively, numbers in order", () =>
  withSession(async (app, sid, ws) => {
    for (const d of ["beta", "Alpha", "zeta"]) await Deno.mkdir(join(ws, d));
    for (const f of ["b.txt", "A.md", "c.TXT", ".hidden", "file_10.ts", "file_2.ts"]) {
      await Deno.writeTextFile(join(ws, f), f);
    }
    await Deno.writeTextFile(join(ws, "Alpha", "inside.txt"), "12345");
    await Deno.symlink("Alpha", join(ws, "alias"));
    const { status, body } = await app.call<
      { entries: Entry[]; path: string; workspace: string; truncated: boolean }
    >(
      "GET",
      `/api/list?session_id=${sid}&path=.`,
    );
    strictEqual(status, 200);
    deepStrictEqual(body.entries.map((e) => e.name), [
      "alias",
      "Alpha",
      "beta",
      "zeta",
      ".hidden",
      "A.md",
      "b.txt",
      "c.TXT",
      "file_2.ts",
      "file_10.ts",
    ]);
    strictEqual(body.path, ".");
    strictEqual(body.workspace, await Deno.realPath(ws));
    strictEqual(body.truncated, false);
    const a = body.entries.find((e) => e.name === "A.md")!;
    deepStrictEqual({ path: a.path, type: a.type, size: a.size }, {
      path: "A.md",
      type: "file",
      size: 4,
    });
    ok(typeof a.mtime === "number" && a.mtime > 1e9);
    const alpha = body.entries.find((e) => e.name === "Alpha")!;
    strictEqual(alpha.type, "dir");
    strictEqual(alpha.size, null);
    // A symlink staying inside shows its target's type (and is marked as a link).
    const alias = body.entries.find((e) => e.name === "alias") as Entry & { is_symlink?: boolean };
    strictEqual(alias.type, "dir");
    strictEqual(alias.is_symlink, true);
    // Sub folders: entry paths are workspace-relative; the default path is ".".
    const sub = await app.call<{ entries: Entry[]; path: string }>(
      "GET",
      `/api/list?session_id=${sid}&path=Alpha/`,
    );
    strictEqual(sub.body.path, "Alpha");
    deepStrictEqual(sub.body.entries.map((e) => e.path), ["Alpha/inside.txt"]);
    strictEqual((await app.call("GET", `/api/list?session_id=${sid}`)).status, 200);
    // Through the symlink (inside the workspace) it works too.
    strictEqual((await app.call("GET", `/api/list?session_id=${sid}&path=alias`)).status, 200);
  }));

Deno.test("GET /api/list returns at most 200 entries and says it truncated", () =>
  withSession(async (app, sid, ws) => {
    for (let i = 0; i < 230; i++) {
      await Deno.writeTextFile(join(ws, `f${String(i).padStart(3, "0")}`), "");
    }
    await Deno.mkdir(join(ws, "zz-folder"));
    const { body } = await app.call<{ entries: Entry[]; truncated: boolean }>(
      "GET",
      `/api/list?session_id=${sid}&path=.`,
    );
    strictEqual(body.entries.length, MAX_LIST_ENTRIES);
    strictEqual(body.truncated, true);
    strictEqual(body.entries[0].name, "zz-folder", "folders come first even past the cut");
  }));

Deno.test("GET /api/list and /api/file: bad input is a 400, unknown things a 404", () =>
  withSession(async (app, sid, ws) => {
    await Deno.writeTextFile(join(ws, "a.txt"), "a");
    const cases: Array<[string, number]> = [
      ["/api/list", 400],
      ["/api/list?session_id=", 400],
      ["/api/list?session_id=ffffffffffff", 404],
      ["/api/list?session_id=../../etc", 404],
      [`/api/list?session_id=${sid}&path=a.txt`, 400],
      [`/api/list?session_id=${sid}&path=missing`, 404],
      [`/api/file?session_id=${sid}`, 400],
      [`/api/file?session_id=${sid}&path=.`, 400],
      [`/api/file?session_id=${sid}&path=missing.txt`, 404],
      [`/api/file/raw?session_id=${sid}&path=missing.txt`, 404],
      [`/api/file/raw?session_id=${sid}`, 400],
      ["/api/git-info", 400],
      ["/api/git-info?session_id=ffffffffffff", 404],
    ];
    for (const [url, expected] of cases) {
      const res = await app.call("GET", url);
      strictEqual(res.status, expected, `${url} → ${JSON.stringify(res.body)}`);
      ok(typeof res.body.error === "string" && res.body.error.length > 0);
    }
    // The workspace of a session that was since removed: 404, not a 500.
    const gone = await createSession(app.ctx.db, app.ctx.clock, { workspace: join(ws, "nope") });
    strictEqual((await app.call("GET", `/api/list?session_id=${gone.session_id}`)).status, 404);
  }));

Deno.test("GET /api/file returns UTF-8 text with replacement characters and a line count", () =>
  withSession(async (app, sid, ws) => {
    await Deno.writeTextFile(join(ws, "poem.md"), "line one\nligne deux — é\n");
    const { status, body } = await app.call("GET", `/api/file?session_id=${sid}&path=poem.md`);
    strictEqual(status, 200);
    deepStrictEqual(body, {
      path: "poem.md",
      content: "line one\nligne deux — é\n",
      size: new TextEncoder().encode("line one\nligne deux — é\n").length,
      lines: 2,
      // The editor's save base (conflict check): the file's mtime and the hash of its bytes.
      mtime: (await Deno.stat(join(ws, "poem.md"))).mtime!.getTime() / 1000,
      sha256: Array.from(
        new Uint8Array(
          await crypto.subtle.digest(
            "SHA-256",
            new TextEncoder().encode("line one\nligne deux — é\n"),
          ),
        ),
        (b) => b.toString(16).padStart(2, "0"),
      ).join(""),
    });
    await Deno.writeFile(join(ws, "bin.dat"), new Uint8Array([0x61, 0xff, 0xfe, 0x62]));
    const bin = await app.call("GET", `/api/file?session_id=${sid}&path=bin.dat`);
    strictEqual(bin.body.content, "a\ufffd\ufffdb");
    strictEqual(bin.body.size, 4);
    strictEqual(countLines(""), 0);
    strictEqual(countLines("a"), 1);
    strictEqual(countLines("a\nb"), 2);
    strictEqual(countLines("\n\n"), 2);
  }));

Deno.test("GET /api/file refuses files over 400,000 bytes with a 413 that says what to do", () =>
  withSession(async (app, sid, ws) => {
    await Deno.writeFile(join(ws, "exact.txt"), new Uint8Array(MAX_VIEW_BYTES).fill(0x61));
    strictEqual((await app.call("GET", `/api/file?session_id=${sid}&path=exact.txt`)).status, 200);
    await Deno.writeFile(join(ws, "big.log"), new Uint8Array(MAX_VIEW_BYTES + 1).fill(0x61));
    const res = await app.call("GET", `/api/file?session_id=${sid}&path=big.log`);
    strictEqual(res.status, 413);
    match(
      String(res.body.error),
      /"big\.log" is 400,001 bytes; the viewer opens files up to 400,000 bytes\. Download it instead\./,
    );
    // The raw route still serves it.
    const raw = await app.request("GET", `/api/file/raw?session_id=${sid}&path=big.log&download=1`);
    strictEqual(raw.status, 200);
    strictEqual((await raw.arrayBuffer()).byteLength, MAX_VIEW_BYTES + 1);
  }));

Deno.test("GET /api/file never opens a FIFO or device (it would hang the request)", () =>
  withSession(async (app, sid, ws) => {
    const made = await new Deno.Command("mkfifo", { args: [join(ws, "pipe")] }).output();
    ok(made.success);
    strictEqual((await app.call("GET", `/api/file?session_id=${sid}&path=pipe`)).status, 400);
    strictEqual((await app.call("GET", `/api/file/raw?session_id=${sid}&path=pipe`)).status, 400);
    const list = await app.call<{ entries: Entry[] }>("GET", `/api/list?session_id=${sid}`);
    strictEqual(list.body.entries.find((e) => e.name === "pipe")?.type, "file");
  }));

Deno.test("GET /api/file/raw serves bytes; scriptable types only as sandboxed attachments", () =>
  withSession(async (app, sid, ws) => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    await Deno.writeFile(join(ws, "pic.png"), png);
    await Deno.writeTextFile(join(ws, "page.html"), "<script>alert(1)</script>");
    await Deno.writeTextFile(
      join(ws, "logo.svg"),
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    );
    await Deno.writeTextFile(join(ws, "app.js"), "alert(1)");
    await Deno.writeTextFile(join(ws, "data.xml"), "<a/>");
    await Deno.writeFile(join(ws, "blob.bin"), new Uint8Array([0, 1, 2]));
    await Deno.writeTextFile(join(ws, 'we"ird name ü.txt'), "hi");
    const get = (path: string, download = false) =>
      app.request(
        "GET",
        `/api/file/raw?session_id=${sid}&path=${encodeURIComponent(path)}${
          download ? "&download=1" : ""
        }`,
      );

    const img = await get("pic.png");
    strictEqual(img.status, 200);
    strictEqual(img.headers.get("content-type"), "image/png");
    ok(img.headers.get("content-disposition")?.startsWith("inline"));
    deepStrictEqual(new Uint8Array(await img.arrayBuffer()), png);
    strictEqual(img.headers.get("x-content-type-options"), "nosniff");

    for (const name of ["page.html", "logo.svg", "data.xml", "blob.bin"]) {
      const res = await get(name);
      await res.body?.cancel();
      ok(res.headers.get("content-disposition")?.startsWith("attachment;"), name);
      ok(res.headers.get("content-security-policy")?.startsWith("sandbox"), name);
    }
    const html = await get("page.html");
    strictEqual(html.headers.get("content-type"), "text/html; charset=utf-8");
    await html.body?.cancel();
    // Scripts are bytes (the original's application/octet-stream), which browsers never execute.
    const js = await get("app.js");
    strictEqual(js.headers.get("content-type"), "application/octet-stream");
    strictEqual(await js.text(), "alert(1)");
    // download=1 forces an attachment for anything.
    const dl = await get("pic.png", true);
    ok(dl.headers.get("content-disposition")?.startsWith('attachment; filename="pic.png"'));
    await dl.body?.cancel();
    const odd = await get('we"ird name ü.txt', true);
    strictEqual(
      odd.headers.get("content-disposition"),
      `attachment; filename="we_ird name _.txt"; filename*=UTF-8''${
        encodeURIComponent('we"ird name ü.txt')
      }`,
    );
    await odd.body?.cancel();
    const head = await app.request("HEAD", `/api/file/raw?session_id=${sid}&path=pic.png`);
    strictEqual(head.headers.get("content-length"), String(png.length));
    await head.body?.cancel();
  }));

Deno.test("the console's state dir is never listed or opened, even inside a workspace", () =>
  withSession(
    async (app, sid) => {
      const root = app.stateDir.replace(/\/state$/, "");
      const list = await app.call<{ entries: Entry[] }>(
        "GET",
        `/api/list?session_id=${sid}&path=.`,
      );
      const names = list.body.entries.map((e) => e.name);
      ok(names.includes("workspace") && !names.includes("state"), names.join(","));
      for (
        const p of [
          "state",
          "state/session_secret",
          "state/hermes.db",
          "workspace/../state/hermes.db",
        ]
      ) {
        for (const route of ["/api/list", "/api/file", "/api/file/raw"]) {
          strictEqual(
            (await app.call("GET", `${route}?session_id=${sid}&path=${p}`)).status,
            404,
            `${route} ${p} in ${root}`,
          );
        }
      }
    },
    (app) => app.stateDir.replace(/\/state$/, ""),
  ));

Deno.test("GET /api/git-info reports no repo outside one and the branch state inside one", () =>
  withSession(async (app, sid, ws) => {
    deepStrictEqual((await app.call("GET", `/api/git-info?session_id=${sid}`)).body, {
      git: { is_git: false },
    });
    const remote = join(app.stateDir, "..", "remote.git");
    await git(ws, "init", "-q");
    await Deno.writeTextFile(join(ws, "a.txt"), "a");
    await Deno.writeTextFile(join(ws, "b.txt"), "b");
    await git(ws, "add", ".");
    await git(ws, "commit", "-q", "-m", "one");
    await git(ws, "init", "-q", "--bare", remote);
    await git(ws, "remote", "add", "origin", remote);
    await git(ws, "push", "-q", "-u", "origin", "main");
    await Deno.writeTextFile(join(ws, "c.txt"), "c");
    await git(ws, "add", "c.txt");
    await git(ws, "commit", "-q", "-m", "two");
    await Deno.writeTextFile(join(ws, "a.txt"), "changed");
    await Deno.writeTextFile(join(ws, "new1.txt"), "n");
    await Deno.writeTextFile(join(ws, "new2.txt"), "n");
    const { status, body } = await app.call("GET", `/api/git-info?session_id=${sid}`);
    strictEqual(status, 200);
    const file = (path: string, status: string, staged: boolean, unstaged: boolean) => ({
      path,
      old_path: null,
      status,
      staged,
      unstaged,
      untracked: status === "??",
      conflict: false,
    });
    deepStrictEqual(body, {
      git: {
        is_git: true,
        branch: "main",
        upstream: "origin/main",
        ahead: 1,
        behind: 0,
        totals: { changed: 3, staged: 0, unstaged: 1, untracked: 2, conflicts: 0 },
        files: [
          file("a.txt", "M", false, true),
          file("new1.txt", "??", false, false),
          file("new2.txt", "??", false, false),
        ],
        truncated: false,
      },
    });
    // The panel never takes git's index lock (a user's own git command must not collide).
    ok(!(await Deno.stat(join(ws, ".git", "index.lock")).catch(() => null)));
  }));

Deno.test("parseGitStatus() reads porcelain v2, including a detached HEAD, renames and conflicts", () => {
  const detached = parseGitStatus(
    [
      "# branch.oid 0123456789abcdef",
      "# branch.head (detached)",
      "1 .M N... 100644 100644 100644 a a sub/f g.txt",
      "2 R. N... 100644 100644 100644 a a R100 sub/new name.txt",
      "sub/old.txt",
      "u UU N... 1 2 3 4 a b c sub/c.txt",
      "? sub/new",
      "? other/x",
      "! sub/ignored",
      "",
    ].join("\0"),
    "sub/",
  );
  deepStrictEqual(detached.is_git && detached.branch, "0123456");
  deepStrictEqual(detached.is_git && detached.files.map((f) => [f.path, f.status, f.old_path]), [
    ["c.txt", "UU", null],
    ["f g.txt", "M", null],
    ["new", "??", null],
    ["new name.txt", "R", "old.txt"],
  ]);
  deepStrictEqual(detached.is_git && detached.totals, {
    changed: 4,
    staged: 1,
    unstaged: 1,
    untracked: 1,
    conflicts: 1,
  });
  deepStrictEqual(
    parseGitStatus(
      "# branch.oid (initial)\0# branch.head main\0# branch.upstream origin/main\0# branch.ab +0 -3\0",
    ),
    {
      is_git: true,
      branch: "main",
      upstream: "origin/main",
      ahead: 0,
      behind: 3,
      totals: { changed: 0, staged: 0, unstaged: 0, untracked: 0, conflicts: 0 },
      files: [],
      truncated: false,
    },
  );
  const many = Array.from({ length: 7 }, (_, i) => `? f${i}`).join("\0");
  const capped = parseGitStatus(many, "", 5);
  deepStrictEqual(capped.is_git && [capped.files.length, capped.truncated, capped.totals.changed], [
    5,
    true,
    7,
  ]);
});

Deno.test("gitStatus() is no repo when git is missing or too slow", async () => {
  const dir = await Deno.makeTempDir();
  try {
    deepStrictEqual(await gitStatus(dir, { git: "/nonexistent/git" }), { is_git: false });
    const slow = join(dir, "slow-git");
    await Deno.writeTextFile(slow, "#!/bin/sh\nexec sleep 5\n");
    await Deno.chmod(slow, 0o755);
    deepStrictEqual(await gitStatus(dir, { git: slow, timeoutMs: 100 }), { is_git: false });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
