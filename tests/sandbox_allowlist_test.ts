// Issue 27: the terminal sandbox shows the agent only what the mount plan allows
// (lib/sandbox/mount_plan.ts). Each attack of the hostile-model review is driven through the real
// engine with every command approved: host Unix sockets (one made here under /run, so the test
// never depends on the host's daemons), the owner's mode-600 files in their home, another
// session's workspace, the state dir and the console's own files. And the tools the agent needs
// still run against the workspace.
import { match, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { startHarness } from "./fixtures/engine_harness.ts";
import { shellTurn } from "./fixtures/shell_turn.ts";
import { sandboxStatus } from "../lib/sandbox/command_runner.ts";
import { sandboxReadPaths } from "../lib/sandbox/mount_plan.ts";
import { needs } from "./fixtures/skip.ts";
import { randomHex } from "../lib/ids.ts";

const status = await sandboxStatus();
const sandboxMissing = status.bubblewrap ? null : `no bubblewrap sandbox: ${status.message}`;

/** A Unix socket listener on the host that counts the connections it accepted. */
function hostSocket(path: string) {
  const listener = Deno.listen({ transport: "unix", path });
  let accepted = 0;
  const loop = (async () => {
    for await (const conn of listener) {
      accepted++;
      conn.close();
    }
  })().catch(() => {});
  return {
    accepted: () => accepted,
    async close() {
      listener.close();
      await loop;
    },
  };
}

Deno.test(needs(sandboxMissing, {
  name: "allowlist: host Unix sockets under /run and /var/run do not exist inside the sandbox",
  async fn() {
    // A stand-in for /run/postgresql or /run/mysqld, made here so the test always runs.
    const dir = `/run/hermes-test-${randomHex(6)}`;
    let made = true;
    try {
      await Deno.mkdir(dir);
    } catch {
      made = false;
    }
    const socketDir = made ? dir : await Deno.makeTempDir({ prefix: "hermes-sock-" });
    const path = join(socketDir, "db.sock");
    const listener = hostSocket(path);
    const h = await startHarness({ tools: {} });
    try {
      const connect = (p: string) =>
        `python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('${p}'); ` +
        `print('CONNECTED')" 2>&1 | tail -1`;
      const [own, listing, pg] = await shellTurn(h, [
        connect(path),
        "ls -A /run /var/run; echo END",
        "ls /run/postgresql /var/run/postgresql /run/mysqld 2>&1 | wc -l; " +
        "psql -h /run/postgresql -U postgres -c 'select 1' 2>&1 | head -1",
      ]);
      ok(!own.includes("CONNECTED"), own);
      match(own, /No such file or directory|FileNotFoundError/);
      strictEqual(listener.accepted(), 0, "nothing reached the host's socket");
      match(listing, /\/run:\n\n\/var\/run:\nEND/, `/run is empty inside: ${listing}`);
      ok(!/\(1 row\)|^\s*1\s*$/m.test(pg), `no database answered: ${pg}`);
      // The same connect from the host reaches it: the listener was real.
      const host = await new Deno.Command("python3", {
        args: ["-c", `import socket; s=socket.socket(socket.AF_UNIX); s.connect('${path}')`],
      }).output();
      ok(host.success, "the host itself can connect");
    } finally {
      await h.close();
      await listener.close();
      await Deno.remove(socketDir, { recursive: true }).catch(() => {});
    }
  },
}));

Deno.test(needs(sandboxMissing, {
  name: "allowlist: the owner's mode-600 files, home and other workspaces are not there",
  async fn() {
    const home = Deno.env.get("HOME");
    ok(home, "the owner has a HOME");
    const canary = join(home!, `.hermes-canary-${randomHex(6)}`);
    await Deno.writeTextFile(canary, "owner-secret-canary\n", { mode: 0o600 });
    const h = await startHarness({ tools: {} });
    try {
      // Another session's workspace, beside this one, with a private file in it.
      const other = join(h.root, "other-workspace");
      await Deno.mkdir(other);
      await Deno.writeTextFile(join(other, "private.txt"), "other-session-secret\n", {
        mode: 0o600,
      });
      const [owner, homeList, sibling, parent, state, install] = await shellTurn(h, [
        `cat ${canary} 2>&1; echo END`,
        `ls -A ${home} 2>&1 | head -3; echo HOME=$HOME; ls -A ~ | wc -l`,
        `cat ${join(other, "private.txt")} 2>&1; echo END`,
        `ls -A ${h.root}`,
        `ls ${h.stateDir} 2>&1; echo END`,
        `ls ${join(Deno.cwd(), "main.ts")} 2>&1; echo END`,
      ]);
      ok(!owner.includes("owner-secret-canary"), owner);
      match(owner, /No such file or directory/);
      match(homeList, /No such file or directory/);
      match(homeList, /HOME=\/tmp\/home\n0/, "the sandbox has a home of its own, empty");
      ok(!sibling.includes("other-session-secret"), sibling);
      match(sibling, /No such file or directory/);
      // Only this session's workspace exists under the shared parent.
      match(parent, /^workspace\n/m);
      ok(!parent.includes("other-workspace") && !parent.includes("config.yaml"), parent);
      match(state, /No such file or directory/);
      match(install, /No such file or directory/);
      // The curated /etc: the sandbox's own passwd, no shadow.
      const [etc] = await shellTurn(h, [
        "cat /etc/passwd; ls /etc/shadow /etc/ssh /etc/ssl/private 2>&1 | wc -l; id -un",
      ]);
      match(etc, /^nobody:x:65534:65534:/m);
      ok(!/^[a-z_][a-z0-9_-]*:x:[1-9]\d{0,3}:/m.test(etc.replace(/^nobody.*$/m, "")), etc);
      match(etc, /^3$/m, "shadow, ssh and ssl/private are absent");
    } finally {
      await h.close();
      await Deno.remove(canary).catch(() => {});
    }
  },
}));

Deno.test(needs(sandboxMissing, {
  name: "allowlist: git, node, python3, deno, npx and pip still run against the workspace",
  async fn() {
    const h = await startHarness({ tools: {} });
    try {
      const [git, node, python, deno, npx, pip] = await shellTurn(h, [
        "git init -q . && git -c user.email=a@b -c user.name=a commit -q --allow-empty -m one " +
        "&& git log --oneline | wc -l",
        "node -e \"require('fs').writeFileSync('n.txt', String(6*7))\" && cat n.txt",
        "python3 -c \"open('p.txt','w').write(str(6*7))\" && cat p.txt",
        "deno eval \"Deno.writeTextFileSync('d.txt', String(6*7))\" && cat d.txt",
        "npx --version",
        "pip --version",
      ]);
      match(git, /^1$/m);
      match(node, /^42/m);
      match(python, /^42/m);
      match(deno, /^42/m);
      match(npx, /^\d+\.\d+\.\d+/m);
      match(pip, /^pip \d+/m);
      for (const f of ["n.txt", "p.txt", "d.txt"]) {
        strictEqual(await Deno.readTextFile(join(h.workspace, f)), "42");
      }
    } finally {
      await h.close();
    }
  },
}));

Deno.test("allowlist: sandbox.read_paths takes absolute paths and refuses ones undoing the plan", () => {
  const { paths, refused } = sandboxReadPaths({
    sandbox: { read_paths: ["/opt/tools/", "relative/bin", "/", "/run", "/etc", "/opt/tools"] },
  });
  strictEqual(paths.join(","), "/opt/tools");
  strictEqual(refused.length, 4);
  match(refused.join("\n"), /relative\/bin: not an absolute path/);
  strictEqual(sandboxReadPaths({}).paths.length, 0);
});

Deno.test(needs(sandboxMissing, {
  name: "allowlist: a path named in sandbox.read_paths is there, read-only",
  async fn() {
    const tools = await Deno.makeTempDir({ prefix: "hermes-tools-" });
    await Deno.writeTextFile(join(tools, "tool.sh"), "echo from-the-owners-toolchain\n");
    const h = await startHarness({
      tools: {},
      yaml: `sandbox:\n  read_paths: [${JSON.stringify(tools)}]\n`,
    });
    try {
      const [ran, write] = await shellTurn(h, [
        `bash ${join(tools, "tool.sh")}`,
        `touch ${join(tools, "new")} 2>&1; echo END`,
      ]);
      match(ran, /from-the-owners-toolchain/);
      match(write, /Read-only file system/);
      const system = await h.call("GET", "/api/system/health");
      ok(system.status === 200 || system.status === 503);
    } finally {
      await h.close();
      await Deno.remove(tools, { recursive: true });
    }
  },
}));
