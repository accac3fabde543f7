// The Git panel's routes (/api/git/*) against real repositories made in temp dirs: status paging,
// diffs, stage/unstage per file and per hunk, discard, commit, branches, log, no remote; merge
// conflicts, a detached HEAD, an empty repo, 5,000 changed files; hostile paths and a hostile
// repo config (no program it names runs for any operation, with or without bubblewrap).
// fetch/pull/push against real remotes: tests/git_remote_test.ts.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp, type TestApp } from "./helpers.ts";
import { createSession } from "../lib/sessions/sessions.ts";
import { sandboxStatus } from "../lib/sandbox/command_runner.ts";
import { git } from "./git_fixture.ts";
import { needs } from "./fixtures/skip.ts";
import { scaled } from "./fixtures/scale.ts";

const bwrap = await sandboxStatus();

interface Ctx {
  app: TestApp;
  ws: string;
  sid: string;
  get<T = Record<string, unknown>>(path: string): Promise<{ status: number; body: T }>;
  post<T = Record<string, unknown>>(
    path: string,
    body: Record<string, unknown>,
  ): Promise<{ status: number; body: T }>;
}

async function withRepo(
  fn: (c: Ctx) => Promise<void>,
  opts: { init?: boolean; sandboxed?: boolean } = {},
): Promise<void> {
  const app = await createTestApp({ tools: opts.sandboxed === false ? { bwrapPath: null } : {} });
  try {
    const ws = await Deno.realPath(app.workspace);
    if (opts.init !== false) await git(ws, "init", "-q");
    const sid = (await createSession(app.ctx.db, app.ctx.clock, { workspace: ws })).session_id;
    await fn({
      app,
      ws,
      sid,
      get: (path) =>
        app.call("GET", `/api/git/${path}${path.includes("?") ? "&" : "?"}session_id=${sid}`),
      post: (path, body) => app.call("POST", `/api/git/${path}`, { session_id: sid, ...body }),
    });
  } finally {
    await app.close();
  }
}

type Status = {
  is_git: boolean;
  branch: string;
  files: Array<
    {
      path: string;
      status: string;
      staged: boolean;
      unstaged: boolean;
      untracked: boolean;
      conflict: boolean;
    }
  >;
  total: number;
  offset: number;
  limit: number;
  truncated: boolean;
  totals: Record<string, number>;
};
/** A status answer (the original's `git` key); mutations answer `{ok, git}`. */
type Git = { ok?: boolean; git: Status };

const lines = (n: number, tag = "") => Array.from({ length: n }, (_, i) => `line ${i + 1}${tag}`);

