// The command policy closes classes of ways to delete or overwrite the workspace without asking,
// judged against a real workspace on disk: each attack the security review found (one step, or
// the agent writes a file and then runs it) asks, with a stable pattern key; the everyday
// commands around them (ls, git status, npm test on an unchanged package.json, python3 on an
// unchanged script, deno test, sed -n, mv inside the workspace) still run without a question.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { dirname, join } from "node:path";
import * as policy from "../lib/approvals/command_policy.ts";
import type { Classification } from "../lib/approvals/command_policy.ts";
import { git } from "./git_fixture.ts";

interface Ws {
  dir: string;
  /** Files whose status changed at or after this (ms) count as changed by the agent. */
  changedSince: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function put(root: string, files: Record<string, string>): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    await Deno.mkdir(dirname(join(root, rel)), { recursive: true });
    await Deno.writeTextFile(join(root, rel), text);
  }
}

/**
 * A workspace with the person's files (`src/app.ts` plus `before`), then the baseline (the last
 * approval), then the agent's files (`after`): those have a later status-change time.
 */
async function workspace(
  before: Record<string, string> = {},
  after: Record<string, string> = {},
  setup?: (dir: string) => Promise<void>,
): Promise<Ws> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "hermes-policy-" }));
  await put(dir, { "src/app.ts": "export const app = 1;\n", ...before });
  if (setup) await setup(dir);
  // Deno reports status-change times in whole seconds: the baseline is the next second after
  // the person's files, and the agent's files are written once the clock has passed it.
  const probe = join(dir, ".probe");
  await Deno.writeTextFile(probe, "");
  const changedSince = (await Deno.stat(probe)).ctime!.getTime() + 1000;
  await Deno.remove(probe);
  while (Date.now() < changedSince + 20) await sleep(changedSince + 20 - Date.now());
  await put(dir, after);
  for (const rel of Object.keys(after)) {
    const ctime = (await Deno.stat(join(dir, rel))).ctime!.getTime();
    ok(ctime >= changedSince, `${rel} is stamped after the baseline`);
  }
  return { dir, changedSince };
}

type Judge = (command: string, opts: Record<string, unknown>) => Promise<Classification>;
const inWorkspace = (policy as Record<string, unknown>).classifyCommandInWorkspace as
  | Judge
  | undefined;

/** Judge `command` the way the terminal tool does, in `ws` (cwd relative to its root). */
function judge(ws: Ws, command: string, cwd = "."): Promise<Classification> {
  const opts = {
    configPath: "/home/alice/.hermes/config.yaml",
    home: "/home/alice",
    workspace: ws.dir,
    cwd,
    changedSince: ws.changedSince,
  };
  return inWorkspace
    ? inWorkspace(command, opts)
    : Promise.resolve(policy.classifyCommand(command, opts));
}

async function asks(ws: Ws, command: string, key: string, cwd = "."): Promise<void> {
  const got = await judge(ws, command, cwd);
  const keys = got.matches.map((m) => m.pattern_key);
  deepStrictEqual(
    { tier: got.tier, has: keys.includes(key) },
    { tier: "dangerous", has: true },
    `${JSON.stringify(command)} should ask (${key}); got ${got.tier} [${keys.join(", ")}]`,
  );
  for (const m of got.matches) {
    ok(!m.description.includes("_"), `plain words, not a key: ${m.description}`);
  }
}

async function runsFree(ws: Ws, command: string, cwd = "."): Promise<void> {
  const got = await judge(ws, command, cwd);
  deepStrictEqual(
    got.matches.map((m) => m.pattern_key),
    [],
    `${JSON.stringify(command)} should run without asking`,
  );
  strictEqual(got.tier, "safe");
}

function test(name: string, fn: () => Promise<void>) {
  Deno.test(name, fn);
}

const EVIL_SH = "rm -rf src\n";
const EVIL_PY = "import shutil\nshutil.rmtree('src')\n";

