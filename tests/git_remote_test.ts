// fetch, pull and push from the Git panel through the user's own credentials
// (lib/workspace/git_remote.ts), against real repositories in temp dirs: a round trip through a
// bare repository served by `git daemon` on a loopback port (local-path remotes are refused:
// tests/git_remote_transport_test.ts), a rejected push, an https remote that asks for a password nobody has, an
// unreachable host; and a hostile repo — config keys that name programs, transport-helper URLs,
// a pre-push hook, a .git file pointing outside the workspace — refused before anything runs.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp, type TestApp } from "./helpers.ts";
import { createSession } from "../lib/sessions/sessions.ts";
import { git } from "./git_fixture.ts";
import { serveGitDaemon } from "./git_daemon_fixture.ts";
import {
  isNetworkRemoteUrl,
  remoteUrlProblem,
  unsafeRepoConfigKey,
} from "../lib/workspace/git_remote.ts";

type Answer = { status: number; body: Record<string, unknown> };

async function withRemoteRepo(
  fn: (
    c: {
      app: TestApp;
      ws: string;
      bare: string;
      marks: string;
      op(name: string, body?: Record<string, unknown>): Promise<Answer>;
    },
  ) => Promise<void>,
  opts: { sandboxed?: boolean } = {},
): Promise<void> {
  const app = await createTestApp({ tools: opts.sandboxed === false ? { bwrapPath: null } : {} });
  const served = await Deno.makeTempDir({ prefix: "hermes-remote-" });
  const bare = join(served, "origin.git");
  const marks = await Deno.makeTempDir({ dir: "/var/tmp", prefix: "hermes-remote-marks-" });
  const daemon = await serveGitDaemon(served);
  try {
    const ws = await Deno.realPath(app.workspace);
    await git(served, "init", "-q", "--bare", bare);
    await git(ws, "init", "-q");
    await Deno.writeTextFile(join(ws, "a.txt"), "one\n");
    await git(ws, "add", ".");
    await git(ws, "commit", "-q", "-m", "first");
    await git(ws, "remote", "add", "origin", daemon.url("origin.git"));
    const sid = (await createSession(app.ctx.db, app.ctx.clock, { workspace: ws })).session_id;
    await fn({
      app,
      ws,
      bare,
      marks,
      op: (name, body = {}) => app.call("POST", `/api/git/${name}`, { session_id: sid, ...body }),
    });
  } finally {
    await app.close();
    await daemon.close();
    await Deno.remove(served, { recursive: true });
    await Deno.remove(marks, { recursive: true });
  }
}

async function marksLeft(marks: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(marks)) out.push(e.name);
  return out;
}

Deno.test("git remote: push, fetch and pull round-trip through a real remote", async () => {
  await withRemoteRepo(async ({ ws, bare, op }) => {
    const pushed = await op("push");
    strictEqual(pushed.status, 200, JSON.stringify(pushed.body));
    strictEqual(pushed.body.remote, "origin");
    strictEqual(pushed.body.branch, "main");
    strictEqual((await git(bare, "log", "--format=%s", "main")).trim(), "first");
    strictEqual(
      (await git(ws, "rev-parse", "--abbrev-ref", "main@{upstream}")).trim(),
      "origin/main",
    );

    // Someone else pushes a commit; fetch sees it, pull fast-forwards to it.
    const other = await Deno.makeTempDir({ prefix: "hermes-other-" });
    try {
      await git(other, "clone", "-q", bare, ".");
      await Deno.writeTextFile(join(other, "b.txt"), "theirs\n");
      await git(other, "add", ".");
      await git(other, "commit", "-q", "-m", "theirs");
      await git(other, "push", "-q", "origin", "main");
    } finally {
      await Deno.remove(other, { recursive: true });
    }
    const fetched = await op("fetch");
    strictEqual(fetched.status, 200, JSON.stringify(fetched.body));
    strictEqual((await git(ws, "log", "--format=%s", "origin/main", "-1")).trim(), "theirs");
    const pulled = await op("pull");
    strictEqual(pulled.status, 200, JSON.stringify(pulled.body));
    strictEqual(await Deno.readTextFile(join(ws, "b.txt")), "theirs\n");

    // Diverged: our own commit and theirs → a push is rejected with what to do.
    await Deno.writeTextFile(join(ws, "c.txt"), "ours\n");
    await git(ws, "add", ".");
    await git(ws, "commit", "-q", "-m", "ours");
    const clone2 = await Deno.makeTempDir({ prefix: "hermes-other-" });
    try {
      await git(clone2, "clone", "-q", bare, ".");
      await Deno.writeTextFile(join(clone2, "d.txt"), "again\n");
      await git(clone2, "add", ".");
      await git(clone2, "commit", "-q", "-m", "again");
      await git(clone2, "push", "-q", "origin", "main");
    } finally {
      await Deno.remove(clone2, { recursive: true });
    }
    const rejected = await op("push");
    strictEqual(rejected.status, 409);
    strictEqual(rejected.body.code, "push_rejected");
    match(String(rejected.body.error), /pull first/);
    const diverged = await op("pull");
    strictEqual(diverged.status, 409);
    strictEqual(diverged.body.code, "pull_diverged");
    const unknown = await op("fetch", { remote: "nope" });
    strictEqual(unknown.status, 400);
  });
});