Deno.test("git panel: status, diff, stage, commit and log on a real repo", async () => {
  await withRepo(async ({ ws, get, post }) => {
    await Deno.writeTextFile(join(ws, "a.txt"), "one\n");
    await git(ws, "add", ".");
    await git(ws, "commit", "-q", "-m", "first");
    await Deno.writeTextFile(join(ws, "a.txt"), "one\ntwo\n");
    await Deno.writeTextFile(join(ws, "new.txt"), "fresh\n");
    await Deno.mkdir(join(ws, "dir"));
    await Deno.writeTextFile(join(ws, "dir", "deep.txt"), "deep\n");

    const st = await get<Git>("status");
    strictEqual(st.status, 200);
    strictEqual(st.body.git.branch, "main");
    deepStrictEqual(st.body.git.files.map((f) => `${f.status} ${f.path}`), [
      "M a.txt",
      "?? dir/deep.txt",
      "?? new.txt",
    ]);

    const d = await get<{ diff: string; kind: string; additions: number; hunks: unknown[] }>(
      "diff?path=a.txt",
    );
    strictEqual(d.status, 200);
    strictEqual(d.body.kind, "unstaged");
    ok(d.body.diff.includes("+two"));
    strictEqual(d.body.additions, 1);
    strictEqual(d.body.hunks.length, 1);
    const u = await get<{ diff: string; kind: string }>("diff?path=new.txt");
    strictEqual(u.body.kind, "untracked");
    ok(u.body.diff.includes("+fresh"), u.body.diff);

    const staged = await post<Git>("stage", { paths: ["a.txt", "new.txt"] });
    strictEqual(staged.status, 200);
    strictEqual(staged.body.ok, true);
    const a = staged.body.git.files.find((f) => f.path === "a.txt")!;
    ok(a.staged && !a.unstaged);
    const sd = await get<{ diff: string }>("diff?path=a.txt&kind=staged");
    ok(sd.body.diff.includes("+two"));

    const un = await post<Git>("unstage", { paths: ["new.txt"] });
    ok(un.body.git.files.find((f) => f.path === "new.txt")!.untracked);

    const empty = await post("commit", { message: "  " });
    strictEqual(empty.status, 400);
    const c = await post<{ ok: boolean; commit: string; status: Status }>("commit", {
      message: "second",
    });
    strictEqual(c.status, 200, JSON.stringify(c.body));
    strictEqual(c.body.commit.length, 40);
    const log = await get<{ commits: Array<{ subject: string; author: string }> }>("log");
    deepStrictEqual(log.body.commits.map((x) => x.subject), ["second", "first"]);
    // The repo names no author and the server's own git config is never read: the fallback.
    strictEqual(log.body.commits[0].author, "Hermes Console");
    const again = await post("commit", { message: "nothing" });
    strictEqual(again.status, 409);
    ok(String(again.body.error).includes("Nothing is staged"));
  });
});

Deno.test("git panel: stage and unstage one hunk of a file", async () => {
  await withRepo(async ({ ws, get, post }) => {
    await Deno.writeTextFile(join(ws, "f.txt"), lines(40).join("\n") + "\n");
    await git(ws, "add", ".");
    await git(ws, "commit", "-q", "-m", "base");
    const edited = lines(40);
    edited[1] = "line 2 CHANGED";
    edited[35] = "line 36 CHANGED";
    await Deno.writeTextFile(join(ws, "f.txt"), edited.join("\n") + "\n");
    const d = await get<{ hunks: Array<{ index: number; header: string }> }>("diff?path=f.txt");
    strictEqual(d.body.hunks.length, 2);

    // A stale header (the file changed since the diff was shown) is refused, nothing staged.
    const stale = await post("stage-hunk", { path: "f.txt", hunk: 1, header: "@@ -1,1 +1,1 @@" });
    strictEqual(stale.status, 409);
    const missing = await post("stage-hunk", { path: "f.txt", hunk: 7 });
    strictEqual(missing.status, 409);

    const r = await post<Git>("stage-hunk", {
      path: "f.txt",
      hunk: 1,
      header: d.body.hunks[1].header,
    });
    strictEqual(r.status, 200, JSON.stringify(r.body));
    const f = r.body.git.files.find((x) => x.path === "f.txt")!;
    ok(f.staged && f.unstaged, "part staged, part not");
    const staged = await get<{ diff: string }>("diff?path=f.txt&kind=staged");
    ok(staged.body.diff.includes("+line 36 CHANGED"));
    ok(!staged.body.diff.includes("+line 2 CHANGED"));
    const rest = await get<{ diff: string }>("diff?path=f.txt");
    ok(rest.body.diff.includes("+line 2 CHANGED"));
    ok(!rest.body.diff.includes("+line 36 CHANGED"));

    const back = await post<Git>("unstage-hunk", { path: "f.txt", hunk: 0 });
    strictEqual(back.status, 200, JSON.stringify(back.body));
    const after = back.body.git.files.find((x) => x.path === "f.txt")!;
    ok(!after.staged && after.unstaged);
    // The worktree kept both edits throughout.
    strictEqual(await Deno.readTextFile(join(ws, "f.txt")), edited.join("\n") + "\n");
  });
});

