// Host-side git against a hostile repository (issue 12, finding 1): a repo the agent wrote may
// name programs in its config (filters, fsmonitor, hooks, pager, external diff, ssh, includes);
// opening the panel (GET /api/git-info) must run none of them, with or without bubblewrap, and
// git never sees the server's environment.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp } from "./helpers.ts";
import { createSession } from "../lib/sessions/sessions.ts";
import { gitEnv, runGit } from "../lib/workspace/git_command.ts";
import { sandboxStatus } from "../lib/sandbox/command_runner.ts";
import { git } from "./git_fixture.ts";
import { needs } from "./fixtures/skip.ts";

const bwrap = await sandboxStatus();

/**
 * Turn `ws` into a repo whose config runs `touch <marks>/<name>` from every hook git offers,
 * and make a plain `git status` reach the clean filter (a tracked file with a new mtime).
 */
async function hostileRepo(ws: string, marks: string): Promise<void> {
  const touch = (name: string) => `sh -c 'touch ${marks}/${name}; env > ${marks}/${name}.env'`;
  await git(ws, "init", "-q");
  await Deno.writeTextFile(join(ws, "a.txt"), "hello\n");
  await Deno.writeTextFile(join(ws, "notes.md"), "# notes\n");
  await Deno.writeTextFile(
    join(ws, ".gitattributes"),
    "* filter=evil diff=evil\n*.md filter=inc\n",
  );
  await git(ws, "add", ".");
  await git(ws, "commit", "-q", "-m", "one");
  const hooks = join(ws, "evil-hooks");
  await Deno.mkdir(hooks);
  for (const hook of ["post-index-change", "pre-commit", "post-checkout", "fsmonitor-watchman"]) {
    await Deno.writeTextFile(join(hooks, hook), `#!/bin/sh\n${touch(`hook-${hook}`)}\n`);
    await Deno.chmod(join(hooks, hook), 0o755);
  }
  await Deno.writeTextFile(
    join(ws, "included.cfg"),
    `[filter "inc"]\n\tclean = ${touch("include-clean")}\n\tprocess = ${
      touch("include-process")
    }\n`,
  );
  const config: Array<[string, string]> = [
    ["filter.evil.clean", touch("filter-clean")],
    ["filter.evil.smudge", touch("filter-smudge")],
    ["filter.evil.process", touch("filter-process")],
    ["filter.evil.required", "true"],
    ["diff.evil.textconv", touch("textconv")],
    ["diff.evil.command", touch("diff-command")],
    ["diff.external", touch("diff-external")],
    ["core.fsmonitor", touch("fsmonitor")],
    ["core.hooksPath", hooks],
    ["core.pager", touch("pager")],
    ["core.sshCommand", touch("ssh")],
    ["core.gitProxy", touch("gitproxy")],
    ["core.editor", touch("editor")],
    ["include.path", join(ws, "included.cfg")],
    [`includeIf.gitdir:${ws}/.git.path`, join(ws, "included.cfg")],
  ];
  for (const [k, v] of config) await git(ws, "config", k, v);
  // Same size, new mtime: git must read the content through the clean filter to compare.
  const old = new Date(Date.now() - 3600_000);
  await Deno.utime(join(ws, "a.txt"), old, old);
  await Deno.utime(join(ws, "notes.md"), old, old);
  await Deno.writeTextFile(join(ws, "untracked.txt"), "new\n");
}

async function marksLeft(dirs: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const d of dirs) for await (const e of Deno.readDir(d)) found.push(`${d}/${e.name}`);
  return found;
}

