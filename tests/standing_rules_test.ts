// Standing approvals (what "Always allow" leaves behind) are visible and revocable: GET
// /api/approval/rules lists each with what it allows and when it was made, POST
// /api/approval/rules/remove ends one at once — the very next identical command asks again, in
// the session that made it too — and config.yaml keeps the original's keys.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp, type TestApp } from "./helpers.ts";
import { toolContext, until } from "./fixtures/tool_context.ts";
import { pendingApprovals } from "../lib/approvals/approvals.ts";
import type { StandingRule } from "../lib/approvals/standing_rules.ts";
import { buildToolset, runToolCall } from "../lib/tools/registry.ts";

type Ctx = Awaited<ReturnType<typeof toolContext>>;

async function withApp(
  fn: (app: TestApp, ctx: Ctx) => Promise<void>,
  configYaml = "# mine\nmodel: {}\n",
) {
  const app = await createTestApp({ configYaml });
  try {
    await fn(app, await toolContext(app));
  } finally {
    await app.close();
  }
}

async function rules(app: TestApp): Promise<StandingRule[]> {
  const res = await app.call<{ rules: StandingRule[] }>("GET", "/api/approval/rules");
  strictEqual(res.status, 200, JSON.stringify(res.body));
  return res.body.rules;
}

/** Run `rm -rf build` through the terminal tool; answer with `answer` if it asks. */
async function rmBuild(
  app: TestApp,
  ctx: Ctx,
  answer?: Record<string, unknown>,
): Promise<{ asked: boolean; output: string }> {
  await Deno.mkdir(join(app.workspace, "build"), { recursive: true });
  const tools = await buildToolset(app.ctx, {
    session_id: ctx.sessionId,
    workspace: ctx.workspace,
  });
  const before = ctx.events.filter((e) => e.event === "approval").length;
  const run = runToolCall(tools, "terminal", { command: "rm -rf build" }, ctx);
  let asked = false;
  if (answer) {
    let settled = false;
    run.then(() => (settled = true), () => (settled = true));
    const pending = async () =>
      (await pendingApprovals(app.ctx.db, ctx.sessionId)).pending_count === 1;
    await until(async () => settled || await pending(), "a question or the result");
    if (await pending()) {
      asked = true;
      const res = await app.call("POST", "/api/approval/respond", {
        session_id: ctx.sessionId,
        ...answer,
      });
      strictEqual(res.status, 200, JSON.stringify(res.body));
    }
  }
  const { output } = await run;
  asked ||= ctx.events.filter((e) => e.event === "approval").length > before;
  return { asked, output };
}