// --- one step

test("classifyCommandInWorkspace() asks for BASH_ENV=./e.sh bash -c true", async () => {
  const ws = await workspace({}, { "e.sh": EVIL_SH });
  await asks(ws, "BASH_ENV=./e.sh bash -c true", "code_env_var");
});

test("classifyCommandInWorkspace() asks for make after the agent wrote a Makefile", async () => {
  const ws = await workspace({}, { Makefile: "all:\n\trm -rf src\n" });
  await asks(ws, "make", "run_changed_build_file");
});

test("classifyCommandInWorkspace() asks for tar --remove-files", async () => {
  const ws = await workspace();
  await asks(ws, "tar --remove-files -cf /tmp/src.tar src", "archive_remove_files");
});

test("classifyCommandInWorkspace() asks for mv src /tmp/gone (out of the workspace)", async () => {
  const ws = await workspace();
  await asks(ws, "mv src /tmp/gone", "move_out_of_workspace");
});

test("classifyCommandInWorkspace() asks for sed -i d on an existing file", async () => {
  const ws = await workspace();
  await asks(ws, "sed -i d src/app.ts", "overwrite_in_place");
});

test("classifyCommandInWorkspace() asks for truncate -s 0 on an existing file", async () => {
  const ws = await workspace();
  await asks(ws, "truncate -s 0 src/app.ts", "overwrite_in_place");
});

// --- two steps: the agent writes a file, then runs it

test("classifyCommandInWorkspace() asks for bash x.sh after the agent wrote x.sh", async () => {
  const ws = await workspace({}, { "x.sh": EVIL_SH });
  await asks(ws, "bash x.sh", "run_changed_script");
});

test("classifyCommandInWorkspace() asks for python3 p.py after the agent wrote p.py", async () => {
  const ws = await workspace({}, { "p.py": EVIL_PY });
  await asks(ws, "python3 p.py", "run_changed_script");
});

test("classifyCommandInWorkspace() asks for python3 anything.py next to a planted json.py", async () => {
  const ws = await workspace({ "anything.py": "import json\n" }, { "json.py": EVIL_PY });
  await asks(ws, "python3 anything.py", "python_shadowed_module");
});

test("classifyCommandInWorkspace() asks for python3 -c 'import json' next to a planted json.py", async () => {
  const ws = await workspace({}, { "json.py": EVIL_PY });
  await asks(ws, "python3 -c 'import json'", "python_shadowed_module");
});

test("classifyCommandInWorkspace() asks for git commit after the agent planted a pre-commit hook", async () => {
  const ws = await workspace({}, {}, (dir) => git(dir, "init", "-q").then(() => {}));
  await put(ws.dir, { ".git/hooks/pre-commit": `#!/bin/sh\n${EVIL_SH}` });
  await asks(ws, "git commit -qm x", "git_hooks");
});

test("classifyCommandInWorkspace() asks for HOME=$PWD bash -ic after the agent wrote .bashrc", async () => {
  const ws = await workspace({}, { ".bashrc": EVIL_SH });
  await asks(ws, "HOME=$PWD bash -ic true", "code_env_var");
  await asks(ws, "HOME=$PWD bash -ic true", "interactive_shell");
});

test("classifyCommandInWorkspace() asks for npm test after the agent changed package.json", async () => {
  const ws = await workspace({}, {
    "package.json": JSON.stringify({ scripts: { test: "rm -rf src" } }),
  });
  await asks(ws, "npm test", "run_changed_build_file");
});

test("classifyCommandInWorkspace() asks for shred -u on a file", async () => {
  const ws = await workspace();
  await asks(ws, "shred -u src/app.ts", "shred_file");
});

test("classifyCommandInWorkspace() asks for dd of= an existing file", async () => {
  const ws = await workspace();
  await asks(ws, "dd if=/dev/null of=src/app.ts", "overwrite_in_place");
});