for (const sandboxed of [true, false]) {
  Deno.test(needs(sandboxed && !bwrap.bubblewrap && `no bubblewrap sandbox: ${bwrap.message}`, {
    name: `GET /api/git-info runs nothing a hostile repo config names (${
      sandboxed ? "in the sandbox" : "on the host, no bubblewrap"
    })`,
    async fn() {
      const app = await createTestApp({ tools: sandboxed ? {} : { bwrapPath: null } });
      // Outside /tmp (private in the sandbox) and outside the workspace: what the host sees.
      const hostMarks = await Deno.makeTempDir({ dir: "/var/tmp", prefix: "hermes-git-marks-" });
      const ws = await Deno.realPath(app.workspace);
      const wsMarks = join(ws, "marks");
      await Deno.mkdir(wsMarks);
      try {
        // Plain git on this repo runs the hostile programs: the attack is real.
        const probe = join(await Deno.makeTempDir({ dir: "/var/tmp" }), "repo");
        await Deno.mkdir(probe);
        await hostileRepo(probe, hostMarks);
        await new Deno.Command("git", {
          args: ["status"],
          cwd: probe,
          stdout: "null",
          stderr: "null",
        })
          .output();
        ok((await marksLeft([hostMarks])).length > 0, "plain git status runs the repo's programs");
        await Deno.remove(join(probe, ".."), { recursive: true });
        for (const m of await marksLeft([hostMarks])) await Deno.remove(m);

        await hostileRepo(ws, hostMarks);
        // Markers inside the workspace too (writable for the terminal, never for git).
        await git(ws, "config", "filter.evil.smudge", `touch ${wsMarks}/filter-smudge`);
        await git(ws, "config", "core.fsmonitor", `touch ${wsMarks}/fsmonitor`);
        const sid = (await createSession(app.ctx.db, app.ctx.clock, { workspace: ws })).session_id;
        const res = await app.call<{ git: Record<string, unknown> }>(
          "GET",
          `/api/git-info?session_id=${sid}`,
        );
        strictEqual(res.status, 200);
        deepStrictEqual(await marksLeft([hostMarks, wsMarks]), [], "no hostile program ran");
        strictEqual(res.body.git.is_git, true);
        strictEqual(res.body.git.branch, "main");
        const files = (res.body.git.files as Array<{ path: string; status: string }>)
          .map((f) => `${f.status} ${f.path}`);
        ok(files.includes("?? untracked.txt"), JSON.stringify(files));
        ok(!(await Deno.stat(join(ws, ".git", "index.lock")).catch(() => null)));
      } finally {
        await app.close();
        await Deno.remove(hostMarks, { recursive: true });
      }
    },
  }));
}

Deno.test("runGit() gives git only its minimal environment, never the server's", async () => {
  const dir = await Deno.makeTempDir({ dir: "/var/tmp", prefix: "hermes-git-env-" });
  const fake = join(dir, "fake-git");
  await Deno.writeTextFile(fake, "#!/bin/sh\nenv\n");
  await Deno.chmod(fake, 0o755);
  Deno.env.set("HERMES_TEST_SERVER_SECRET", "sk-server-secret");
  const app = await createTestApp();
  try {
    for (const sandbox of [null, ...(bwrap.bubblewrap ? [app.ctx.tools.commands] : [])]) {
      const r = await runGit(["status"], { cwd: dir, workspace: dir, git: fake, sandbox });
      strictEqual(r.ok, true, r.stderr);
      strictEqual(r.sandboxed, sandbox !== null);
      ok(!r.stdout.includes("sk-server-secret"));
      const keys = r.stdout.trim().split("\n").map((l) => l.split("=")[0])
        .filter((k) => !["PWD", "SHLVL", "_", "OLDPWD"].includes(k)).sort();
      deepStrictEqual(keys, Object.keys(gitEnv()).sort());
      // The host's config files never apply: no system, no global config.
      ok(r.stdout.includes("GIT_CONFIG_NOSYSTEM=1"));
      ok(r.stdout.includes("GIT_CONFIG_GLOBAL=/dev/null"));
    }
  } finally {
    Deno.env.delete("HERMES_TEST_SERVER_SECRET");
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runGit() stops git at its timeout and caps its output", async () => {
  const dir = await Deno.makeTempDir({ dir: "/var/tmp", prefix: "hermes-git-cap-" });
  const fake = join(dir, "fake-git");
  await Deno.writeTextFile(fake, "#!/bin/sh\nhead -c 100000 /dev/zero\nexec sleep 30\n");
  await Deno.chmod(fake, 0o755);
  try {
    const capped = await runGit(["status"], {
      cwd: dir,
      workspace: dir,
      git: fake,
      maxBytes: 1000,
    });
    strictEqual(capped.truncated, true);
    strictEqual(capped.ok, false);
    strictEqual(capped.stdout.length, 1000);
    const slow = await runGit(["status"], { cwd: dir, workspace: dir, git: fake, timeoutMs: 300 });
    strictEqual(slow.timedOut, true);
    strictEqual(slow.ok, false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
