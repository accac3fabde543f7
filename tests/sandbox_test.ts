// The sandboxes: file tools in a Worker limited to the workspace (symlinks and `..` cannot leave
// it, and the worker itself has no net/run/env), and terminal under bubblewrap (no writes
// outside the workspace, no network unless allowed, config and state hidden).
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { dirname, join } from "node:path";
import { createTestApp } from "./helpers.ts";
import { toolContext } from "./fixtures/tool_context.ts";
import { buildToolset, runToolCall } from "../lib/tools/registry.ts";
import { sandboxStatus } from "../lib/sandbox/command_runner.ts";
import type { ToolContext } from "../lib/tools/types.ts";
import { needs } from "./fixtures/skip.ts";

async function setup(opts: Parameters<typeof createTestApp>[0] = {}) {
  const app = await createTestApp(opts);
  const ctx = await toolContext(app);
  const tools = await buildToolset(app.ctx, {
    session_id: ctx.sessionId,
    workspace: ctx.workspace,
  });
  const call = (name: string, args: unknown, c: ToolContext = ctx) =>
    runToolCall(tools, name, args, c);
  // A directory next to the workspace, holding a file the tools must never reach.
  const outside = join(dirname(app.workspace), "outside");
  await Deno.mkdir(outside, { recursive: true });
  await Deno.writeTextFile(join(outside, "secret.txt"), "TOP SECRET");
  return { app, ctx, call, outside };
}

const exists = (p: string) => Deno.lstat(p).then(() => true, () => false);

Deno.test("file tools cannot follow a symlink out of the workspace", async () => {
  const { app, call, outside } = await setup();
  try {
    await Deno.symlink("/etc/passwd", join(app.workspace, "passwd"));
    await Deno.symlink(join(outside, "secret.txt"), join(app.workspace, "secret"));
    await Deno.symlink(outside, join(app.workspace, "outdir"));

    for (const path of ["passwd", "secret", "outdir/secret.txt"]) {
      const read = await call("read_file", { path });
      strictEqual(read.isError, true, `read ${path}`);
      ok(!read.output.includes("root:") && !read.output.includes("TOP SECRET"));
    }
    const w1 = await call("write_file", { path: "secret", content: "pwned" });
    strictEqual(w1.isError, true);
    match(w1.output, /outside the workspace/);
    const w2 = await call("write_file", { path: "outdir/new.txt", content: "pwned" });
    strictEqual(w2.isError, true);
    const p = await call("patch", { path: "secret", old_string: "TOP", new_string: "NOT" });
    strictEqual(p.isError, true);
    strictEqual(await Deno.readTextFile(join(outside, "secret.txt")), "TOP SECRET");
    strictEqual(await exists(join(outside, "new.txt")), false);

    const list = await call("list_directory", { path: "outdir" });
    strictEqual(list.isError, true);
    const top = await call("list_directory", {});
    match(top.output, /secret -> \(link\)/); // shown as a link, never described
    const search = await call("search_files", { pattern: "SECRET|root:" });
    match(search.output, /^No matches/);
  } finally {
    await app.close();
  }
});

Deno.test("file tools refuse ../ and absolute paths", async () => {
  const { app, call, outside } = await setup();
  try {
    const rel = "../outside/secret.txt";
    for (
      const [name, args] of [
        ["read_file", { path: rel }],
        ["read_file", { path: join(outside, "secret.txt") }],
        ["write_file", { path: "../outside/x.txt", content: "x" }],
        ["write_file", { path: "a/../../outside/x.txt", content: "x" }],
        ["patch", { path: rel, old_string: "TOP", new_string: "NOT" }],
        ["list_directory", { path: ".." }],
        ["search_files", { pattern: "SECRET", path: "../outside" }],
      ] as const
    ) {
      const r = await call(name, args);
      strictEqual(r.isError, true, `${name} ${JSON.stringify(args)}`);
      ok(!r.output.includes("TOP SECRET"));
    }
    strictEqual(await exists(join(outside, "x.txt")), false);
    strictEqual(await Deno.readTextFile(join(outside, "secret.txt")), "TOP SECRET");
  } finally {
    await app.close();
  }
});