Deno.test("git panel: discard asks for confirmation and for untracked deletion", async () => {
  await withRepo(async ({ ws, post }) => {
    await Deno.writeTextFile(join(ws, "a.txt"), "one\n");
    await git(ws, "add", ".");
    await git(ws, "commit", "-q", "-m", "first");
    await Deno.writeTextFile(join(ws, "a.txt"), "changed\n");
    await Deno.writeTextFile(join(ws, "junk.txt"), "junk\n");
    strictEqual((await post("discard", { paths: ["a.txt"] })).status, 400);
    strictEqual(await Deno.readTextFile(join(ws, "a.txt")), "changed\n");
    const r = await post<Git>("discard", { paths: ["a.txt"], confirm: true });
    strictEqual(r.status, 200);
    strictEqual(await Deno.readTextFile(join(ws, "a.txt")), "one\n");
    const refused = await post("discard", { paths: ["junk.txt"], confirm: true });
    strictEqual(refused.status, 400);
    ok(String(refused.body.error).includes("untracked"));
    ok(await Deno.stat(join(ws, "junk.txt")));
    const gone = await post<Git>("discard", {
      paths: ["junk.txt"],
      confirm: true,
      delete_untracked: true,
    });
    strictEqual(gone.status, 200);
    strictEqual(await Deno.stat(join(ws, "junk.txt")).catch(() => null), null);
    deepStrictEqual(gone.body.git.files, []);
  });
});

Deno.test("git panel: branches, create, switch, detached HEAD", async () => {
  await withRepo(async ({ ws, get, post }) => {
    await Deno.writeTextFile(join(ws, "a.txt"), "one\n");
    await git(ws, "add", ".");
    await git(ws, "commit", "-q", "-m", "first");
    const created = await post<{ current_branch: string }>("branch", { branch: "feature/x" });
    strictEqual(created.status, 200, JSON.stringify(created.body));
    strictEqual(created.body.current_branch, "feature/x");
    const sw = await post<{ current_branch: string }>("checkout", { branch: "main" });
    strictEqual(sw.body.current_branch, "main");
    const list = await get<{ branches: { local: Array<{ name: string; current: boolean }> } }>(
      "branches",
    );
    deepStrictEqual(list.body.branches.local.map((b) => `${b.current ? "*" : ""}${b.name}`), [
      "feature/x",
      "*main",
    ]);
    for (const bad of ["-f", "../x", "a..b", "x\0y", "with space", "x".repeat(300)]) {
      const r = await post("branch", { branch: bad });
      strictEqual(r.status, 400, `${JSON.stringify(bad)}: ${JSON.stringify(r.body)}`);
    }
    strictEqual((await post("checkout", { branch: "nope" })).status, 404);
    // Local changes that a switch would overwrite: 409, the change kept.
    await git(ws, "switch", "-q", "feature/x");
    await Deno.writeTextFile(join(ws, "a.txt"), "on feature\n");
    await git(ws, "commit", "-q", "-am", "feature");
    await git(ws, "switch", "-q", "main");
    await Deno.writeTextFile(join(ws, "a.txt"), "dirty\n");
    const blocked = await post("checkout", { branch: "feature/x" });
    strictEqual(blocked.status, 409);
    strictEqual(await Deno.readTextFile(join(ws, "a.txt")), "dirty\n");
    await git(ws, "checkout", "-q", "--", "a.txt");

    // Detached HEAD: the status names the commit, branches say detached, a commit still works.
    const head = (await git(ws, "rev-parse", "--short=7", "HEAD")).trim();
    await git(ws, "checkout", "-q", "--detach", "HEAD");
    const st = await get<Git>("status");
    strictEqual(st.body.git.branch, head);
    const b = await get<{ branches: { detached: boolean; current: string } }>("branches");
    strictEqual(b.body.branches.detached, true);
    strictEqual(b.body.branches.current, head);
    await Deno.writeTextFile(join(ws, "b.txt"), "b\n");
    await post("stage", { paths: ["b.txt"] });
    strictEqual((await post("commit", { message: "detached work" })).status, 200);
    const back = await post<{ current_branch: string }>("checkout", { branch: "main" });
    strictEqual(back.body.current_branch, "main");
  });
});

