// The agent's tools driven through runToolCall, as the engine would: file tools in the sandbox
// worker, terminal with its caps and timeout, todo, clarify, and the registry's error results.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { createTestApp, type TestApp } from "./helpers.ts";
import { toolContext, until } from "./fixtures/tool_context.ts";
import { buildToolset, runToolCall } from "../lib/tools/registry.ts";
import type { ToolContext, ToolDefinition } from "../lib/tools/types.ts";
import { respondClarify } from "../lib/approvals/clarify.ts";
import { capOutput } from "../lib/sandbox/command_runner.ts";
import { sql } from "../lib/storage/db.ts";

async function setup(opts: Parameters<typeof createTestApp>[0] = {}) {
  const app = await createTestApp(opts);
  const ctx = await toolContext(app);
  const tools = await buildToolset(app.ctx, {
    session_id: ctx.sessionId,
    workspace: ctx.workspace,
  });
  const call = (name: string, args: unknown, c: ToolContext = ctx) =>
    runToolCall(tools, name, args, c);
  return { app, ctx, tools, call };
}

async function withApp(
  fn: (s: Awaited<ReturnType<typeof setup>>) => Promise<void>,
  opts: Parameters<typeof createTestApp>[0] = {},
) {
  const s = await setup(opts);
  try {
    await fn(s);
  } finally {
    await s.app.close();
  }
}

const write = (app: TestApp, rel: string, text: string) =>
  Deno.mkdir(join(app.workspace, rel, ".."), { recursive: true }).then(() =>
    Deno.writeTextFile(join(app.workspace, rel), text)
  );

Deno.test("buildToolset() offers the built-in tools with schemas and descriptions", async () => {
  await withApp(({ tools }) => {
    deepStrictEqual(tools.map((t) => t.name).slice(0, 8), [
      "read_file",
      "write_file",
      "patch",
      "list_directory",
      "search_files",
      "terminal",
      "todo",
      "clarify",
    ]);
    for (const t of tools) ok(t.description.length > 40, `${t.name} has a real description`);
    return Promise.resolve();
  });
});

Deno.test("runToolCall() turns unknown tools, bad JSON, invalid args and throws into errors", async () => {
  await withApp(async ({ call, ctx, tools }) => {
    const unknown = await call("nope", {});
    strictEqual(unknown.isError, true);
    match(unknown.output, /Unknown tool "nope".*read_file/);
    const badJson = await call("read_file", "{not json");
    strictEqual(badJson.isError, true);
    match(badJson.output, /not valid JSON/);
    const invalid = await call("read_file", { path: 42 });
    strictEqual(invalid.isError, true);
    match(invalid.output, /Invalid arguments for read_file: path/);
    const fromString = await call("list_directory", "{}");
    strictEqual(fromString.isError, undefined);
    const boom: ToolDefinition = {
      ...tools[0],
      name: "boom",
      execute: () => Promise.reject(new Error("kaput")),
    };
    const thrown = await runToolCall([boom], "boom", { path: "x" }, ctx);
    deepStrictEqual(thrown, { output: "boom failed: kaput", isError: true });
  });
});

Deno.test("read_file returns numbered lines and pages with offset/limit", async () => {
  await withApp(async ({ app, call }) => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    await write(app, "src/a.txt", lines.join("\n") + "\n");
    const all = await call("read_file", { path: "src/a.txt" });
    ok(all.output.startsWith(" 1|line 1\n 2|line 2"));
    ok(!all.output.includes("continue with"));
    const page = await call("read_file", { path: "./src/a.txt", offset: 10, limit: 5 });
    strictEqual(
      page.output,
      "10|line 10\n11|line 11\n12|line 12\n13|line 13\n14|line 14\n" +
        "(showing lines 10-14 of 30; continue with offset=15)",
    );
    const past = await call("read_file", { path: "src/a.txt", offset: 99 });
    strictEqual(past.isError, true);
    match(past.output, /past the end .* 30 lines/);
    const missing = await call("read_file", { path: "src/none.txt" });
    strictEqual(missing.isError, true);
    match(missing.output, /not found in the workspace/);
    const dir = await call("read_file", { path: "src" });
    match(dir.output, /is a directory; use list_directory/);
  });
});