test("classifyCommandInWorkspace() asks for git stash -u", async () => {
  const ws = await workspace();
  await asks(ws, "git stash -u", "git_stash_untracked");
});

// --- the classes behind them

test("classifyCommandInWorkspace() asks before any runner of a changed or missing script", async () => {
  const ws = await workspace({ "bin/ok": "#!/bin/sh\n" }, {
    "x.sh": EVIL_SH,
    "x.py": EVIL_PY,
    "x.js": "require('fs').rmSync('src', {recursive: true})\n",
    "x.ts": "Deno.removeSync('src', {recursive: true})\n",
    "x.rb": "require 'fileutils'\nFileUtils.rm_rf('src')\n",
    "x.pl": "system('rm -rf src')\n",
    "x.php": "<?php system('rm -rf src');\n",
    "bin/tool": `#!/bin/sh\n${EVIL_SH}`,
    "x.awk": 'BEGIN { system("rm -rf src") }\n',
    "x.sed": "1e rm -rf src\n",
  });
  for (
    const command of [
      "sh x.sh",
      "dash x.sh",
      "bash -e x.sh",
      "source x.sh",
      ". ./x.sh",
      "./x.sh",
      "bin/tool",
      `${ws.dir}/x.sh`,
      "timeout 5 ./x.sh",
      "python3 -u x.py",
      "python x.py",
      "node x.js",
      "deno run -A x.ts",
      "bun x.ts",
      "ruby x.rb",
      "perl x.pl",
      "php x.php",
      "awk -f x.awk /dev/null",
      "sed -f x.sed src/app.ts",
      "find . -name '*.ts' -exec ./x.sh {} \\;",
      "ls | xargs ./x.sh",
      "cd bin && ./tool",
      // created and run in one line: it does not exist yet when the line is judged
      "echo 'rm -rf src' > y.sh; bash y.sh",
      "bash not-there-yet.sh",
      "bash /tmp/x.sh",
    ]
  ) await asks(ws, command, "run_changed_script");
  await asks(ws, "./tool", "run_changed_script", "bin");
});

test("classifyCommandInWorkspace() asks before build and package tools whose recipe changed", async () => {
  const ws = await workspace({ "sub/keep": "" }, {
    "sub/Makefile": "all:\n\trm -rf ../src\n",
    "build.mk": "all:\n\trm -rf src\n",
    "package.json": JSON.stringify({ scripts: { test: "rm -rf src", build: "rm -rf src" } }),
    "deno.json": JSON.stringify({ tasks: { go: "rm -rf src" } }),
  });
  for (
    const command of [
      "make -C sub",
      "cd sub && make",
      "make -f build.mk",
      "gmake -f build.mk all",
      "npm run build",
      "npm start",
      "npm install",
      "npm ci",
      "yarn",
      "yarn test",
      "pnpm test",
      "pnpm run build",
      "bun run build",
      "bun install",
      "deno task go",
      "printf 'all:\\n\\trm -rf src\\n' > Makefile; make",
    ]
  ) await asks(ws, command, "run_changed_build_file");
});

test("classifyCommandInWorkspace() asks for npm test when the project .npmrc changed", async () => {
  const ws = await workspace({ "package.json": '{"scripts":{"test":"true"}}' }, {
    ".npmrc": "script-shell=./e.sh\n",
  });
  await asks(ws, "npm test", "run_changed_build_file");
});

test("classifyCommandInWorkspace() asks for hook-running git commands when a hook or hooksPath exists", async () => {
  const ws = await workspace({}, {}, async (dir) => {
    await git(dir, "init", "-q");
    await put(dir, { ".git/hooks/pre-push": "#!/bin/sh\ntrue\n" });
  });
  for (
    const command of [
      "git commit -m x",
      "git -C . commit --no-verify -m x",
      "git merge main",
      "git rebase main",
      "git am < p.mbox",
      "git push origin main",
      "git pull",
      "git cherry-pick abc",
    ]
  ) await asks(ws, command, "git_hooks");
  const hooksPath = await workspace({}, {}, async (dir) => {
    await git(dir, "init", "-q");
    await git(dir, "config", "core.hooksPath", ".husky");
  });
  await asks(hooksPath, "git commit -m x", "git_hooks");
});