Deno.test("git panel: a merge conflict is shown, guarded and resolved", async () => {
  await withRepo(async ({ ws, get, post }) => {
    await Deno.writeTextFile(join(ws, "c.txt"), "base\n");
    await git(ws, "add", ".");
    await git(ws, "commit", "-q", "-m", "base");
    await git(ws, "switch", "-q", "-c", "other");
    await Deno.writeTextFile(join(ws, "c.txt"), "theirs\n");
    await git(ws, "commit", "-q", "-am", "theirs");
    await git(ws, "switch", "-q", "main");
    await Deno.writeTextFile(join(ws, "c.txt"), "ours\n");
    await git(ws, "commit", "-q", "-am", "ours");
    await git(ws, "merge", "other").catch(() => {}); // conflicts
    const st = await get<Git>("status");
    const c = st.body.git.files.find((f) => f.path === "c.txt")!;
    strictEqual(c.conflict, true);
    strictEqual(c.status, "UU");
    strictEqual(st.body.git.totals.conflicts, 1);
    const discard = await post("discard", { paths: ["c.txt"], confirm: true });
    strictEqual(discard.status, 409);
    ok(String(discard.body.error).includes("conflict"));
    const early = await post("commit", { message: "merge" });
    strictEqual(early.status, 409);
    await Deno.writeTextFile(join(ws, "c.txt"), "resolved\n");
    strictEqual((await post("stage", { paths: ["c.txt"] })).status, 200);
    const done = await post("commit", { message: "merge other" });
    strictEqual(done.status, 200, JSON.stringify(done.body));
    const parents = (await git(ws, "log", "-1", "--format=%P")).trim().split(" ");
    strictEqual(parents.length, 2);
  });
});

Deno.test("git panel: an empty repo (no commit yet) and a folder that is no repo", async () => {
  await withRepo(async ({ ws, get, post }) => {
    const st = await get<Git>("status");
    strictEqual(st.body.git.is_git, true);
    deepStrictEqual(st.body.git.files, []);
    deepStrictEqual((await get("log")).body, { commits: [] });
    await Deno.writeTextFile(join(ws, "first.txt"), "1\n");
    const staged = await post<Git>("stage", { paths: ["first.txt"] });
    strictEqual(staged.body.git.files[0].status, "A");
    const sd = await get<{ diff: string }>("diff?path=first.txt&kind=staged");
    ok(sd.body.diff.includes("+1"));
    const un = await post<Git>("unstage", { paths: ["first.txt"] });
    strictEqual(un.status, 200, JSON.stringify(un.body));
    ok(un.body.git.files[0].untracked);
    await post("stage", { paths: ["first.txt"] });
    strictEqual((await post("commit", { message: "root" })).status, 200);
    const b = await get<{ branches: { current: string } }>("branches");
    strictEqual(b.body.branches.current, "main");
  });
  await withRepo(async ({ get, post }) => {
    deepStrictEqual((await get("status")).body, { git: { is_git: false } });
    const r = await post("stage", { paths: ["x"] });
    strictEqual(r.status, 409);
    ok(String(r.body.error).includes("not a git repository"));
  }, { init: false });
});

// 2,100 files in the default run (past the 2,000-row cap), 5,000 in the slow lane.
const MANY = scaled(2_100, 5_000);