Deno.test("read_file refuses binary and oversized files with a clear message", async () => {
  await withApp(async ({ app, call }) => {
    await Deno.writeFile(join(app.workspace, "bin.dat"), new Uint8Array([1, 0, 2, 0]));
    const bin = await call("read_file", { path: "bin.dat" });
    strictEqual(bin.isError, true);
    match(bin.output, /binary file/);
    const big = await Deno.open(join(app.workspace, "big.log"), { write: true, create: true });
    await big.truncate(11 * 1024 * 1024);
    big.close();
    const tooBig = await call("read_file", { path: "big.log" });
    strictEqual(tooBig.isError, true);
    match(tooBig.output, /11\.0 MB; read_file reads files up to 10\.0 MB/);
    const longLine = "x".repeat(5000);
    await write(app, "long.txt", longLine);
    const cut = await call("read_file", { path: "long.txt" });
    match(cut.output, /\[line cut: 3000 more characters\]/);
  });
});

Deno.test("write_file creates parents, reports created vs overwritten", async () => {
  await withApp(async ({ app, call }) => {
    const created = await call("write_file", { path: "deep/dir/new.txt", content: "a\nb\n" });
    match(created.output, /^Created deep\/dir\/new\.txt \(4 bytes, 3 lines\)/);
    strictEqual(await Deno.readTextFile(join(app.workspace, "deep/dir/new.txt")), "a\nb\n");
    const again = await call("write_file", { path: "deep/dir/new.txt", content: "c" });
    match(again.output, /^Overwrote/);
    strictEqual(await Deno.readTextFile(join(app.workspace, "deep/dir/new.txt")), "c");
    const onDir = await call("write_file", { path: "deep", content: "x" });
    strictEqual(onDir.isError, true);
    match(onDir.output, /is a directory/);
  });
});

Deno.test("patch replaces a unique match and explains missing or ambiguous ones", async () => {
  await withApp(async ({ app, call }) => {
    await write(
      app,
      "app.ts",
      "const a = 1;\nconst b = 2;\nconst a2 = 1;\nlog(1);\nlog(1);\nlog(1);\n",
    );
    const ok1 = await call("patch", {
      path: "app.ts",
      old_string: "const b = 2;",
      new_string: "const b = 3;",
    });
    strictEqual(ok1.isError, undefined);
    match(ok1.output, /Patched app\.ts: replaced 1 occurrence \(first at line 2\)/);
    match(ok1.output, /- const b = 2;\n\+ const b = 3;/);
    ok((await Deno.readTextFile(join(app.workspace, "app.ts"))).includes("const b = 3;"));

    const none = await call("patch", { path: "app.ts", old_string: "const c", new_string: "x" });
    strictEqual(none.isError, true);
    match(none.output, /not found in "app\.ts" \(0 matches\)/);

    const many = await call("patch", { path: "app.ts", old_string: "log(1);", new_string: "x" });
    strictEqual(many.isError, true);
    match(many.output, /matches 3 times in "app\.ts" \(at lines 4, 5, 6\)/);

    const all = await call("patch", {
      path: "app.ts",
      old_string: "log(1);",
      new_string: "log(2);",
      replace_all: true,
    });
    match(all.output, /replaced 3 occurrences/);
    strictEqual(
      (await Deno.readTextFile(join(app.workspace, "app.ts"))).match(/log\(2\);/g)?.length,
      3,
    );

    const ws = await call("patch", {
      path: "app.ts",
      old_string: "const a = 1;\n  const b = 3;",
      new_string: "x",
    });
    match(ws.output, /differing only in whitespace exists at line 1/);

    const same = await call("patch", { path: "app.ts", old_string: "x", new_string: "x" });
    match(same.output, /identical/);
    const missingFile = await call("patch", { path: "nope.ts", old_string: "a", new_string: "b" });
    match(missingFile.output, /not found in the workspace/);
  });
});