Deno.test("GET /api/approval/rules lists a rule made by answering an approval with always", async () => {
  await withApp(async (app, ctx) => {
    deepStrictEqual(await rules(app), []);
    const before = Math.floor(app.ctx.clock());
    const first = await rmBuild(app, ctx, { choice: "always", scope: "pattern" });
    ok(first.asked, "the first recursive delete asks");
    const after = Math.ceil(app.ctx.clock());
    const listed = await rules(app);
    strictEqual(listed.length, 1);
    const [rule] = listed;
    strictEqual(rule.kind, "category");
    strictEqual(rule.id, "category:rm_recursive");
    ok(rule.kind === "category");
    strictEqual(rule.pattern_key, "rm_recursive");
    strictEqual(rule.description, "Recursive delete (rm -r)");
    ok(rule.created_at !== null && rule.created_at >= before && rule.created_at <= after);

    // config.yaml keeps the original's plain list; the time sits beside it.
    const text = await Deno.readTextFile(app.ctx.config.configPath);
    ok(text.startsWith("# mine\n"), text);
    match(text, /command_allowlist:\n(\s*#.*\n)?\s*- rm_recursive\n/);
    match(text, /command_allowlist_added_at:\n(\s*#.*\n)?\s*rm_recursive: "?\d{4}-\d\d-\d\dT/);

    // An exact command made "always" is listed too, with its text and workspace.
    await app.call("POST", "/api/approval/rules/remove", { id: rule.id });
    const exact = await rmBuild(app, ctx, { choice: "always", scope: "command" });
    ok(exact.asked);
    const [command] = await rules(app);
    ok(command.kind === "command", JSON.stringify(command));
    strictEqual(command.command, "rm -rf build");
    strictEqual(command.workspace, ctx.workspace);
    ok(command.created_at !== null && command.created_at >= before);
    match(
      await Deno.readTextFile(app.ctx.config.configPath),
      /- workspace: .+\n\s+command: rm -rf build\n\s+added_at: "?\d{4}-/,
    );
  });
});

Deno.test("POST /api/approval/rules/remove ends a category rule: the next identical command asks again", async () => {
  await withApp(async (app, ctx) => {
    await rmBuild(app, ctx, { choice: "always", scope: "pattern" });
    const unasked = await rmBuild(app, ctx);
    ok(!unasked.asked, "the rule allows it");
    match(unasked.output, /^\[allowed by rule `rm_recursive`\]\n/);

    const res = await app.call<{ ok: boolean; removed: StandingRule }>(
      "POST",
      "/api/approval/rules/remove",
      { id: "category:rm_recursive" },
    );
    strictEqual(res.status, 200, JSON.stringify(res.body));
    strictEqual(res.body.removed.id, "category:rm_recursive");
    deepStrictEqual(await rules(app), [], "the list no longer has it");
    const text = await Deno.readTextFile(app.ctx.config.configPath);
    ok(!text.includes("- rm_recursive"), text);
    ok(!text.includes("rm_recursive:"), "its time is gone too");
    ok(text.startsWith("# mine\n"), "the rest of the file is kept");

    // The same session (which "always" also granted) and a new one both ask again.
    const again = await rmBuild(app, ctx, { choice: "deny" });
    ok(again.asked, "the same session asks again");
    const other = await toolContext(app);
    ok((await rmBuild(app, other, { choice: "deny" })).asked, "another session asks");
  });
});

Deno.test("POST /api/approval/rules/remove ends an exact-command rule at once", async () => {
  await withApp(async (app, ctx) => {
    await rmBuild(app, ctx, { choice: "always", scope: "command" });
    ok(!(await rmBuild(app, ctx)).asked, "the rule allows it");
    const [rule] = await rules(app);
    const res = await app.call("POST", "/api/approval/rules/remove", { id: rule.id });
    strictEqual(res.status, 200, JSON.stringify(res.body));
    deepStrictEqual(await rules(app), []);
    ok(!(await Deno.readTextFile(app.ctx.config.configPath)).includes("command: rm -rf build"));
    ok((await rmBuild(app, ctx, { choice: "deny" })).asked, "the next identical command asks");
  });
});

Deno.test("POST /api/approval/rules/remove answers 404 for an unknown id and 400 for a malformed body", async () => {
  await withApp(async (app) => {
    const unknown = await app.call<{ error: string }>("POST", "/api/approval/rules/remove", {
      id: "category:no_such_rule",
    });
    strictEqual(unknown.status, 404);
    match(unknown.body.error, /no_such_rule/);
    for (const body of [{}, { id: "" }, { id: 7 }, "not json", [1, 2]]) {
      const res = await app.call<{ error: string }>("POST", "/api/approval/rules/remove", body);
      strictEqual(res.status, 400, `${JSON.stringify(body)} → ${res.status}`);
      ok(typeof res.body.error === "string" && res.body.error.length > 0);
    }
  });
});

Deno.test("rules written into config.yaml by hand are listed without a time and removable", async () => {
  const configYaml = "# mine\nmodel: {}\n# by hand\ncommand_allowlist:\n  - git_force_push\n" +
    "  - mcp:files:delete\ncommand_allowlist_commands:\n  - workspace: /srv/app\n" +
    "    command: make deploy\n";
  await withApp(async (app) => {
    const listed = await rules(app);
    deepStrictEqual(listed.map((r) => [r.id.split(":")[0], r.created_at]), [
      ["category", null],
      ["category", null],
      ["command", null],
    ]);
    const mcp = listed.find((r) => r.kind === "category" && r.pattern_key === "mcp:files:delete")!;
    strictEqual(mcp.id, "category:mcp:files:delete");
    const res = await app.call("POST", "/api/approval/rules/remove", { id: mcp.id });
    strictEqual(res.status, 200);
    ok(!app.ctx.tools.approvals.allowlist.has("mcp:files:delete"));
    ok(app.ctx.tools.approvals.allowlist.has("git_force_push"), "the other rules stay");
    const text = await Deno.readTextFile(app.ctx.config.configPath);
    ok(text.includes("# by hand\ncommand_allowlist:\n  - git_force_push\n"), text);
    ok(!text.includes("mcp:files:delete"), text);
  }, configYaml);
});

Deno.test("a rule still honoured after config.yaml lost it by hand stays listed and removable", async () => {
  await withApp(async (app, ctx) => {
    await rmBuild(app, ctx, { choice: "always", scope: "pattern" });
    await Deno.writeTextFile(app.ctx.config.configPath, "model: {}\n");
    const [rule] = await rules(app);
    strictEqual(rule?.id, "category:rm_recursive", "still allowed, so still shown");
    // The database (every replica's copy) still knows when it was made.
    ok(rule.created_at !== null && rule.created_at > 0, JSON.stringify(rule));
    const res = await app.call("POST", "/api/approval/rules/remove", { id: rule.id });
    strictEqual(res.status, 200);
    deepStrictEqual(await rules(app), []);
    ok((await rmBuild(app, ctx, { choice: "deny" })).asked);
  });
});

Deno.test("a config.yaml broken by hand still lists the rules in effect; a removal says why it cannot", async () => {
  await withApp(async (app, ctx) => {
    await rmBuild(app, ctx, { choice: "always", scope: "pattern" });
    await Deno.writeTextFile(app.ctx.config.configPath, "model: [unclosed\n");
    const [rule] = await rules(app);
    strictEqual(rule?.id, "category:rm_recursive");
    const res = await app.call<{ error: string }>("POST", "/api/approval/rules/remove", {
      id: rule.id,
    });
    strictEqual(res.status, 400);
    match(res.body.error, /malformed/);
    ok(app.ctx.tools.approvals.allowlist.has("rm_recursive"), "nothing half-removed");
    strictEqual(
      (await app.call("GET", "/partials/control-center?section=rules")).status,
      200,
      "the Control Center still opens",
    );
  });
});

Deno.test("standing rules are shared by replicas of one database: made on one, enforced, listed and removed on every one", async () => {
  const a = await createTestApp({ configYaml: "# replica a\nmodel: {}\n" });
  // A second process on the same database (its own config.yaml, as on another machine).
  const b = await createTestApp({
    configYaml: "# replica b\nmodel: {}\n",
    env: { HERMES_WEBUI_STATE_DIR: a.stateDir },
  });
  try {
    const onA = await toolContext(a);
    ok((await rmBuild(a, onA, { choice: "always", scope: "pattern" })).asked);
    const laterOnA = await toolContext(a);
    deepStrictEqual((await rules(b)).map((r) => r.id), ["category:rm_recursive"], "B lists it");
    ok((await rules(b))[0].created_at !== null, "with when it was made");

    // B enforces it: its own recursive delete runs unasked, with the rule named.
    const onB = await toolContext(b);
    const ran = await rmBuild(b, onB);
    ok(!ran.asked, "the rule made on A allows it on B");
    match(ran.output, /^\[allowed by rule `rm_recursive`\]\n/);

    // Removed on B: A (whose own config.yaml still names it) asks again at once.
    const res = await b.call("POST", "/api/approval/rules/remove", { id: "category:rm_recursive" });
    strictEqual(res.status, 200, JSON.stringify(res.body));
    deepStrictEqual(await rules(a), [], "A no longer lists it");
    ok((await rmBuild(a, laterOnA, { choice: "deny" })).asked, "A asks again");

    // An exact command made "always" on B is listed on A too, with its workspace.
    ok((await rmBuild(b, onB, { choice: "always", scope: "command" })).asked);
    const listed = await rules(a);
    ok(
      listed.some((r) =>
        r.kind === "command" && r.command === "rm -rf build" && r.workspace === onB.workspace
      ),
      JSON.stringify(listed),
    );
  } finally {
    await b.close();
    await a.close();
  }
});