Deno.test("git remote: a remote that wants a password gets a clear error, never a hanging prompt", async () => {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(new URL(req.url).pathname);
    return new Response("auth required", {
      status: 401,
      headers: { "www-authenticate": 'Basic realm="git"' },
    });
  });
  try {
    await withRemoteRepo(async ({ ws, op }) => {
      const port = (server.addr as Deno.NetAddr).port;
      await git(ws, "remote", "set-url", "origin", `http://127.0.0.1:${port}/repo.git`);
      for (const name of ["fetch", "push"]) {
        const r = await op(name);
        strictEqual(r.status, 409, JSON.stringify(r.body));
        strictEqual(r.body.code, "credentials_missing", JSON.stringify(r.body));
        match(String(r.body.error), /ssh-agent|credential helper/);
      }
      ok(seen.length > 0, "git did reach the remote");
      // A closed port: unreachable, said as such.
      const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const dead = (closed.addr as Deno.NetAddr).port;
      closed.close();
      await git(ws, "remote", "set-url", "origin", `http://127.0.0.1:${dead}/repo.git`);
      const r = await op("fetch");
      strictEqual(r.status, 409);
      strictEqual(r.body.code, "remote_unreachable", JSON.stringify(r.body));
    });
  } finally {
    await server.shutdown();
  }
});

Deno.test("git remote: a hostile repo is refused before git touches the remote, and runs nothing", async () => {
  await withRemoteRepo(async ({ ws, marks, op }) => {
    const touch = (name: string) => `sh -c 'touch ${marks}/${name}'`;
    // A pre-push hook in the repo never runs (hooks are off for remote operations too).
    await Deno.writeTextFile(
      join(ws, ".git", "hooks", "pre-push"),
      `#!/bin/sh\n${touch("pre-push")}\n`,
    );
    await Deno.chmod(join(ws, ".git", "hooks", "pre-push"), 0o755);
    const pushed = await op("push");
    strictEqual(pushed.status, 200, JSON.stringify(pushed.body));
    deepStrictEqual(await marksLeft(marks), [], "the pre-push hook did not run");

    const keys: Array<[string, string]> = [
      ["core.sshCommand", touch("ssh")],
      ["credential.helper", `!${touch("helper")}`],
      ["remote.origin.uploadpack", touch("uploadpack")],
      ["remote.origin.receivepack", touch("receivepack")],
      ["core.hooksPath", marks],
      ["core.fsmonitor", touch("fsmonitor")],
      ["include.path", "/etc/gitconfig-evil"],
      ["url.ext::sh -c touch% /tmp/x.insteadOf", "origin"],
      ["core.gitProxy", touch("proxy")],
      ["core.worktree", "/"],
      ["http.proxy", "http://127.0.0.1:9"],
      ["filter.evil.smudge", touch("smudge")],
    ];
    for (const [i, [key, value]] of keys.entries()) {
      await git(ws, "config", key, value);
      // Every key against one operation, the first against all three (the check is shared).
      for (const name of i === 0 ? ["fetch", "pull", "push"] : [["fetch", "pull", "push"][i % 3]]) {
        const r = await op(name);
        strictEqual(r.status, 409, `${key} ${name}: ${JSON.stringify(r.body)}`);
        strictEqual(r.body.code, "unsafe_config", `${key} ${name}`);
        strictEqual(String(r.body.key).toLowerCase(), key.toLowerCase());
      }
      await git(ws, "config", "--unset-all", key);
    }
    deepStrictEqual(await marksLeft(marks), [], "nothing the config named ran");

    for (const url of [`ext::sh -c touch% ${marks}/ext`, "fd::17", "-uhello", "evil::thing"]) {
      // Written as config: `git remote set-url` itself refuses an option-like URL.
      await git(ws, "config", "remote.origin.url", url);
      const r = await op("fetch");
      strictEqual(r.status, 409, url);
      strictEqual(r.body.code, "unsafe_remote", url);
    }
    deepStrictEqual(await marksLeft(marks), []);
  });
});