test("classifyCommandInWorkspace() asks for any git command once a hook changed since the approval", async () => {
  const ws = await workspace({}, {}, (dir) => git(dir, "init", "-q").then(() => {}));
  await put(ws.dir, { ".git/hooks/post-index-change": `#!/bin/sh\n${EVIL_SH}` });
  await asks(ws, "git status", "git_hooks_changed");
  await asks(ws, "git add -A", "git_hooks_changed");
});

test("classifyCommandInWorkspace() asks for interactive shells, which read start-up files", async () => {
  const ws = await workspace({}, { rc: EVIL_SH });
  for (
    const command of [
      "bash -i -c true",
      "bash -ic true",
      "sh -i",
      "zsh -i -c true",
      "bash --rcfile rc -i",
      "bash --init-file rc",
    ]
  ) await asks(ws, command, "interactive_shell");
});

test("classifyCommandInWorkspace() asks when an assignment points a program at other code", async () => {
  const ws = await workspace({ "x.py": "print(1)\n", "x.js": "1\n", "x.pl": "1\n" });
  for (
    const command of [
      "ENV=./e.sh sh -c true",
      "PYTHONPATH=. python3 x.py",
      "PYTHONSTARTUP=e.py python3",
      "PYTHONHOME=. python3 x.py",
      "export NODE_OPTIONS='--require ./e.js'; node x.js",
      "NODE_PATH=. node x.js",
      "declare -x LD_PRELOAD=./e.so; ls",
      "LD_LIBRARY_PATH=. ls",
      "LD_AUDIT=./e.so ls",
      "env PERL5OPT=-Me perl x.pl",
      "PERL5LIB=. perl x.pl",
      "RUBYOPT=-r./e ruby -e 1",
      "RUBYLIB=. ruby -e 1",
      "GIT_SSH_COMMAND='rm -rf src' git fetch",
      "GIT_EXEC_PATH=. git status",
      "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='rm -rf src' git status",
      "GIT_EDITOR='rm -rf src' git commit",
      "GIT_DIR=evil git commit -m x",
      "PROMPT_COMMAND='rm -rf src' bash -c true",
      "SHELLOPTS=xtrace PS4='$(rm -rf src)' bash -c true",
      "BASHOPTS=x bash -c true",
      "GCONV_PATH=. iconv -l",
      "HOME=. bash -l -c true",
      "MAKEFLAGS=--eval=x make",
      "npm_config_script_shell=./e.sh npm test",
      "BASH_ENV+=./e.sh bash -c true",
      "export BASH_ENV=./e.sh",
      "typeset -x ENV=./e.sh",
      "read BASH_ENV < f; export BASH_ENV; bash -c true",
      "declare -n r=BASH_ENV; r=./e.sh",
      "env 'BASH_FUNC_ls%%=() { rm -rf src; }' bash -c ls",
      "PATH=.:$PATH ls",
      "export PATH=$PWD/bin:$PATH",
      "PAGER='rm -rf src' man ls",
      "LESSOPEN='|rm -rf src %s' less README.md",
    ]
  ) await asks(ws, command, "code_env_var");
});