Deno.test("list_directory lists directories first, then files with sizes", async () => {
  await withApp(async ({ app, call }) => {
    await write(app, "b.txt", "12345");
    await write(app, "A.md", "");
    await Deno.mkdir(join(app.workspace, "zdir"));
    await Deno.mkdir(join(app.workspace, "adir"));
    const out = await call("list_directory", {});
    strictEqual(out.output, "./ — 4 entries\nadir/\nzdir/\nA.md  (0 B)\nb.txt  (5 B)");
    const sub = await call("list_directory", { path: "adir" });
    strictEqual(sub.output, "adir/ is empty.");
    const file = await call("list_directory", { path: "b.txt" });
    match(file.output, /is a file, not a directory/);
  });
});

Deno.test("search_files finds content by regex and files by glob, skipping node_modules and .git", async () => {
  await withApp(async ({ app, call }) => {
    await write(app, "src/main.ts", "import x from 'y';\nfunction handleRequest() {}\n");
    await write(app, "src/util.js", "function handleRequest() {}\n");
    await write(app, "node_modules/lib/index.ts", "function handleRequest() {}\n");
    await write(app, ".git/config", "handleRequest\n");
    await write(app, "docs/readme.md", "HANDLEREQUEST in docs\n");
    const content = await call("search_files", { pattern: "handle\\w+\\(" });
    strictEqual(
      content.output,
      "src/main.ts:2: function handleRequest() {}\nsrc/util.js:1: function handleRequest() {}",
    );
    const ts = await call("search_files", { pattern: "handleRequest", file_glob: "*.ts" });
    strictEqual(ts.output, "src/main.ts:2: function handleRequest() {}");
    const ci = await call("search_files", {
      pattern: "handlerequest",
      case_insensitive: true,
      path: "docs",
    });
    strictEqual(ci.output, "docs/readme.md:1: HANDLEREQUEST in docs");
    const files = await call("search_files", { pattern: "**/*.{ts,js}", target: "files" });
    strictEqual(files.output, "src/main.ts\nsrc/util.js");
    const none = await call("search_files", { pattern: "zzz" });
    match(none.output, /No matches/);
    const bad = await call("search_files", { pattern: "(" });
    strictEqual(bad.isError, true);
    match(bad.output, /Invalid regular expression/);
    for (let i = 0; i < 8; i++) await write(app, `many/f${i}.txt`, "hit\nhit\n");
    const capped = await call("search_files", { pattern: "hit", path: "many", limit: 3 });
    const lines = capped.output.split("\n");
    strictEqual(lines.length, 4);
    strictEqual(lines[3], "(16 matches, showing the first 3; narrow the search or raise limit)");
  });
});

Deno.test("terminal runs bash in the workspace and reports the exit code", async () => {
  await withApp(async ({ app, call }) => {
    await write(app, "hello.txt", "hi there");
    const out = await call("terminal", { command: "cat hello.txt && pwd" });
    strictEqual(out.isError, false);
    strictEqual(out.output, `hi there${await Deno.realPath(app.workspace)}\n[exit code 0]`);
    const fail = await call("terminal", { command: "echo oops >&2; exit 3" });
    strictEqual(fail.isError, true);
    strictEqual(fail.output, "oops\n[exit code 3]");
    await Deno.mkdir(join(app.workspace, "sub"));
    const sub = await call("terminal", { command: "pwd", workdir: "sub" });
    ok(sub.output.startsWith(join(await Deno.realPath(app.workspace), "sub")));
    const escape = await call("terminal", { command: "pwd", workdir: "../" });
    strictEqual(escape.isError, true);
    match(escape.output, /workdir "\.\.\/" is not a directory in the workspace/);
  });
});