Deno.test(`git panel: ${MANY.toLocaleString("en")} changed files come in pages`, async () => {
  await withRepo(async ({ ws, get, post }) => {
    await Deno.mkdir(join(ws, "many"));
    const name = (i: number) => `f${String(i).padStart(4, "0")}.txt`;
    for (let i = 0; i < MANY; i++) await Deno.writeTextFile(join(ws, "many", name(i)), "a\n");
    await git(ws, "add", ".");
    await git(ws, "commit", "-q", "-m", "many");
    for (let i = 0; i < MANY; i++) await Deno.writeTextFile(join(ws, "many", name(i)), "b\n");
    const firstAnswer = await get<Git>("status");
    strictEqual(firstAnswer.status, 200);
    const first = firstAnswer.body.git;
    strictEqual(first.total, MANY);
    strictEqual(first.files.length, 500);
    strictEqual(first.truncated, true);
    strictEqual(first.totals.unstaged, MANY);
    const last = (await get<Git>(`status?offset=${MANY - 100}&limit=500`)).body.git;
    strictEqual(last.files.length, 100);
    strictEqual(last.files[99].path, `many/${name(MANY - 1)}`);
    strictEqual(last.truncated, false);
    const capped = (await get<Git>("status?limit=100000")).body.git;
    strictEqual(capped.files.length, 2000);
    // A mutation answers with the first page, not every row.
    const staged = (await post<Git>("stage", { paths: ["many/f0000.txt"] })).body.git;
    strictEqual(staged.files.length, 500);
    strictEqual(staged.totals.staged, 1);
  });
});

Deno.test("git panel: hostile paths and requests are refused", async () => {
  await withRepo(async ({ app, ws, sid, get, post }) => {
    await Deno.writeTextFile(join(ws, "a.txt"), "one\n");
    await git(ws, "add", ".");
    await git(ws, "commit", "-q", "-m", "first");
    const outside = await Deno.makeTempDir({ prefix: "hermes-outside-" });
    await Deno.writeTextFile(join(outside, "secret.txt"), "secret\n");
    await Deno.symlink(outside, join(ws, "link"));
    try {
      for (
        const bad of [
          "../x",
          "/etc/passwd",
          "a\0b",
          "a\nb",
          "x/../../y",
          "%2e%2e/x",
          "link/secret.txt",
          "x".repeat(5000),
          "C:\\x",
        ]
      ) {
        for (const op of ["stage", "unstage"]) {
          const r = await post(op, { paths: [bad] });
          strictEqual(r.status, 404, `${op} ${JSON.stringify(bad)}: ${JSON.stringify(r.body)}`);
        }
        const d = await get(`diff?path=${encodeURIComponent(bad)}`);
        ok(d.status === 404 || d.status === 400, `diff ${JSON.stringify(bad)} → ${d.status}`);
        const h = await post("stage-hunk", { path: bad, hunk: 0 });
        strictEqual(h.status, 404);
        const dis = await post("discard", { paths: [bad], confirm: true, delete_untracked: true });
        strictEqual(dis.status, 404);
      }
      // Pathspec magic is literal: `:(top)` or a glob never widens the change.
      await Deno.writeTextFile(join(ws, "a.txt"), "two\n");
      for (const magic of [":(top)", "*", ":/"]) {
        const r = await post<Git>("stage", { paths: [magic] });
        ok(r.status === 409 || r.status === 200, JSON.stringify(r.body));
        const st = await get<Git>("status");
        ok(!st.body.git.files.find((f) => f.path === "a.txt")!.staged, `${magic} staged a.txt`);
      }
      strictEqual((await post("stage", { paths: [] })).status, 400);
      strictEqual((await post("stage", { paths: "a.txt" })).status, 400);
      strictEqual((await post("stage", { paths: Array(1001).fill("a.txt") })).status, 400);
      strictEqual((await post("stage-hunk", { path: "a.txt", hunk: -1 })).status, 400);
      strictEqual((await get("diff?path=a.txt&kind=evil")).status, 400);
      strictEqual((await app.call("GET", "/api/git/status?session_id=nope")).status, 404);
      strictEqual(
        (await app.call("POST", "/api/git/stage", { session_id: "nope", paths: ["a"] })).status,
        404,
      );
      // Unsafe methods need the page's proof of origin.
      const noProof = await app.call(
        "POST",
        "/api/git/stage",
        { session_id: sid, paths: ["a.txt"] },
        {},
        {
          proof: false,
        },
      );
      strictEqual(noProof.status, 403);
      // A file replaced by a directory between status and stage: git answers, no crash.
      await Deno.remove(join(ws, "a.txt"));
      await Deno.mkdir(join(ws, "a.txt"));
      await Deno.writeTextFile(join(ws, "a.txt", "inner"), "x\n");
      const swapped = await post("stage", { paths: ["a.txt"] });
      ok(swapped.status === 200 || swapped.status === 409, JSON.stringify(swapped.body));
      strictEqual(await Deno.readTextFile(join(outside, "secret.txt")), "secret\n");
    } finally {
      await Deno.remove(outside, { recursive: true });
    }
  });
});