test("classifyCommandInWorkspace() asks for destructive options and tools that delete or overwrite", async () => {
  const ws = await workspace({ "notes.txt": "keep\n" }, {}, async (dir) => {
    await Deno.mkdir(join(dir, "out"));
    await Deno.symlink("/tmp", join(dir, "out/tmp"));
  });
  const cases: Array<[string, string]> = [
    ["tar -c --remove-files -f a.tar src", "archive_remove_files"],
    ["tar cf a.tar --remove src", "archive_remove_files"],
    ["zip -rm a.zip src", "archive_remove_files"],
    ["shred src/app.ts", "shred_file"],
    ["mv src ../gone", "move_out_of_workspace"],
    ["mv src a/../../gone", "move_out_of_workspace"],
    ["mv -t /tmp src", "move_out_of_workspace"],
    ["mv src ~/gone", "move_out_of_workspace"],
    ["mv src out/tmp/", "move_out_of_workspace"],
    ['cd "$(mktemp -d)" && mv ~-/src .', "move_out_of_workspace"],
    ["perl -i -pe 's/a/b/' notes.txt", "overwrite_in_place"],
    ["sed --in-place=.bak 's/a/b/' notes.txt", "overwrite_in_place"],
    ["gawk -i inplace '{print \"\"}' notes.txt", "overwrite_in_place"],
    ["truncate --size=0 notes.txt", "overwrite_in_place"],
    ["dd if=/dev/zero of=notes.txt conv=notrunc count=1", "overwrite_in_place"],
    ["git stash push --include-untracked", "git_stash_untracked"],
    ["git stash -a", "git_stash_untracked"],
    ["git stash save --all", "git_stash_untracked"],
    ["rsync -a --delete-after empty/ src/", "rsync_delete"],
    ["find src -delete", "find_delete"],
    ["git rm -r src", "rm_recursive"],
  ];
  for (const [command, key] of cases) await asks(ws, command, key);
});

test("classifyCommandInWorkspace() asks for python in any form next to a changed stdlib shadow", async () => {
  const ws = await workspace({ "tool/run.py": "import os\n", "app.py": "print(1)\n" }, {
    "tool/os.py": EVIL_PY,
    "logging/__init__.py": EVIL_PY,
  });
  for (
    const command of [
      "python3 tool/run.py",
      "cd tool && python3 run.py",
      "python3 -m logging",
      "python3 -c 'print(1)'",
      "python3 app.py",
      "echo 'print(1)' | python3",
    ]
  ) await asks(ws, command, "python_shadowed_module");
});

// --- what stays free of questions

test("classifyCommandInWorkspace() lets everyday commands run without asking", async () => {
  const ws = await workspace(
    {
      "package.json": JSON.stringify({ scripts: { test: "node test.js" } }),
      "script.py": "print('hi')\n",
      "scripts/build.sh": "echo build\n",
      "Makefile": "all:\n\techo ok\n",
      "configure": "#!/bin/sh\necho ok\n",
      "a.txt": "a\n",
      "sub/Makefile": "all:\n\techo ok\n",
      "json_tools.py": "x = 1\n",
    },
    { "notes/new.md": "# agent notes\n" },
    async (dir) => {
      await git(dir, "init", "-q");
      await git(dir, "add", "-A");
      await git(dir, "commit", "-qm", "init");
    },
  );
  for (
    const command of [
      "ls -la",
      "cat src/app.ts",
      "git status",
      "git diff",
      "git log --oneline -5",
      "git commit -qm 'agent notes'",
      "git stash",
      "git stash list",
      "npm test",
      "npm run test",
      "python3 script.py",
      "python3 -u script.py --delete-from cache",
      "python3 -c 'import json; print(json.dumps(1))'",
      "PYTHONUNBUFFERED=1 python3 script.py",
      "bash scripts/build.sh",
      "./configure && make",
      "make",
      "make -C sub",
      "cd sub && make",
      "deno test -A",
      "grep -rn app src",
      "sed -n '1,5p' src/app.ts",
      "mv a.txt b.txt",
      "mv notes/new.md notes/old.md",
      "cp src/app.ts /tmp/app.ts",
      "truncate -s 0 new.log",
      "dd if=/dev/zero of=blank.bin count=1",
      "GIT_PAGER=cat git log",
      "export PATH=/usr/local/go/bin:$PATH",
      "cat notes/new.md",
    ]
  ) await runsFree(ws, command);
  await runsFree(ws, "make", "sub");
});
