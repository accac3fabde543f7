// Approvals of dangerous commands end to end: the per-session FIFO and its routes, each choice,
// session and permanent grants, deny messages reaching the tool result, the timeout, the skip
// switch (which never lifts the hardline tier), stale answers, restarts and the SSE stream;
// plus clarify's respond route.
import { deepStrictEqual, match, ok, rejects, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp, type TestApp } from "../helpers.ts";
import { toolContext, until } from "../fixtures/tool_context.ts";
import {
  type ApprovalApp,
  type ApprovalDecision,
  pendingApprovals,
  requestApproval,
  resolveApproval,
} from "../../lib/approvals/approvals.ts";
import { askClarify } from "../../lib/approvals/clarify.ts";
import { ConflictError, ValidationError } from "../../lib/errors.ts";
import { ManualTimers } from "../../lib/timers.ts";
import { buildToolset, runToolCall } from "../../lib/tools/registry.ts";
import { buildApp } from "../../main.ts";
import { loadConfig } from "../../lib/settings/config.ts";
import { createLogger } from "../../lib/log.ts";
import { createSession } from "../../lib/sessions/sessions.ts";
import { type Db, sql, type SqlQuery } from "../../lib/storage/db.ts";

const RM = {
  command: "rm -rf build",
  description: "Recursive delete (rm -r)",
  patternKey: "rm_recursive",
  patternKeys: ["rm_recursive"],
};

async function withApp(
  fn: (app: TestApp, ctx: Awaited<ReturnType<typeof toolContext>>) => Promise<void>,
  opts: Parameters<typeof createTestApp>[0] = {},
) {
  const app = await createTestApp(opts);
  try {
    await fn(app, await toolContext(app));
  } finally {
    await app.close();
  }
}

const ask = (app: TestApp, ctx: Awaited<ReturnType<typeof toolContext>>, req = RM) =>
  requestApproval(app.ctx, {
    sessionId: ctx.sessionId,
    streamId: ctx.streamId,
    emit: ctx.emit,
    signal: ctx.signal,
    ...req,
  });

const count = async (app: TestApp, query: SqlQuery) =>
  Number((await app.ctx.db.get<{ n: number | string }>(query))?.n ?? 0);

/** Wait until the session has `n` pending approvals (a request stores itself asynchronously). */
const pendingCount = (app: TestApp, sessionId: string, n: number, what = `${n} pending`) =>
  until(async () => (await pendingApprovals(app.ctx.db, sessionId)).pending_count === n, what);

Deno.test("requestApproval() queues a FIFO and answers go to the head first", async () => {
  await withApp(async (app, ctx) => {
    const first = ask(app, ctx);
    const second = ask(app, ctx, {
      ...RM,
      command: "git push --force",
      patternKey: "git_force_push",
      patternKeys: ["git_force_push"],
    });
    await until(() => ctx.events.filter((e) => e.event === "approval").length === 2, "asked");
    const pending = await app.call("GET", `/api/approval/pending?session_id=${ctx.sessionId}`);
    strictEqual(pending.status, 200);
    const body = pending.body as {
      pending: { command: string; approval_id: string };
      pending_count: number;
    };
    strictEqual(body.pending.command, "rm -rf build");
    strictEqual(body.pending_count, 2);
    const approvalEvents = ctx.events.filter((e) => e.event === "approval");
    deepStrictEqual(
      approvalEvents.map((e) => (e.data as { pending_count: number }).pending_count),
      [1, 2],
    );
    deepStrictEqual(approvalEvents[0].data, {
      approval_id: body.pending.approval_id,
      command: "rm -rf build",
      description: "Recursive delete (rm -r)",
      pattern_key: "rm_recursive",
      pattern_keys: ["rm_recursive"],
      pending_count: 1,
    });

    const r1 = await app.call("POST", "/api/approval/respond", {
      session_id: ctx.sessionId,
      choice: "once",
    });
    strictEqual(r1.status, 200);
    strictEqual((r1.body as { ok: boolean; choice: string }).choice, "once");
    deepStrictEqual(await first, {
      approved: true,
      choice: "once",
      message: undefined,
      via: "user",
    });
    const head = await pendingApprovals(app.ctx.db, ctx.sessionId);
    strictEqual(head.pending?.command, "git push --force");
    strictEqual(head.pending_count, 1);
    deepStrictEqual(ctx.events.at(-1), {
      event: "approval_resolved",
      data: { approval_id: body.pending.approval_id, choice: "once", pending_count: 1 },
    });
    await app.call("POST", "/api/approval/respond", { session_id: ctx.sessionId, choice: "deny" });
    strictEqual((await second).approved, false);
    deepStrictEqual(await pendingApprovals(app.ctx.db, ctx.sessionId), {
      pending: null,
      pending_count: 0,
    });
  });
});