Deno.test("terminal passes only PATH, HOME, LANG and TERM to the command", async () => {
  await withApp(async ({ call }) => {
    const out = await call("terminal", { command: "env | cut -d= -f1 | sort" });
    const names = out.output.split("\n").slice(0, -1);
    const allowed = new Set(["PATH", "HOME", "LANG", "TERM", "PWD", "SHLVL", "_", "OLDPWD"]);
    deepStrictEqual(names.filter((n) => !allowed.has(n)), []);
    ok(names.includes("PATH") && names.includes("HOME"));
    const secret = await call("terminal", { command: 'echo "[$OPENAI_API_KEY]"' });
    strictEqual(secret.output, "[]\n[exit code 0]");
  }, { env: { OPENAI_API_KEY: "sk-test-secret" } });
});

Deno.test("terminal kills a command at its timeout, background children included", async () => {
  await withApp(async ({ app, call }) => {
    const out = await call("terminal", {
      command: "echo started; (sleep 30; touch late.txt) & sleep 30",
      timeout: 1,
    });
    strictEqual(out.isError, true);
    strictEqual(out.output, "started\n[timed out after 1 s; the command was killed]");
    const late = await Deno.stat(join(app.workspace, "late.txt")).then(() => true, () => false);
    strictEqual(late, false);
  });
});

Deno.test("terminal keeps the head and tail of long output with an omitted-bytes marker", async () => {
  await withApp(async ({ call }) => {
    const out = await call("terminal", {
      command:
        "printf 'H%.0s' $(seq 1 100); printf 'm%.0s' $(seq 1 5000); printf 'T%.0s' $(seq 1 100)",
    });
    strictEqual(
      out.output,
      `${"H".repeat(100)}\n… 5000 bytes omitted …\n${"T".repeat(100)}\n[exit code 0]`,
    );
  }, { tools: { terminalHeadBytes: 100, terminalTailBytes: 100 } });
  strictEqual(capOutput("abcdef", 2, 2), "ab\n… 2 bytes omitted …\nef");
  strictEqual(capOutput("abcd", 2, 2), "abcd");
});

Deno.test("terminal is cancelled with the run", async () => {
  await withApp(async ({ ctx, call }) => {
    const pending = call("terminal", { command: "sleep 30" });
    setTimeout(() => ctx.controller.abort(), 50);
    const out = await pending;
    strictEqual(out.output, "(no output)\n[cancelled]");
    strictEqual(out.isError, true);
  });
});