for (const sandboxed of [true, false]) {
  Deno.test(
    `git remote: a .git file that points outside the workspace is refused (${
      sandboxed ? "sandboxed reads" : "no bubblewrap"
    })`,
    async () => {
      await withRemoteRepo(async ({ ws, bare, op }) => {
        const elsewhere = await Deno.makeTempDir({ prefix: "hermes-elsewhere-" });
        try {
          await Deno.rename(join(ws, ".git"), join(elsewhere, "dotgit"));
          await Deno.writeTextFile(join(ws, ".git"), `gitdir: ${join(elsewhere, "dotgit")}\n`);
          const r = await op("push");
          strictEqual(r.status, 409, JSON.stringify(r.body));
          // In the sandbox the outside git dir is not even visible (not a repository); on the
          // host the git-dir check refuses it.
          if (sandboxed) {
            ok(
              r.body.code === "unsafe_repository" ||
                /not a git repository/.test(String(r.body.error)),
            );
          } else strictEqual(r.body.code, "unsafe_repository");
          strictEqual((await git(bare, "branch", "--list")).trim(), "", "nothing was pushed");
        } finally {
          await Deno.remove(elsewhere, { recursive: true });
        }
      }, { sandboxed });
    },
  );
}

Deno.test("git remote: the URL and config rules", () => {
  for (
    const good of [
      "https://github.com/a/b.git",
      "ssh://git@host/x",
      "git@github.com:a/b.git",
      "github.com:a/b.git",
      "git://h/x",
      "HTTPS://h/x",
      "http://[::1]:8080/x.git",
    ]
  ) {
    ok(isNetworkRemoteUrl(good), good);
  }
  // Local repositories: their receive-pack/upload-pack would run on the host, with their hooks.
  for (
    const local of [
      "/srv/git/x.git",
      "file:///srv/x",
      "File://localhost/srv/x",
      "../evil.git",
      "evil.git",
      "~/evil.git",
      "./odd:name",
      "a/b:c",
    ]
  ) {
    strictEqual(remoteUrlProblem(local), "local", local);
  }
  for (
    const bad of [
      "ext::sh -c id",
      "fd::3",
      "-oProxyCommand=x",
      "",
      "transport::x",
      "ftp://h/x",
      "a\nb",
      "ssh://-oProxyCommand=x/y",
      "ssh://u@-oProxyCommand=x/y",
      "-oProxyCommand=x:y",
    ]
  ) {
    strictEqual(remoteUrlProblem(bad), "unsafe", JSON.stringify(bad));
  }
  strictEqual(
    unsafeRepoConfigKey(["core.bare", "remote.origin.url", "branch.main.merge", "user.email"]),
    null,
  );
  strictEqual(unsafeRepoConfigKey(["remote.origin.url", "remote.origin.vcs"]), "remote.origin.vcs");
});