Deno.test("choice once approves this time only; session approves the pattern for the session", async () => {
  await withApp(async (app, ctx) => {
    const once = ask(app, ctx);
    await pendingCount(app, ctx.sessionId, 1);
    await resolveApproval(app.ctx, { sessionId: ctx.sessionId, choice: "once" });
    strictEqual((await once).approved, true);
    strictEqual(await count(app, sql`SELECT COUNT(*) AS n FROM session_approvals`), 0);

    const again = ask(app, ctx);
    await pendingCount(app, ctx.sessionId, 1, "asked again after once");
    await resolveApproval(app.ctx, { sessionId: ctx.sessionId, choice: "session" });
    strictEqual((await again).approved, true);
    deepStrictEqual(await ask(app, ctx), { approved: true, via: "session", rule: "rm_recursive" });
    strictEqual((await pendingApprovals(app.ctx.db, ctx.sessionId)).pending_count, 0);

    // Another session still asks.
    const other = await toolContext(app);
    const elsewhere = ask(app, other);
    await pendingCount(app, other.sessionId, 1);
    await resolveApproval(app.ctx, { sessionId: other.sessionId, choice: "deny" });
    strictEqual((await elsewhere).approved, false);
  });
});

Deno.test("choice always writes the allowlist to config.yaml, keeping comments and ${ENV}", async () => {
  const configYaml = "# my hermes config\nmodel:\n  default: gpt-4o # favourite\n" +
    "providers:\n  openai:\n    api_key: ${OPENAI_API_KEY}\n";
  await withApp(async (app, ctx) => {
    const decided = ask(app, ctx);
    await pendingCount(app, ctx.sessionId, 1);
    const res = await app.call("POST", "/api/approval/respond", {
      session_id: ctx.sessionId,
      choice: "always",
    });
    deepStrictEqual(res.body, {
      ok: true,
      choice: "always",
      approval_id: (res.body as { approval_id: string }).approval_id,
      pending_count: 0,
      resolved: true,
    });
    strictEqual((await decided).approved, true);
    const text = await Deno.readTextFile(app.ctx.config.configPath);
    ok(text.startsWith("# my hermes config\n"), text);
    ok(text.includes("default: gpt-4o # favourite"), text);
    ok(text.includes("api_key: ${OPENAI_API_KEY}"), text);
    match(text, /command_allowlist:\n(\s*#.*\n)?\s*- rm_recursive\n/);
    // Applies to every session now, and is not written twice.
    const other = await toolContext(app);
    deepStrictEqual(await ask(app, other), {
      approved: true,
      via: "allowlist",
      rule: "rm_recursive",
    });
    const again = ask(app, ctx, { ...RM, patternKeys: ["rm_recursive", "sudo"] });
    await pendingCount(app, ctx.sessionId, 1);
    await resolveApproval(app.ctx, { sessionId: ctx.sessionId, choice: "always" });
    await again;
    const text2 = await Deno.readTextFile(app.ctx.config.configPath);
    strictEqual(text2.match(/- rm_recursive/g)?.length, 1);
    ok(text2.includes("- sudo"));
  }, { configYaml });
});

Deno.test("choice always refuses to touch a malformed config and leaves the approval pending", async () => {
  await withApp(async (app, ctx) => {
    // Broken by hand while the console runs.
    await Deno.writeTextFile(app.ctx.config.configPath, "model: [unclosed\n");
    const decided = ask(app, ctx);
    await pendingCount(app, ctx.sessionId, 1);
    const res = await app.call("POST", "/api/approval/respond", {
      session_id: ctx.sessionId,
      choice: "always",
    });
    strictEqual(res.status, 400);
    match((res.body as { error: string }).error, /malformed/);
    strictEqual(await Deno.readTextFile(app.ctx.config.configPath), "model: [unclosed\n");
    strictEqual((await pendingApprovals(app.ctx.db, ctx.sessionId)).pending_count, 1);
    await resolveApproval(app.ctx, { sessionId: ctx.sessionId, choice: "deny" });
    strictEqual((await decided).approved, false);
  }, { configYaml: "model: {}\n" });
});

Deno.test("deny returns a BLOCKED result with the user's message to the agent", async () => {
  await withApp(async (app, ctx) => {
    await Deno.mkdir(join(app.workspace, "build"));
    const tools = await buildToolset(app.ctx, {
      session_id: ctx.sessionId,
      workspace: ctx.workspace,
    });
    const result = runToolCall(tools, "terminal", { command: "rm -rf build" }, ctx);
    await pendingCount(app, ctx.sessionId, 1, "pending");
    const res = await app.call("POST", "/api/approval/respond", {
      session_id: ctx.sessionId,
      choice: "deny",
      message: "use git clean instead",
    });
    strictEqual(res.status, 200);
    const out = await result;
    strictEqual(out.denied, true);
    match(out.output, /^BLOCKED: the command was not approved/);
    match(out.output, /The user said: "use git clean instead"/);
    ok((await Deno.stat(join(app.workspace, "build"))).isDirectory);
    const row = await app.ctx.db.get(sql`SELECT status, choice, message FROM approvals`);
    deepStrictEqual({ ...row }, {
      status: "denied",
      choice: "deny",
      message: "use git clean instead",
    });
  });
});

Deno.test("an unanswered approval expires after the timeout and blocks", async () => {
  const timers = new ManualTimers();
  await withApp(async (app, ctx) => {
    const decided = ask(app, ctx);
    // The `approval` event goes out as the timer starts.
    await until(() => ctx.events.some((e) => e.event === "approval"), "asked");
    deepStrictEqual(timers.pending(), [300_000]);
    timers.advance(299_999);
    strictEqual((await pendingApprovals(app.ctx.db, ctx.sessionId)).pending_count, 1);
    timers.advance(1);
    const d = await decided;
    deepStrictEqual(d, { approved: false, via: "expired", message: "No answer within 300 s" });
    const row = (await app.ctx.db.get<{ status: string }>(sql`SELECT status FROM approvals`))!;
    strictEqual(row.status, "expired");
    deepStrictEqual(ctx.events.at(-1)?.event, "approval_resolved");
    strictEqual((ctx.events.at(-1)?.data as { choice: string }).choice, "expired");
    const late = await app.call("POST", "/api/approval/respond", {
      session_id: ctx.sessionId,
      choice: "once",
    });
    // Nothing is pending any more: the original's answer, not an error.
    strictEqual(late.status, 200);
    strictEqual((late.body as { resolved: boolean }).resolved, false);
  }, { tools: { timers } });
});

Deno.test("cancelling the run withdraws its approval request", async () => {
  await withApp(async (app, ctx) => {
    const decided = ask(app, ctx);
    await pendingCount(app, ctx.sessionId, 1);
    ctx.controller.abort();
    deepStrictEqual(await decided, {
      approved: false,
      via: "cancelled",
      message: "The run was cancelled",
    });
    strictEqual((await pendingApprovals(app.ctx.db, ctx.sessionId)).pending_count, 0);
  });
});

Deno.test("skip approvals runs dangerous commands unasked but never lifts the hardline tier", async () => {
  await withApp(async (app, ctx) => {
    const yolo = await app.call("POST", "/api/session/yolo", {
      session_id: ctx.sessionId,
      enabled: true,
    });
    deepStrictEqual(yolo.body, {
      ok: true,
      session_id: ctx.sessionId,
      yolo_enabled: true,
      skip_approvals: true,
    });
    await Deno.mkdir(join(app.workspace, "build"));
    const tools = await buildToolset(app.ctx, {
      session_id: ctx.sessionId,
      workspace: ctx.workspace,
    });
    const ran = await runToolCall(tools, "terminal", { command: "rm -rf build" }, ctx);
    strictEqual(ran.output, "(no output)\n[exit code 0]");
    const blocked = await runToolCall(tools, "terminal", { command: "rm -rf ~" }, ctx);
    strictEqual(blocked.denied, true);
    match(blocked.output, /^BLOCKED: this command is never allowed/);
    const fork = await runToolCall(tools, "terminal", { command: ":(){ :|:& };:" }, ctx);
    strictEqual(fork.denied, true);
    strictEqual(await count(app, sql`SELECT COUNT(*) AS n FROM approvals`), 0);
    const off = await app.call("POST", "/api/session/yolo", {
      session_id: ctx.sessionId,
      enabled: false,
    });
    deepStrictEqual(off.body, {
      ok: true,
      session_id: ctx.sessionId,
      yolo_enabled: false,
      skip_approvals: false,
    });
    const unknown = await app.call("POST", "/api/session/yolo", {
      session_id: "0123456789ab",
      enabled: true,
    });
    strictEqual(unknown.status, 404);
  });
});

Deno.test("POST /api/approval/respond validates its body and refuses stale answers", async () => {
  await withApp(async (app, ctx) => {
    const noSession = await app.call("POST", "/api/approval/respond", { choice: "once" });
    strictEqual(noSession.status, 400);
    match((noSession.body as { error: string }).error, /session_id/);
    const badChoice = await app.call("POST", "/api/approval/respond", {
      session_id: ctx.sessionId,
      choice: "maybe",
    });
    strictEqual(badChoice.status, 400);
    match((badChoice.body as { error: string }).error, /choice/);
    const nothing = await app.call("POST", "/api/approval/respond", {
      session_id: ctx.sessionId,
      choice: "once",
    });
    // The original's shape: nothing to answer is not an error, it is `resolved: false`.
    strictEqual(nothing.status, 200);
    strictEqual((nothing.body as { resolved: boolean }).resolved, false);
    const unknown = await app.call("POST", "/api/approval/respond", {
      session_id: "0123456789ab",
      choice: "once",
    });
    strictEqual(unknown.status, 200);
    strictEqual((unknown.body as { resolved: boolean }).resolved, false);

    const decided = ask(app, ctx);
    await pendingCount(app, ctx.sessionId, 1);
    const id = (await pendingApprovals(app.ctx.db, ctx.sessionId)).pending!.approval_id;
    const wrong = await app.call("POST", "/api/approval/respond", {
      session_id: ctx.sessionId,
      choice: "once",
      approval_id: "f".repeat(32),
    });
    strictEqual(wrong.status, 409);
    const right = await app.call("POST", "/api/approval/respond", {
      session_id: ctx.sessionId,
      choice: "once",
      approval_id: id,
    });
    strictEqual(right.status, 200);
    await decided;
    const twice = await app.call("POST", "/api/approval/respond", {
      session_id: ctx.sessionId,
      choice: "deny",
      approval_id: id,
    });
    strictEqual(twice.status, 409);
    match((twice.body as { error: string }).error, /no longer pending \(it was approved\)/);
    await rejects(
      resolveApproval(app.ctx, { sessionId: ctx.sessionId, choice: "bogus" as "once" }),
      ValidationError,
    );
    await rejects(
      resolveApproval(app.ctx, { sessionId: ctx.sessionId, choice: "once", approvalId: id }),
      ConflictError,
    );
    const missing = await app.call("GET", "/api/approval/pending");
    strictEqual(missing.status, 400);
    const unknownPending = await app.call("GET", "/api/approval/pending?session_id=0123456789ab");
    strictEqual(
      unknownPending.status,
      200,
      "the original answers an unknown id with nothing pending",
    );
    strictEqual((unknownPending.body as { pending: unknown }).pending, null);
  });
});

Deno.test("approvals left pending by a stopped server expire at the next start; new ones work", async () => {
  const root = await Deno.makeTempDir({ prefix: "hermes-restart-" });
  const config = () =>
    loadConfig({
      HOME: root,
      PATH: "/usr/bin:/bin",
      HERMES_WEBUI_STATE_DIR: join(root, "state"),
      HERMES_WEBUI_DEFAULT_WORKSPACE: root,
      HERMES_CONFIG_PATH: join(root, "config.yaml"),
    });
  const log = createLogger({ write: () => {} });
  try {
    const first = await buildApp(config(), { log });
    const session = await createSession(first.ctx.db, first.ctx.clock, { workspace: root });
    let settled: ApprovalDecision | null = null;
    requestApproval(first.ctx, { sessionId: session.session_id, ...RM }).then((d) => settled = d);
    // Nobody waits for this one: closing the app settles it.
    void requestApproval(first.ctx, {
      sessionId: session.session_id,
      ...RM,
      command: "rm -r dist",
    });
    await first.close();
    await until(() => settled !== null, "settled on close");
    strictEqual(settled!.approved, false);

    const second = await buildApp(config(), { log });
    try {
      const res = await second.fetch(
        new Request(`http://127.0.0.1/api/approval/pending?session_id=${session.session_id}`),
      );
      const body = await res.json();
      // No run survives a restart: a card for these could never run anything, so none shows.
      deepStrictEqual([body.pending, body.pending_count], [null, 0]);
      const rows = await second.ctx.db.all<{ status: string }>(
        sql`SELECT status FROM approvals WHERE session_id = ${session.session_id} ORDER BY seq`,
      );
      deepStrictEqual(rows.map((r) => r.status), ["expired", "expired"]);
      // A new run's request is the head of the queue and takes the user's answer.
      const live = requestApproval(second.ctx, {
        sessionId: session.session_id,
        ...RM,
        command: "rm -r cache",
      });
      await until(
        async () => (await pendingApprovals(second.ctx.db, session.session_id)).pending_count > 0,
        "asked",
      );
      const head = await pendingApprovals(second.ctx.db, session.session_id);
      deepStrictEqual([head.pending?.command, head.pending_count], ["rm -r cache", 1]);
      await resolveApproval(second.ctx, { sessionId: session.session_id, choice: "once" });
      strictEqual((await live).approved, true);
    } finally {
      await second.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

async function readFrames(reader: ReadableStreamDefaultReader<Uint8Array>, n: number) {
  const frames: Array<{ event: string; data: unknown }> = [];
  let buf = "";
  const dec = new TextDecoder();
  while (frames.length < n) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += dec.decode(value);
    let i;
    while ((i = buf.indexOf("\n\n")) !== -1) {
      const raw = buf.slice(0, i);
      buf = buf.slice(i + 2);
      const event = raw.match(/^event: (.*)$/m)?.[1];
      const data = raw.match(/^data: (.*)$/m)?.[1];
      if (event && data) frames.push({ event, data: JSON.parse(data) });
    }
  }
  return frames;
}

Deno.test("GET /api/approval/stream sends initial, then a snapshot on every change", async () => {
  await withApp(async (app, ctx) => {
    const res = await app.request("GET", `/api/approval/stream?session_id=${ctx.sessionId}`);
    strictEqual(res.status, 200);
    strictEqual(res.headers.get("content-type"), "text/event-stream; charset=utf-8");
    const reader = res.body!.getReader();
    deepStrictEqual(await readFrames(reader, 1), [{
      event: "initial",
      data: { pending: null, pending_count: 0 },
    }]);
    const decided = ask(app, ctx);
    const [queued] = await readFrames(reader, 1);
    strictEqual(queued.event, "approval");
    strictEqual((queued.data as { pending_count: number }).pending_count, 1);
    strictEqual((queued.data as { pending: { command: string } }).pending.command, "rm -rf build");
    await resolveApproval(app.ctx, { sessionId: ctx.sessionId, choice: "once" });
    deepStrictEqual(await readFrames(reader, 1), [{
      event: "approval",
      data: { pending: null, pending_count: 0 },
    }]);
    await decided;
    await reader.cancel();
    strictEqual(app.ctx.tools.approvals.subscribers.size, 0);
    const unknown = await app.call("GET", "/api/approval/stream?session_id=0123456789ab");
    strictEqual(unknown.status, 404);
  });
});

Deno.test("GET /api/approval/inject_test queues an approval only with test hooks on", async () => {
  await withApp(async (app, ctx) => {
    const off = await app.call("GET", `/api/approval/inject_test?session_id=${ctx.sessionId}`);
    strictEqual(off.status, 404);
  });
  await withApp(async (app, ctx) => {
    const on = await app.call(
      "GET",
      `/api/approval/inject_test?session_id=${ctx.sessionId}&pattern_key=git_force_push&command=${
        encodeURIComponent("git push -f")
      }`,
    );
    deepStrictEqual(on.body, { ok: true });
    const { pending } = await pendingApprovals(app.ctx.db, ctx.sessionId);
    deepStrictEqual(
      [pending?.command, pending?.pattern_key, pending?.description],
      ["git push -f", "git_force_push", "git push --force (rewrites remote history)"],
    );
    const answered = await app.call("POST", "/api/approval/respond", {
      session_id: ctx.sessionId,
      choice: "once",
    });
    strictEqual(answered.status, 200);
  }, { env: { HERMES_WEBUI_TEST_HOOKS: "1" } });
});

Deno.test("POST /api/clarify/respond answers the open question; stale ids get 409", async () => {
  await withApp(async (app, ctx) => {
    const none = await app.call("POST", "/api/clarify/respond", {
      session_id: ctx.sessionId,
      response: "x",
    });
    strictEqual(none.status, 409);
    const answer = askClarify(app.ctx.tools.clarify, {
      sessionId: ctx.sessionId,
      question: "Proceed?",
      choices: ["yes", "no"],
      emit: ctx.emit,
    });
    const id = (ctx.events.at(-1)?.data as { clarify_id: string }).clarify_id;
    const wrong = await app.call("POST", "/api/clarify/respond", {
      session_id: ctx.sessionId,
      clarify_id: "a".repeat(16),
      response: "no",
    });
    strictEqual(wrong.status, 409);
    const missing = await app.call("POST", "/api/clarify/respond", { session_id: ctx.sessionId });
    strictEqual(missing.status, 400);
    const ok1 = await app.call("POST", "/api/clarify/respond", {
      session_id: ctx.sessionId,
      clarify_id: id,
      response: "yes",
    });
    deepStrictEqual(ok1.body, { ok: true, response: "yes" });
    strictEqual(await answer, "yes");
    const stale = await app.call("POST", "/api/clarify/respond", {
      session_id: ctx.sessionId,
      clarify_id: id,
      response: "no",
    });
    strictEqual(stale.status, 409);
  });
});

Deno.test("askClarify() settles on timeout and on cancellation", async () => {
  const timers = new ManualTimers();
  await withApp(async (app, ctx) => {
    const waiting = askClarify(app.ctx.tools.clarify, { sessionId: ctx.sessionId, question: "?" });
    deepStrictEqual(timers.pending(), [600_000]);
    timers.advance(600_000);
    strictEqual(await waiting, "(no answer within 600 s; decide yourself)");
    const cancelled = askClarify(app.ctx.tools.clarify, {
      sessionId: ctx.sessionId,
      question: "?",
      signal: ctx.signal,
    });
    ctx.controller.abort();
    strictEqual(await cancelled, "(no answer: the run was cancelled)");
    deepStrictEqual(timers.pending(), []);
  }, { tools: { timers } });
});

Deno.test("edit-then-run: the edited command runs once and the agent is told what ran", async () => {
  await withApp(async (app, ctx) => {
    await Deno.mkdir(join(app.workspace, "build", "tmp"), { recursive: true });
    await Deno.writeTextFile(join(app.workspace, "build", "keep.txt"), "keep");
    const tools = await buildToolset(app.ctx, {
      session_id: ctx.sessionId,
      workspace: ctx.workspace,
    });
    const result = runToolCall(tools, "terminal", { command: "rm -rf build" }, ctx);
    await pendingCount(app, ctx.sessionId, 1, "pending");
    const { approval_id } = (await pendingApprovals(app.ctx.db, ctx.sessionId)).pending!;
    const res = await app.call("POST", "/api/approval/respond", {
      session_id: ctx.sessionId,
      approval_id,
      choice: "once",
      command: "rm -rf build/tmp",
    });
    strictEqual(res.status, 200);
    deepStrictEqual(
      { ...(res.body as Record<string, unknown>), pending_count: undefined },
      {
        ok: true,
        choice: "once",
        approval_id,
        command: "rm -rf build/tmp",
        resolved: true,
        pending_count: undefined,
      },
    );
    const out = await result;
    strictEqual(out.isError, false, out.output);
    match(
      out.output,
      /the user edited the command before allowing it; this ran instead:\nrm -rf build\/tmp/,
    );
    strictEqual(await Deno.readTextFile(join(app.workspace, "build", "keep.txt")), "keep");
    await rejects(() => Deno.stat(join(app.workspace, "build", "tmp")));
    const row = await app.ctx.db.get(sql`SELECT status, edited_command FROM approvals`);
    deepStrictEqual({ ...row }, { status: "approved", edited_command: "rm -rf build/tmp" });
  });
});

Deno.test("edit-then-run: a hardline edit is refused and the approval stays pending", async () => {
  await withApp(async (app, ctx) => {
    await Deno.mkdir(join(app.workspace, "build"));
    const tools = await buildToolset(app.ctx, {
      session_id: ctx.sessionId,
      workspace: ctx.workspace,
    });
    const result = runToolCall(tools, "terminal", { command: "rm -rf build" }, ctx);
    await pendingCount(app, ctx.sessionId, 1, "pending");
    for (const command of ["rm -rf ~", "rm -rf /", "  "]) {
      const res = await app.call<{ error: string }>("POST", "/api/approval/respond", {
        session_id: ctx.sessionId,
        choice: "once",
        command,
      });
      strictEqual(res.status, 400, command);
      ok(res.body.error.length > 0);
    }
    const asSession = await app.call("POST", "/api/approval/respond", {
      session_id: ctx.sessionId,
      choice: "session",
      command: "rm -rf build/x",
    });
    strictEqual(asSession.status, 400, "an edited command is allowed once only");
    strictEqual(
      (await pendingApprovals(app.ctx.db, ctx.sessionId)).pending_count,
      1,
      "still pending",
    );
    await app.call("POST", "/api/approval/respond", { session_id: ctx.sessionId, choice: "deny" });
    strictEqual((await result).denied, true);
    ok((await Deno.stat(join(app.workspace, "build"))).isDirectory);
  });
});

Deno.test("GET /api/approval/inbox lists every session's pending approvals with titles", async () => {
  await withApp(async (app, ctx) => {
    const other = await createSession(app.ctx.db, app.ctx.clock, { workspace: ctx.workspace });
    await app.ctx.db.run(
      sql`UPDATE sessions SET title = 'Deploy fix' WHERE session_id = ${other.session_id}`,
    );
    const empty = await app.call("GET", "/api/approval/inbox");
    deepStrictEqual(empty.body, { approvals: [], count: 0, sessions: 0 });
    const a = ask(app, ctx);
    const b = ask(app, ctx, { ...RM, command: "rm -rf dist" });
    const c = requestApproval(app.ctx, {
      sessionId: other.session_id,
      streamId: null as unknown as string,
      signal: ctx.signal,
      ...RM,
      command: "git push --force",
    });
    await until(
      async () => await count(app, sql`SELECT COUNT(*) AS n FROM approvals`) === 3,
      "three pending",
    );
    const res = await app.call<
      { approvals: Array<Record<string, unknown>>; count: number; sessions: number }
    >("GET", "/api/approval/inbox");
    strictEqual(res.status, 200);
    strictEqual(res.body.count, 3);
    strictEqual(res.body.sessions, 2);
    deepStrictEqual(
      res.body.approvals.map((x) => [x.command, x.position, x.session_title]),
      [["rm -rf build", 1, "Untitled"], ["rm -rf dist", 2, "Untitled"], [
        "git push --force",
        1,
        "Deploy fix",
      ]],
    );
    // Answering from the inbox names the approval: the second of a queue can be answered first.
    const second = res.body.approvals[1];
    const r = await app.call("POST", "/api/approval/respond", {
      session_id: second.session_id,
      approval_id: second.approval_id,
      choice: "deny",
    });
    strictEqual(r.status, 200);
    strictEqual((await b).approved, false);
    strictEqual((await app.call<{ count: number }>("GET", "/api/approval/inbox")).body.count, 2);
    ctx.controller.abort();
    await Promise.allSettled([a, c]);
  });
});

/**
 * The app with its database gated: every transaction waits until `n` have been opened, so `n`
 * answers all read the approval as pending before any of them writes (a real race, every time).
 */
function gatedTransactions(app: TestApp, n: number): ApprovalApp {
  const db = app.ctx.db;
  let opened = 0;
  let release!: () => void;
  const allThere = new Promise<void>((r) => release = r);
  const gated: Db = {
    backend: db.backend,
    owner: db,
    all: (q) => db.all(q),
    get: (q) => db.get(q),
    run: (q) => db.run(q),
    ready: () => db.ready(),
    close: () => db.close(),
    async transaction(fn, opts) {
      if (++opened === n) release();
      await allThere;
      return await db.transaction(fn, opts);
    },
  };
  return { ...app.ctx, db: gated };
}

Deno.test("resolveApproval() of two racing answers applies exactly one; the other is a ConflictError", async () => {
  await withApp(async (app, ctx) => {
    const decided = ask(app, ctx);
    await pendingCount(app, ctx.sessionId, 1);
    const { approval_id } = (await pendingApprovals(app.ctx.db, ctx.sessionId)).pending!;
    const racing = gatedTransactions(app, 2);
    const answers = await Promise.allSettled([
      resolveApproval(racing, {
        sessionId: ctx.sessionId,
        approvalId: approval_id,
        choice: "session",
      }),
      resolveApproval(racing, {
        sessionId: ctx.sessionId,
        approvalId: approval_id,
        choice: "deny",
      }),
    ]);
    const won = answers.flatMap((a) => a.status === "fulfilled" ? [a.value] : []);
    const lost = answers.flatMap((a) => a.status === "rejected" ? [a.reason] : []);
    strictEqual(won.length, 1, "exactly one answer applies");
    strictEqual(lost.length, 1);
    ok(lost[0] instanceof ConflictError, String(lost[0]));
    match(lost[0].message, /no longer pending \(it was (approved|denied)\)/);
    const choice = won[0].choice;
    const row = await app.ctx.db.get<{ status: string; choice: string }>(
      sql`SELECT status, choice FROM approvals WHERE approval_id = ${approval_id}`,
    );
    deepStrictEqual({ ...row }, {
      status: choice === "deny" ? "denied" : "approved",
      choice,
    });
    // The run heard the winner, once; only the winner's grant was written.
    strictEqual((await decided).approved, choice !== "deny");
    strictEqual((await decided).choice, choice);
    strictEqual(
      ctx.events.filter((e) =>
        e.event === "approval_resolved" &&
        (e.data as { approval_id: string }).approval_id === approval_id
      ).length,
      1,
    );
    strictEqual(
      await count(
        app,
        sql`SELECT COUNT(*) AS n FROM session_approvals WHERE session_id = ${ctx.sessionId}`,
      ),
      choice === "session" ? 1 : 0,
    );
  });
});

Deno.test("POST /api/approval/respond: two tabs answering one approval at once get one 200 and one 409", async () => {
  await withApp(async (app, ctx) => {
    for (const [first, second] of [["once", "deny"], ["deny", "session"]] as const) {
      const decided = ask(app, ctx);
      await pendingCount(app, ctx.sessionId, 1);
      const { approval_id } = (await pendingApprovals(app.ctx.db, ctx.sessionId)).pending!;
      const [a, b] = await Promise.all(
        [first, second].map((choice) =>
          app.call<{ choice?: string; error?: string }>("POST", "/api/approval/respond", {
            session_id: ctx.sessionId,
            approval_id,
            choice,
          })
        ),
      );
      deepStrictEqual([a.status, b.status].sort(), [200, 409], JSON.stringify([a, b]));
      const [won, lost] = a.status === 200 ? [a, b] : [b, a];
      match(lost.body.error!, /no longer pending/);
      strictEqual((await decided).choice, won.body.choice);
    }
  });
});

Deno.test("an answer racing the timeout: exactly one ends the approval, and the run hears that one", async () => {
  const timers = new ManualTimers();
  await withApp(async (app, ctx) => {
    const decided = ask(app, ctx);
    await until(() => ctx.events.some((e) => e.event === "approval"), "asked");
    const answer = resolveApproval(app.ctx, { sessionId: ctx.sessionId, choice: "once" })
      .then(() => "answered" as const, (err) => {
        ok(err instanceof ConflictError, String(err));
        return "refused" as const;
      });
    timers.advance(300_000);
    const [outcome, decision] = await Promise.all([answer, decided]);
    const row = (await app.ctx.db.get<{ status: string }>(sql`SELECT status FROM approvals`))!;
    if (outcome === "answered") {
      strictEqual(row.status, "approved");
      deepStrictEqual([decision.approved, decision.via], [true, "user"]);
    } else {
      strictEqual(row.status, "expired");
      deepStrictEqual([decision.approved, decision.via], [false, "expired"]);
    }
    strictEqual(ctx.events.filter((e) => e.event === "approval_resolved").length, 1);
  }, { tools: { timers } });
});