Deno.test("git panel: fetch/pull/push without a remote say so", async () => {
  await withRepo(async ({ ws, post }) => {
    await Deno.writeTextFile(join(ws, "a.txt"), "one\n");
    await git(ws, "add", ".");
    await git(ws, "commit", "-q", "-m", "first");
    for (const op of ["fetch", "pull", "push"]) {
      const r = await post(op, {});
      strictEqual(r.status, 409);
      strictEqual(r.body.code, "no_remote");
    }
  });
});

/** A repo whose config names `touch <marks>/<name>` for every program git could run. */
async function hostileRepo(ws: string, marks: string): Promise<void> {
  const touch = (name: string) => `sh -c 'touch ${marks}/${name}'`;
  await git(ws, "init", "-q");
  await Deno.writeTextFile(join(ws, "a.txt"), lines(30).join("\n") + "\n");
  await Deno.writeTextFile(join(ws, ".gitattributes"), "* filter=evil diff=evil merge=evil\n");
  await git(ws, "add", ".");
  await git(ws, "commit", "-q", "-m", "one");
  await git(ws, "branch", "side");
  const hooks = join(ws, "evil-hooks");
  await Deno.mkdir(hooks);
  const hookNames = [
    "pre-commit",
    "prepare-commit-msg",
    "commit-msg",
    "post-commit",
    "post-checkout",
    "post-index-change",
    "reference-transaction",
    "pre-push",
    "fsmonitor-watchman",
  ];
  for (const hook of hookNames) {
    for (const dir of [hooks, join(ws, ".git", "hooks")]) {
      await Deno.writeTextFile(join(dir, hook), `#!/bin/sh\n${touch(`hook-${hook}`)}\n`);
      await Deno.chmod(join(dir, hook), 0o755);
    }
  }
  const config: Array<[string, string]> = [
    ["filter.evil.clean", touch("filter-clean")],
    ["filter.evil.smudge", touch("filter-smudge")],
    ["filter.evil.process", touch("filter-process")],
    ["filter.evil.required", "true"],
    ["diff.evil.textconv", touch("textconv")],
    ["diff.evil.command", touch("diff-command")],
    ["merge.evil.driver", touch("merge-driver")],
    ["diff.external", touch("diff-external")],
    ["core.fsmonitor", touch("fsmonitor")],
    ["core.hooksPath", hooks],
    ["core.pager", touch("pager")],
    ["core.editor", touch("editor")],
    ["core.sshCommand", touch("ssh")],
    ["gpg.program", touch("gpg")],
    ["commit.gpgSign", "true"],
    ["remote.origin.url", "ext::sh -c touch% " + marks + "/ext"],
    ["remote.origin.uploadpack", touch("uploadpack")],
  ];
  for (const [k, v] of config) await git(ws, "config", k, v);
  const old = new Date(Date.now() - 3600_000);
  await Deno.utime(join(ws, "a.txt"), old, old);
}

