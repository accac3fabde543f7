// What "Allow for this session" / "Always allow" cover: with scope `command` only this exact
// command in this session's workspace (config.yaml `command_allowlist_commands`), with scope
// `pattern` (the original's default) the whole category; an auto-approved command's tool result
// names the rule that allowed it.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp, type TestApp } from "./helpers.ts";
import { toolContext, until } from "./fixtures/tool_context.ts";
import { pendingApprovals, requestApproval } from "../lib/approvals/approvals.ts";
import { buildToolset, runToolCall } from "../lib/tools/registry.ts";
import { createSession } from "../lib/sessions/sessions.ts";

const RM = {
  command: "rm -rf build",
  description: "Recursive delete (rm -r)",
  patternKey: "rm_recursive",
  patternKeys: ["rm_recursive"],
};

type Ctx = Awaited<ReturnType<typeof toolContext>>;
const ask = (app: TestApp, ctx: Ctx, req = RM) =>
  requestApproval(app.ctx, { sessionId: ctx.sessionId, emit: ctx.emit, ...req });

/** Wait until the session has `n` pending approvals (a request stores itself asynchronously). */
const pendingCount = (app: TestApp, sessionId: string, n: number, what = `${n} pending`) =>
  until(async () => (await pendingApprovals(app.ctx.db, sessionId)).pending_count === n, what);

async function withApp(fn: (app: TestApp, ctx: Ctx) => Promise<void>) {
  const app = await createTestApp({ configYaml: "# mine\nmodel: {}\n" });
  try {
    await fn(app, await toolContext(app));
  } finally {
    await app.close();
  }
}

Deno.test("POST /api/approval/respond always+scope command allows only that command in that workspace", async () => {
  await withApp(async (app, ctx) => {
    const first = ask(app, ctx);
    await pendingCount(app, ctx.sessionId, 1);
    const res = await app.call("POST", "/api/approval/respond", {
      session_id: ctx.sessionId,
      choice: "always",
      scope: "command",
    });
    strictEqual(res.status, 200);
    strictEqual((res.body as { scope: string }).scope, "command");
    strictEqual((await first).approved, true);
    const text = await Deno.readTextFile(app.ctx.config.configPath);
    ok(text.startsWith("# mine\n"), text);
    match(
      text,
      /command_allowlist_commands:\n(\s*#.*\n)?\s*- workspace: .+\n\s+command: rm -rf build\n/,
    );
    ok(!/command_allowlist:/.test(text), "the category is not allowlisted");
    ok(!app.ctx.tools.approvals.allowlist.has("rm_recursive"));

    // The same command in another session of the same workspace: allowed, naming the rule.
    const other = await toolContext(app);
    deepStrictEqual(await ask(app, other), {
      approved: true,
      via: "allowlist",
      rule: 'exact command "rm -rf build"',
    });
    // Another recursive delete still asks.
    const wider = ask(app, other, { ...RM, command: "rm -rf src" });
    await pendingCount(app, other.sessionId, 1, "asks");
    await app.call("POST", "/api/approval/respond", {
      session_id: other.sessionId,
      choice: "deny",
    });
    strictEqual((await wider).approved, false);
    // The same text in another workspace still asks.
    const elsewhere = await Deno.makeTempDir();
    try {
      const s = await createSession(app.ctx.db, app.ctx.clock, { workspace: elsewhere });
      const p = requestApproval(app.ctx, { sessionId: s.session_id, ...RM });
      await pendingCount(app, s.session_id, 1);
      await app.call("POST", "/api/approval/respond", { session_id: s.session_id, choice: "deny" });
      strictEqual((await p).approved, false);
    } finally {
      await Deno.remove(elsewhere, { recursive: true });
    }
  });
});

Deno.test("POST /api/approval/respond session+scope command grants the exact command for the session only", async () => {
  await withApp(async (app, ctx) => {
    const first = ask(app, ctx);
    await pendingCount(app, ctx.sessionId, 1);
    await app.call("POST", "/api/approval/respond", {
      session_id: ctx.sessionId,
      choice: "session",
      scope: "command",
    });
    strictEqual((await first).approved, true);
    deepStrictEqual(await ask(app, ctx), {
      approved: true,
      via: "session",
      rule: 'exact command "rm -rf build"',
    });
    const wider = ask(app, ctx, { ...RM, command: "rm -rf /tmp/x" });
    await pendingCount(app, ctx.sessionId, 1);
    await app.call("POST", "/api/approval/respond", { session_id: ctx.sessionId, choice: "deny" });
    strictEqual((await wider).approved, false);
    ok(!(await Deno.readTextFile(app.ctx.config.configPath)).includes("command_allowlist"));
  });
});

Deno.test("POST /api/approval/respond rejects an unknown scope with 400", async () => {
  await withApp(async (app, ctx) => {
    const p = ask(app, ctx);
    await pendingCount(app, ctx.sessionId, 1);
    const res = await app.call("POST", "/api/approval/respond", {
      session_id: ctx.sessionId,
      choice: "always",
      scope: "everything",
    });
    strictEqual(res.status, 400);
    strictEqual((await pendingApprovals(app.ctx.db, ctx.sessionId)).pending_count, 1);
    await app.call("POST", "/api/approval/respond", { session_id: ctx.sessionId, choice: "deny" });
    strictEqual((await p).approved, false);
  });
});

Deno.test("terminal names the rule that allowed a command without asking", async () => {
  await withApp(async (app, ctx) => {
    await Deno.mkdir(join(app.workspace, "build"));
    const tools = await buildToolset(app.ctx, {
      session_id: ctx.sessionId,
      workspace: ctx.workspace,
    });
    const first = runToolCall(tools, "terminal", { command: "rm -rf build" }, ctx);
    await pendingCount(app, ctx.sessionId, 1, "pending");
    await app.call("POST", "/api/approval/respond", {
      session_id: ctx.sessionId,
      choice: "session",
    });
    const r1 = await first;
    ok(!r1.output.includes("allowed by rule"), r1.output);
    await Deno.mkdir(join(app.workspace, "build"));
    const r2 = await runToolCall(tools, "terminal", { command: "rm -rf build" }, ctx);
    match(r2.output, /^\[allowed by rule `rm_recursive`\]\n/);
  });
});