Deno.test("the file-tool worker has no net, run, env or sys permission and no access outside", async () => {
  const { app, ctx } = await setup();
  try {
    const probe = await app.ctx.tools.files.run(ctx.workspace, "probe", {});
    deepStrictEqual(JSON.parse(probe.output), {
      net: "NotCapable",
      run: "NotCapable",
      env: "NotCapable",
      sys: "NotCapable",
      read_outside: "NotCapable",
      write_outside: "NotCapable",
    });
  } finally {
    await app.close();
  }
});

Deno.test("the file sandbox keeps one worker per workspace and ends them on close", async () => {
  const { app, call } = await setup();
  await call("list_directory", {});
  await call("read_file", { path: "." });
  strictEqual(app.ctx.tools.files.size(), 1);
  const other = await Deno.makeTempDir();
  try {
    await app.ctx.tools.files.run(await Deno.realPath(other), "list", {});
    strictEqual(app.ctx.tools.files.size(), 2);
  } finally {
    await app.close();
    await Deno.remove(other, { recursive: true });
  }
  strictEqual(app.ctx.tools.files.size(), 0);
});

Deno.test("a runaway file operation is stopped and its worker replaced", async () => {
  const { app, ctx } = await setup({ tools: { fileCallTimeoutMs: 2000 } });
  try {
    await Deno.writeTextFile(join(ctx.workspace, "evil.txt"), "a".repeat(40) + "!");
    // Catastrophic backtracking: the worker spins until the pool terminates it.
    const r = await app.ctx.tools.files.run(ctx.workspace, "search", { pattern: "^(a+)+$" });
    strictEqual(r.isError, true);
    match(r.output, /^The search operation did not finish within 2 s and was stopped/);
    const after = await app.ctx.tools.files.run(ctx.workspace, "list", {});
    match(after.output, /evil\.txt/);
  } finally {
    await app.close();
  }
});

const bwrap = await sandboxStatus();
const sandboxMissing = bwrap.bubblewrap ? null : `no bubblewrap sandbox: ${bwrap.message}`;

Deno.test(needs(sandboxMissing, {
  name: "terminal under bubblewrap cannot write outside the workspace",
  async fn() {
    const { app, call } = await setup();
    // Outside /tmp (which the sandbox replaces): a host directory the mount plan never mounts.
    const outside = await Deno.makeTempDir({ dir: "/var/tmp", prefix: "hermes-outside-" });
    try {
      const r = await call("terminal", {
        command: `echo x > ${outside}/escape.txt; echo y > /tmp/hermes-escape-$$.txt; ` +
          `ls /tmp/hermes-escape-*.txt; echo ok > inside.txt`,
      });
      match(r.output, new RegExp(`${outside}/escape.txt: No such file or directory`));
      strictEqual(await exists(join(outside, "escape.txt")), false);
      // /tmp is private to the sandbox: the file existed inside, never on the host.
      match(r.output, /\/tmp\/hermes-escape-\d+\.txt/);
      const hostTmp = [...Deno.readDirSync("/tmp")].filter((e) =>
        e.name.startsWith("hermes-escape-")
      );
      deepStrictEqual(hostTmp, []);
      strictEqual(await Deno.readTextFile(join(app.workspace, "inside.txt")), "ok\n");
    } finally {
      await app.close();
      await Deno.remove(outside, { recursive: true });
    }
  },
}));

Deno.test(needs(sandboxMissing, {
  name: "terminal under bubblewrap has no network unless the session allows it",
  async fn() {
    const { app, ctx, call } = await setup();
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (listener.addr as Deno.NetAddr).port;
    const accepting = (async () => {
      for await (const conn of listener) conn.close();
    })();
    try {
      const cmd =
        `(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && echo CONNECTED || echo REFUSED`;
      const off = await call("terminal", { command: cmd });
      strictEqual(off.output, "REFUSED\n[exit code 0]");
      const meta = await call("terminal", {
        command: "(exec 3<>/dev/tcp/1.1.1.1/80) 2>/dev/null && echo CONNECTED || echo REFUSED",
        timeout: 5,
      });
      strictEqual(meta.output, "REFUSED\n[exit code 0]");
      // With the network on, the sandbox gets its own network (slirp4netns) whose loopback is
      // not the host's: this loopback server stays out of reach (the outbound path is tested
      // in tests/sandbox_escape_test.ts).
      const on = await call("terminal", { command: cmd }, { ...ctx, allowNetwork: true });
      match(on.output, /REFUSED\n\[exit code 0\]$/);
    } finally {
      listener.close();
      await accepting.catch(() => {});
      await app.close();
    }
  },
}));

