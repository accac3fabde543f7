// Which transports the Git panel's fetch/pull/push may use (lib/workspace/git_remote.ts). A
// local remote runs the remote repository's own receive-pack/upload-pack on the host, with that
// repository's hooks and config: `-c core.hooksPath=/dev/null` on our side never reaches it. The
// agent can create such a repository (git init --bare ../evil.git, a pre-receive hook written
// with write_file, chmod 755) and name it as origin, directly or through a URL rewrite; a person
// then clicks Push. Every such remote is refused before git runs, and nothing is lost.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp, type TestApp } from "./helpers.ts";
import { createSession } from "../lib/sessions/sessions.ts";
import { git } from "./git_fixture.ts";
import { type GitResult, runGit } from "../lib/workspace/git_command.ts";

type Answer = { status: number; body: Record<string, unknown> };

interface Attack {
  app: TestApp;
  ws: string;
  /** Parent of the workspace (the test app's HOME): where `../evil.git` lands. */
  root: string;
  /** Outside the workspace and the app: the hook's canary goes here. */
  marks: string;
  op(name: string, body?: Record<string, unknown>): Promise<Answer>;
  /** A bare repository at `path` whose hooks touch `<marks>/<hook>` (the attack's remote). */
  evilBare(path: string): Promise<void>;
  marksLeft(): Promise<string[]>;
}

async function withAttack(fn: (a: Attack) => Promise<void>): Promise<void> {
  const app = await createTestApp({ tools: { bwrapPath: null } });
  const marks = await Deno.makeTempDir({ dir: "/var/tmp", prefix: "hermes-canary-" });
  try {
    const ws = await Deno.realPath(app.workspace);
    const root = join(ws, "..");
    await git(ws, "init", "-q");
    await Deno.writeTextFile(join(ws, "a.txt"), "one\n");
    await git(ws, "add", ".");
    await git(ws, "commit", "-q", "-m", "first");
    const sid = (await createSession(app.ctx.db, app.ctx.clock, { workspace: ws })).session_id;
    await fn({
      app,
      ws,
      root,
      marks,
      op: (name, body = {}) => app.call("POST", `/api/git/${name}`, { session_id: sid, ...body }),
      async evilBare(path) {
        await git(root, "init", "-q", "--bare", path);
        for (const hook of ["pre-receive", "update", "post-receive", "post-update"]) {
          const file = join(path, "hooks", hook);
          // What the agent wrote with write_file, then `chmod 755`.
          await Deno.writeTextFile(file, `#!/bin/sh\nid > ${marks}/${hook}\n`);
          await Deno.chmod(file, 0o755);
        }
      },
      async marksLeft() {
        const out: string[] = [];
        for await (const e of Deno.readDir(marks)) out.push(e.name);
        return out.sort();
      },
    });
  } finally {
    await app.close();
    await Deno.remove(marks, { recursive: true });
  }
}

/** The refusal every local remote gets: 409, a code the panel knows, a sentence that says why. */
function assertLocalRefused(r: Answer, what: string): void {
  strictEqual(r.status, 409, `${what}: ${JSON.stringify(r.body)}`);
  strictEqual(r.body.code, "local_remote", `${what}: ${JSON.stringify(r.body)}`);
  match(String(r.body.error), /local/, what);
  match(String(r.body.error), /https|ssh/, what);
}