for (const sandboxed of [true, false]) {
  Deno.test(needs(sandboxed && !bwrap.bubblewrap && `no bubblewrap sandbox: ${bwrap.message}`, {
    name: `git panel: a hostile repo config runs nothing, for every operation (${
      sandboxed ? "in the sandbox" : "on the host, no bubblewrap"
    })`,
    async fn() {
      const marks = await Deno.makeTempDir({ dir: "/var/tmp", prefix: "hermes-gitpanel-marks-" });
      try {
        await withRepo(async ({ ws, get, post }) => {
          await hostileRepo(ws, marks);
          const edited = lines(30);
          edited[0] = "first CHANGED";
          edited[28] = "late CHANGED";
          await Deno.writeTextFile(join(ws, "a.txt"), edited.join("\n") + "\n");
          await Deno.writeTextFile(join(ws, "b.txt"), "b\n");
          const steps: Array<[string, () => Promise<{ status: number; body: unknown }>]> = [
            ["status", () => get("status")],
            ["diff", () => get("diff?path=a.txt")],
            ["diff untracked", () => get("diff?path=b.txt")],
            ["stage-hunk", () => post("stage-hunk", { path: "a.txt", hunk: 0 })],
            ["diff staged", () => get("diff?path=a.txt&kind=staged")],
            ["unstage-hunk", () => post("unstage-hunk", { path: "a.txt", hunk: 0 })],
            ["stage", () => post("stage", { paths: ["a.txt", "b.txt"] })],
            // No model is configured: the diff is read, then 409 no_model.
            ["commit-message", () => post("commit-message", {})],
            ["unstage", () => post("unstage", { paths: ["b.txt"] })],
            ["commit", () => post("commit", { message: "hostile" })],
            [
              "commit-message-selected",
              () => post("commit-message-selected", { paths: ["b.txt"] }),
            ],
            [
              "commit-selected",
              async () => {
                await Deno.writeTextFile(join(ws, "c.txt"), "c\n");
                return await post("commit-selected", {
                  message: "hostile selected",
                  paths: ["c.txt"],
                });
              },
            ],
            ["log", () => get("log")],
            ["branches", () => get("branches")],
            ["branch", () => post("branch", { branch: "new" })],
            ["checkout", () => post("checkout", { branch: "side" })],
            ["stash-checkout", async () => {
              await Deno.writeTextFile(join(ws, "a.txt"), "parked\n");
              return await post("stash-checkout", { ref: "new", mode: "local" });
            }],
            ["stash-checkout back", () => post("stash-checkout", { ref: "side", mode: "local" })],
            [
              "discard",
              () => post("discard", { paths: ["b.txt"], confirm: true, delete_untracked: true }),
            ],
            ["fetch", () => post("fetch", {})],
            ["pull", () => post("pull", {})],
            ["push", () => post("push", {})],
          ];
          for (const [name, step] of steps) {
            const r = await step();
            const expected = [
                "fetch",
                "pull",
                "push",
                "commit-message",
                "commit-message-selected",
              ].includes(name)
              ? 409
              : 200;
            strictEqual(r.status, expected, `${name}: ${JSON.stringify(r.body)}`);
            const left: string[] = [];
            for await (const e of Deno.readDir(marks)) left.push(e.name);
            deepStrictEqual(left, [], `${name} ran a program the repo named`);
          }
          // The operations did happen (hooks off does not mean nothing ran).
          ok((await git(ws, "log", "--all", "--format=%s")).includes("hostile"));
          strictEqual((await git(ws, "branch", "--show-current")).trim(), "side");
          ok((await git(ws, "log", "--all", "--format=%s")).includes("hostile selected"));
          // The parked change came back with the branch it was made on.
          strictEqual(await Deno.readTextFile(join(ws, "a.txt")), "parked\n");
          // The config is live: plain git (no hardening) on the same repo runs its programs.
          await Deno.writeTextFile(join(ws, "a.txt"), "changed again\n");
          await new Deno.Command("git", { args: ["diff"], cwd: ws, stdout: "null", stderr: "null" })
            .output();
          const ran: string[] = [];
          for await (const e of Deno.readDir(marks)) ran.push(e.name);
          ok(ran.length > 0, "plain git runs the repo's programs");
        }, { init: false, sandboxed });
      } finally {
        await Deno.remove(marks, { recursive: true });
      }
    },
  }));
}