Deno.test(needs(sandboxMissing, {
  name: "terminal under bubblewrap cannot read the console's config file or state directory",
  async fn() {
    const { app, call } = await setup({
      configYaml: "providers:\n  openai:\n    api_key: sk-very-secret\n",
    });
    try {
      const cfg = app.ctx.config.configPath;
      ok((await Deno.readTextFile(cfg)).includes("sk-very-secret"));
      const r = await call("terminal", {
        command: `cat ${cfg}; ls -A ${app.stateDir} 2>/dev/null | wc -l`,
      });
      ok(!r.output.includes("sk-very-secret"), r.output);
      // Outside the workspace neither is mounted at all (lib/sandbox/mount_plan.ts); the masks
      // for a workspace that holds them are tested in tests/sandbox_escape_test.ts.
      match(r.output, /^cat: .*: No such file or directory\n0\n\[exit code 0\]$/);
    } finally {
      await app.close();
    }
  },
}));

Deno.test("sandboxStatus() reports an unsandboxed terminal when bubblewrap is missing", async () => {
  const status = await sandboxStatus("/nonexistent/bwrap");
  strictEqual(status.bubblewrap, false);
  match(status.message, /without a sandbox .*approvals are the only gate/);
  const { app, call } = await setup({ tools: { bwrapPath: null } });
  try {
    const r = await call("terminal", { command: "echo unsandboxed" });
    strictEqual(r.output, "unsandboxed\n[exit code 0]");
    strictEqual((await app.ctx.tools.commands.status()).bubblewrap, false);
  } finally {
    await app.close();
  }
});

Deno.test("tools work when the session's workspace path goes through a symlink", async () => {
  const { app, ctx, call } = await setup();
  const link = join(dirname(app.workspace), "ws-link");
  await Deno.symlink(app.workspace, link);
  try {
    const c = { ...ctx, workspace: link };
    const w = await call("write_file", { path: "via-link.txt", content: "hello" }, c);
    match(w.output, /^Created via-link\.txt/);
    const r = await call("read_file", { path: "via-link.txt" }, c);
    strictEqual(r.output, "1|hello");
    const t = await call("terminal", { command: "cat via-link.txt" }, c);
    strictEqual(t.output, "hello\n[exit code 0]");
  } finally {
    await app.close();
  }
});

const hasPython = await new Deno.Command("python3", { args: ["-c", "1"] }).output().then(
  (o) => o.success,
  () => false,
);

Deno.test(needs(sandboxMissing ?? (hasPython ? null : "python3 is not installed"), {
  name: "terminal under bubblewrap cannot connect to masked host sockets",
  async fn() {
    // A folder the owner added to the mount plan (sandbox.read_paths): its sockets are there,
    // but a protected one inside it stays masked. (Outside such a path no host socket exists in
    // the sandbox at all: tests/sandbox_allowlist_test.ts.)
    const dir = await Deno.makeTempDir({ dir: "/var/tmp", prefix: "hermes-sock-" });
    const masked = join(dir, "control.sock");
    const open = join(dir, "open.sock");
    const listeners = [masked, open].map((path) => Deno.listen({ transport: "unix", path }));
    const accepting = listeners.map(async (l) => {
      for await (const conn of l) conn.close();
    });
    const { app, ctx, call } = await setup({
      tools: { hiddenPaths: [masked] },
      configYaml: `sandbox:\n  read_paths: [${JSON.stringify(dir)}]\n`,
    });
    const connect = (p: string) =>
      `python3 -c "import socket; c = socket.socket(socket.AF_UNIX); c.connect('${p}'); ` +
      `print('CONNECTED')" 2>/dev/null || echo REFUSED`;
    // Inline python that opens sockets needs approval (the command policy); the user says once.
    const approved: ToolContext = {
      ...ctx,
      requestApproval: () => Promise.resolve({ approved: true, choice: "once", via: "user" }),
    };
    try {
      strictEqual(
        (await call("terminal", { command: connect(open) }, approved)).output,
        "CONNECTED\n[exit code 0]",
      );
      strictEqual(
        (await call("terminal", { command: connect(masked) }, approved)).output,
        "REFUSED\n[exit code 0]",
      );
    } finally {
      await app.close();
      listeners.forEach((l) => l.close());
      await Promise.allSettled(accepting);
      await Deno.remove(dir, { recursive: true });
    }
  },
}));