Deno.test("POST /api/git/push refuses a local bare remote, and its pre-receive hook never runs on the host", async () => {
  await withAttack(async ({ app, ws, root, marks, op, evilBare, marksLeft }) => {
    // The attack is real: our client-side `-c core.hooksPath=/dev/null` does not reach the
    // receive-pack git starts for a local remote, which runs the remote's hooks.
    const probe = join(root, "probe.git");
    await evilBare(probe);
    await git(ws, "-c", "core.hooksPath=/dev/null", "push", "-q", probe, "HEAD:refs/heads/x");
    ok((await marksLeft()).includes("pre-receive"), "a plain local push runs the remote's hook");
    for (const m of await marksLeft()) await Deno.remove(join(marks, m));

    const stateDir = await Deno.realPath(app.stateDir);
    const forms: Array<[string, string]> = [
      [join(root, "evil.git"), join(root, "evil.git")],
      // git init --bare ../evil.git, then `git remote add origin ../evil.git`.
      ["../evil.git", join(root, "evil.git")],
      // Inside the workspace, relative and absolute.
      ["inside.git", join(ws, "inside.git")],
      [join(ws, "inside.git"), join(ws, "inside.git")],
      // The app's HOME is `root`: git expands `~/` to it.
      ["~/evil.git", join(root, "evil.git")],
      [`file://${join(root, "evil.git")}`, join(root, "evil.git")],
      [`FILE://${join(root, "evil.git")}`, join(root, "evil.git")],
      // In the console's state dir.
      [join(stateDir, "evil.git"), join(stateDir, "evil.git")],
      // A colon after a slash is still a local path to git, never scp-like.
      ["./odd:name.git", join(ws, "odd:name.git")],
    ];
    let first = true;
    for (const [url, path] of forms) {
      if (!(await Deno.stat(path).catch(() => null))) await evilBare(path);
      await git(ws, "config", "remote.origin.url", url);
      // Push, and pull/fetch too: a local upload-pack reads the remote repository's config.
      for (const name of first ? ["push", "fetch", "pull"] : ["push"]) {
        const r = await op(name);
        assertLocalRefused(r, `${name} ${url} (hooks run: ${await marksLeft()})`);
      }
      first = false;
      strictEqual((await git(path, "for-each-ref")).trim(), "", `nothing reached ${url}`);
    }
    // A push URL is what a push uses: a network url with a local pushurl is refused too.
    await git(ws, "config", "remote.origin.url", "https://example.invalid/repo.git");
    await git(ws, "config", "remote.origin.pushurl", join(root, "evil.git"));
    assertLocalRefused(await op("push"), "pushurl");

    deepStrictEqual(await marksLeft(), [], "no hook of the remote ran");
    // Nothing lost: the workspace's commit and files are as they were.
    strictEqual((await git(ws, "log", "--format=%s")).trim(), "first");
    strictEqual(await Deno.readTextFile(join(ws, "a.txt")), "one\n");
  });
});

Deno.test("git remote: an insteadOf rewrite to a local repository is refused (repo and user config)", async () => {
  await withAttack(async ({ ws, root, op, evilBare, marksLeft }) => {
    const bare = join(root, "evil.git");
    await evilBare(bare);
    const remote = "https://example.invalid/repo.git";
    await git(ws, "remote", "add", "origin", remote);

    // Written into the repo's own .git/config by the agent: refused as config.
    await git(ws, "config", `url.${bare}.insteadOf`, remote);
    for (const name of ["push", "fetch"]) {
      const r = await op(name);
      strictEqual(r.status, 409, JSON.stringify(r.body));
      strictEqual(r.body.code, "unsafe_config", JSON.stringify(r.body));
    }
    await git(ws, "config", "--remove-section", `url.${bare}`);

    // A rewrite in the user's own ~/.gitconfig: the check reads the URL git resolves, so
    // the rewritten (local) address is what is refused.
    const gitconfig = join(root, ".gitconfig");
    for (const key of ["insteadOf", "pushInsteadOf"]) {
      await Deno.writeTextFile(gitconfig, `[url "${bare}"]\n\t${key} = ${remote}\n`);
      const r = await op("push");
      assertLocalRefused(r, `${key} (hooks run: ${await marksLeft()})`);
    }
    await Deno.writeTextFile(
      gitconfig,
      `[url "file://${bare}"]\n\tinsteadOf = ${remote}\n`,
    );
    assertLocalRefused(await op("fetch"), "insteadOf file://");
    deepStrictEqual(await marksLeft(), [], "no hook of the remote ran");
    strictEqual((await git(bare, "for-each-ref")).trim(), "");
  });
});

/** runGit(args, opts) in a child Deno process whose environment adds `env`; its result. */
async function runGitWithEnv(
  env: Record<string, string>,
  args: string[],
  opts: Parameters<typeof runGit>[1],
): Promise<GitResult> {
  const module = new URL("../lib/workspace/git_command.ts", import.meta.url).href;
  const code = `const { runGit } = await import(${JSON.stringify(module)});
    const r = await runGit(${JSON.stringify(args)}, ${JSON.stringify(opts)});
    console.log(JSON.stringify(r));`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-check", code],
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout).trim();
  ok(out.success, new TextDecoder().decode(out.stderr));
  return JSON.parse(text.slice(text.lastIndexOf("\n") + 1)) as GitResult;
}