Deno.test("git panel: protected paths are neither listed nor staged", async () => {
  const app = await createTestApp();
  try {
    // A workspace holding the console's state dir, its config and the user's ~/.ssh (HOME).
    const root = await Deno.realPath(join(app.workspace, ".."));
    await git(root, "init", "-q");
    await Deno.mkdir(join(root, ".ssh"), { recursive: true });
    await Deno.writeTextFile(join(root, ".ssh", "id_ed25519"), "PRIVATE\n");
    await Deno.writeTextFile(join(root, "config.yaml"), "model: {}\n");
    await Deno.writeTextFile(join(root, "visible.txt"), "hi\n");
    const sid = (await createSession(app.ctx.db, app.ctx.clock, { workspace: root })).session_id;
    const st = await app.call<Git>("GET", `/api/git/status?session_id=${sid}`);
    strictEqual(st.status, 200);
    const paths = st.body.git.files.map((f) => f.path);
    ok(paths.includes("visible.txt"), JSON.stringify(paths));
    ok(
      !paths.some((p) => p.startsWith(".ssh") || p === "config.yaml" || p.startsWith("state/")),
      JSON.stringify(paths),
    );
    strictEqual(st.body.git.totals.changed, paths.length);
    for (const bad of [".ssh/id_ed25519", ".ssh", "config.yaml", "state"]) {
      const r = await app.call("POST", "/api/git/stage", { session_id: sid, paths: [bad] });
      strictEqual(r.status, 404, `${bad}: ${JSON.stringify(r.body)}`);
      const d = await app.call("GET", `/api/git/diff?session_id=${sid}&path=${bad}`);
      strictEqual(d.status, 404, bad);
    }
    strictEqual((await git(root, "diff", "--cached", "--name-only")).trim(), "");
  } finally {
    await app.close();
  }
});

Deno.test("git panel: a hunk at a file's end without a final newline stages cleanly", async () => {
  await withRepo(async ({ ws, get, post }) => {
    await Deno.writeTextFile(join(ws, "n.txt"), lines(30).join("\n"));
    await git(ws, "add", ".");
    await git(ws, "commit", "-q", "-m", "base");
    const edited = lines(30);
    edited[0] = "FIRST";
    edited[29] = "LAST";
    await Deno.writeTextFile(join(ws, "n.txt"), edited.join("\n"));
    const d = await get<{ hunks: Array<{ header: string; lines: string[] }> }>("diff?path=n.txt");
    strictEqual(d.body.hunks.length, 2);
    ok(d.body.hunks[1].lines.some((l) => l.startsWith("\\ No newline")), JSON.stringify(d.body));
    const r = await post("stage-hunk", { path: "n.txt", hunk: 1, header: d.body.hunks[1].header });
    strictEqual(r.status, 200, JSON.stringify(r.body));
    const staged = await get<{ diff: string }>("diff?path=n.txt&kind=staged");
    ok(
      staged.body.diff.includes("+LAST") && !staged.body.diff.includes("+FIRST"),
      staged.body.diff,
    );
    const back = await post("unstage-hunk", { path: "n.txt", hunk: 0 });
    strictEqual(back.status, 200, JSON.stringify(back.body));
    strictEqual((await git(ws, "diff", "--cached", "--name-only")).trim(), "");
  });
});
