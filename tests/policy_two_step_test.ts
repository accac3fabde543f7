// Two-step attacks end to end: the model writes a file with write_file and then runs it with
// `terminal`; the real engine asks before the run (the script changed since the session's last
// approval), a denial keeps `src`, and "once" really deletes it. write_file and patch into a
// repository's .git (hooks, config) ask too, whatever spelling reaches it.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { startHarness } from "./fixtures/engine_harness.ts";
import { answerApprovals } from "./fixtures/answer_approvals.ts";
import { createTestApp } from "./helpers.ts";
import { toolContext } from "./fixtures/tool_context.ts";
import { buildToolset, runToolCall } from "../lib/tools/registry.ts";
import { git } from "./git_fixture.ts";

const exists = (p: string) => Deno.lstat(p).then(() => true, () => false);

Deno.test("terminal asks before running a script the agent just wrote; deny keeps src, once runs it", async () => {
  const h = await startHarness();
  try {
    const src = join(h.workspace, "src");
    await Deno.mkdir(src);
    await Deno.writeTextFile(join(src, "app.ts"), "export {};\n");
    h.fake.enqueue(
      {
        toolCalls: [{
          id: "call_w",
          name: "write_file",
          args: { path: "x.sh", content: "rm -rf src\n" },
        }],
      },
      { toolCalls: [{ id: "call_deny", name: "terminal", args: { command: "bash x.sh" } }] },
      { toolCalls: [{ id: "call_once", name: "terminal", args: { command: "bash x.sh" } }] },
      { text: "done" },
    );
    const { stream_id } = await h.start("tidy up");
    const { asked, res } = await answerApprovals(h, stream_id, src, (n) => n < 1 ? "deny" : "once");
    deepStrictEqual(asked, [
      { command: "bash x.sh", keys: ["run_changed_script"], srcThere: true },
      { command: "bash x.sh", keys: ["run_changed_script"], srcThere: true },
    ]);
    const completes = res.events.filter((e) => e.event === "tool_complete").map((e) => e.data);
    deepStrictEqual(completes.map((c) => [c.tool_call_id, c.status]), [
      ["call_w", "completed"],
      ["call_deny", "denied"],
      ["call_once", "completed"],
    ]);
    strictEqual(await exists(src), false);
  } finally {
    await h.close();
  }
});

Deno.test("write_file and patch ask before writing git hooks or .git/config, however spelled", async () => {
  const app = await createTestApp();
  try {
    const ctx = await toolContext(app);
    await git(ctx.workspace, "init", "-q");
    await git(join(ctx.workspace), "init", "-q", "sub");
    await Deno.symlink(".git/hooks", join(ctx.workspace, "h"));
    const tools = await buildToolset(app.ctx, {
      session_id: ctx.sessionId,
      workspace: ctx.workspace,
    });
    const asked: Array<{ command: string; patternKey: string }> = [];
    const deny = {
      ...ctx,
      requestApproval: (req: { command: string; patternKey: string }) => {
        asked.push({ command: req.command, patternKey: req.patternKey });
        return Promise.resolve({ approved: false });
      },
    };
    const paths = [
      ".git/hooks/pre-commit",
      "./.git/hooks/pre-commit",
      ".git//hooks/pre-commit",
      ".git/config",
      ".GIT/hooks/pre-commit",
      "sub/.git/hooks/post-checkout",
      ".git/modules/m/hooks/pre-commit",
      "h/pre-commit",
    ];
    for (const path of paths) {
      const out = await runToolCall(tools, "write_file", { path, content: "rm -rf src\n" }, deny);
      strictEqual(out.denied, true, `${path} was refused`);
    }
    deepStrictEqual(asked.map((a) => a.patternKey), paths.map(() => "write_git_hooks"));
    ok(asked.every((a) => a.command.startsWith("write_file ")));
    strictEqual(await exists(join(ctx.workspace, ".git/hooks/pre-commit")), false);
    const config = await Deno.readTextFile(join(ctx.workspace, ".git/config"));
    const patched = await runToolCall(tools, "patch", {
      path: ".git/config",
      old_string: "[core]",
      new_string: "[core]\n\thooksPath = evil",
    }, deny);
    strictEqual(patched.denied, true);
    strictEqual(await Deno.readTextFile(join(ctx.workspace, ".git/config")), config);
    // Ordinary files, including ones that merely look like git's, are written without asking.
    asked.length = 0;
    for (const path of ["src/git/hooks.ts", ".github/workflows/ci.yml", ".gitignore"]) {
      const out = await runToolCall(tools, "write_file", { path, content: "x\n" }, deny);
      strictEqual(out.isError ?? false, false, `${path}: ${out.output}`);
    }
    deepStrictEqual(asked, []);
  } finally {
    await app.close();
  }
});