Deno.test("terminal refuses hardline commands without asking", async () => {
  await withApp(async ({ app, ctx, call }) => {
    let asked = 0;
    const c = { ...ctx, requestApproval: () => (asked++, Promise.resolve({ approved: true })) };
    const out = await call("terminal", { command: "rm -rf /" }, c);
    strictEqual(out.denied, true);
    strictEqual(out.isError, true);
    match(out.output, /^BLOCKED: this command is never allowed \(Recursive delete of the root/);
    strictEqual(asked, 0);
    const rows = await app.ctx.db.get<{ n: number | string }>(
      sql`SELECT COUNT(*) AS n FROM approvals`,
    );
    strictEqual(Number(rows?.n), 0);
  });
});

Deno.test("terminal asks before a dangerous command and runs it only when approved", async () => {
  await withApp(async ({ app, ctx, call }) => {
    await Deno.mkdir(join(app.workspace, "build"));
    const asked: unknown[] = [];
    const deny = {
      ...ctx,
      requestApproval: (
        req: unknown,
      ) => (asked.push(req), Promise.resolve({ approved: false, message: "not now" })),
    };
    const denied = await call("terminal", { command: "rm -rf build" }, deny);
    strictEqual(denied.denied, true);
    match(
      denied.output,
      /^BLOCKED: the command was not approved \(Recursive delete \(rm -r\)\).*The user said: "not now"/,
    );
    deepStrictEqual(asked, [{
      command: "rm -rf build",
      description: "Recursive delete (rm -r)",
      patternKey: "rm_recursive",
      patternKeys: ["rm_recursive"],
    }]);
    ok((await Deno.stat(join(app.workspace, "build"))).isDirectory);
    const allow = { ...ctx, requestApproval: () => Promise.resolve({ approved: true }) };
    const ran = await call("terminal", { command: "rm -rf build" }, allow);
    strictEqual(ran.output, "(no output)\n[exit code 0]");
    strictEqual(await Deno.stat(join(app.workspace, "build")).then(() => true, () => false), false);
  });
});

Deno.test("todo sets, merges and reads the plan, emitting todo_state", async () => {
  await withApp(async ({ ctx, call }) => {
    const set = await call("todo", {
      todos: [
        { id: "1", content: "Read the code", status: "in_progress" },
        { id: "2", content: "Write tests" },
      ],
    });
    strictEqual(set.output, "[>] 1. Read the code\n[ ] 2. Write tests\n(0/2 completed)");
    const merged = await call("todo", {
      merge: true,
      todos: [{ id: "1", status: "completed" }, { id: "3", content: "Ship" }],
    });
    strictEqual(
      merged.output,
      "[x] 1. Read the code\n[ ] 2. Write tests\n[ ] 3. Ship\n(1/3 completed)",
    );
    deepStrictEqual(ctx.events.at(-1), {
      event: "todo_state",
      data: {
        todos: [
          { id: "1", content: "Read the code", status: "completed" },
          { id: "2", content: "Write tests", status: "pending" },
          { id: "3", content: "Ship", status: "pending" },
        ],
      },
    });
    strictEqual(ctx.events.length, 2);
    const read = await call("todo", {});
    strictEqual(read.output, merged.output);
    strictEqual(ctx.events.length, 2);
    const bad = await call("todo", { todos: [{ id: "9" }] });
    strictEqual(bad.isError, true);
    match(bad.output, /Item "9" has no content/);
    const badStatus = await call("todo", { todos: [{ id: "1", content: "x", status: "done" }] });
    match(badStatus.output, /Invalid arguments for todo: todos\.0\.status/);
  });
});

Deno.test("clarify asks the user, emits clarify and returns the answer", async () => {
  await withApp(async ({ app, ctx, call }) => {
    const pending = call("clarify", {
      question: "Which database?",
      choices: ["sqlite", "postgres"],
    });
    await until(() => ctx.events.some((e) => e.event === "clarify"), "clarify event");
    const ev = ctx.events.find((e) => e.event === "clarify")!;
    const data = ev.data as { clarify_id: string; question: string; choices: string[] };
    deepStrictEqual({ question: data.question, choices: data.choices }, {
      question: "Which database?",
      choices: ["sqlite", "postgres"],
    });
    match(data.clarify_id, /^[0-9a-f]{16}$/);
    respondClarify(app.ctx.tools.clarify, {
      sessionId: ctx.sessionId,
      clarifyId: data.clarify_id,
      response: "postgres",
    });
    deepStrictEqual(await pending, { output: "The user answered: postgres" });
  });
});

Deno.test("todo picks up the last journaled plan after a restart", async () => {
  await withApp(async ({ app, ctx, call }) => {
    const db = app.ctx.db;
    const stream = "a".repeat(32);
    await db.run(
      sql`INSERT INTO streams (stream_id, session_id, turn_id, status, started_at)
          VALUES (${stream}, ${ctx.sessionId}, 't1', 'done', 1)`,
    );
    const todos = [{ id: "1", content: "Old plan", status: "completed" }];
    await db.run(
      sql`INSERT INTO stream_events (stream_id, seq, event, data, created_at)
          VALUES (${stream}, 1, 'todo_state', ${JSON.stringify({ todos })}, 1)`,
    );
    const read = await call("todo", {});
    strictEqual(read.output, "[x] 1. Old plan\n(1/1 completed)");
  });
});