Deno.test("runGit() runs remote git with hooks off, file and ext transports refused and no inherited git config", async () => {
  const dir = await Deno.makeTempDir({ dir: "/var/tmp", prefix: "hermes-git-remote-env-" });
  const fake = join(dir, "fake-git");
  await Deno.writeTextFile(fake, `#!/bin/sh\nprintf '%s\\n' "$@"\necho ---\nenv\n`);
  await Deno.chmod(fake, 0o755);
  // What a server started from a git hook or a shell with git settings might carry.
  const inherited = {
    GIT_DIR: "/tmp/elsewhere.git",
    GIT_CONFIG_PARAMETERS: "'core.hookspath'='/tmp/hooks'",
    GIT_CONFIG_COUNT: "1",
    GIT_CONFIG_KEY_0: "core.hooksPath",
    GIT_CONFIG_VALUE_0: "/tmp/hooks",
    GIT_EXEC_PATH: "/tmp/exec",
  };
  try {
    // The server's environment carries them: runGit runs in a process of its own that has them.
    // Never Deno.env.set here: `deno test --parallel` runs test files on threads of one process,
    // so a GIT_DIR set here reached every git the other files ran meanwhile.
    const r = await runGitWithEnv(inherited, ["push", "--", "origin"], {
      cwd: dir,
      workspace: dir,
      git: fake,
      credentials: { home: dir },
    });
    strictEqual(r.ok, true, r.stderr);
    const [argText, envText] = r.stdout.split("---\n");
    const args = argText.trim().split("\n");
    const config = new Map<string, string>();
    args.forEach((a, i) => {
      if (args[i - 1] === "-c") config.set(a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1));
    });
    strictEqual(config.get("core.hooksPath"), "/dev/null");
    strictEqual(config.get("protocol.file.allow"), "never");
    strictEqual(config.get("protocol.ext.allow"), "never");
    strictEqual(config.get("protocol.allow"), "never", "unknown transports are refused");
    const env = new Map(
      envText.trim().split("\n").map((
        l,
      ) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
    );
    strictEqual(env.get("GIT_CONFIG_NOSYSTEM"), "1");
    strictEqual(env.get("GIT_CONFIG_GLOBAL"), "/dev/null");
    for (const [k, v] of Object.entries(inherited)) {
      ok(env.get(k) !== v, `${k} is not inherited`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("git remote: the user's own credential helper in ~/.gitconfig still answers an https remote", async () => {
  const seen: Array<string | null> = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(req.headers.get("authorization"));
    return new Response("auth required", {
      status: 401,
      headers: { "www-authenticate": 'Basic realm="git"' },
    });
  });
  try {
    await withAttack(async ({ ws, root, op }) => {
      const port = (server.addr as Deno.NetAddr).port;
      await git(ws, "remote", "add", "origin", `http://127.0.0.1:${port}/repo.git`);
      await Deno.writeTextFile(
        join(root, ".gitconfig"),
        `[credential]\n\thelper = "!f() { echo username=me; echo password=pw; }; f"\n` +
          `[core]\n\thooksPath = ${root}/user-hooks\n`,
      );
      const r = await op("fetch");
      strictEqual(r.status, 409, JSON.stringify(r.body));
      // The helper's answer reached the server (it refused it: the credentials are wrong).
      ok(seen.includes(`Basic ${btoa("me:pw")}`), JSON.stringify(seen));
    });
  } finally {
    await server.shutdown();
  }
});

Deno.test("runGit() for a remote refuses the file transport itself, should a local URL slip past the checks", async () => {
  await withAttack(async ({ app, ws, root, evilBare, marksLeft }) => {
    // As if .git/config were rewritten between git_remote.ts's checks and git's run.
    const bare = join(root, "evil.git");
    await evilBare(bare);
    for (const url of [bare, `file://${bare}`]) {
      const r = await runGit(["push", "--", url, "HEAD:refs/heads/main"], {
        cwd: ws,
        workspace: ws,
        timeoutMs: 20_000,
        credentials: { home: root },
        path: app.ctx.config.env.PATH,
      });
      strictEqual(r.ok, false, url);
      match(r.stderr, /transport 'file' not allowed/, url);
    }
    deepStrictEqual(await marksLeft(), [], "no hook of the remote ran");
    strictEqual((await git(bare, "for-each-ref")).trim(), "");
  });
});
