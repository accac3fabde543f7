import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { fileURLToPath as fromFileUrl } from "node:url";
import { parseDocument } from "yaml";
import { createTestApp, type TestApp } from "./helpers.ts";
import { startHttpMcpServer } from "./fixtures/mcp_server.ts";
import { loadMcpTools, mcpToolName } from "../lib/tools/mcp_tools.ts";
import type { ToolContext, ToolDefinition } from "../lib/tools/types.ts";
import type { McpServerStatus } from "../lib/mcp/manager.ts";
import { startFakeProvider } from "./fixtures/fake_provider.ts";
import { TEMPLATED_CONFIG } from "./fixtures/templated_config.ts";
import { ensureAgentTools, newSessionId, runTurn } from "./fixtures/agent_turn.ts";

const FIXTURE = fromFileUrl(new URL("./fixtures/mcp_server.ts", import.meta.url));
const REPO = fromFileUrl(new URL("..", import.meta.url));
const DENO_DIR = Deno.env.get("DENO_DIR") ??
  `${Deno.env.get("HOME") ?? "/root"}/.cache/deno`;

/** YAML for a stdio server running the fixture with `deno`. */
function stdioServer(name: string, extra = ""): string {
  return `  ${name}:
    command: ${Deno.execPath()}
    args: [run, -A, --quiet, "${FIXTURE}", ${name}]
    cwd: "${REPO}"
    env:
      DENO_DIR: \${DENO_DIR}
      FIXTURE_TOKEN: literal-secret-value-9876
${extra}`;
}

async function appWith(servers: string, env: Record<string, string> = {}): Promise<TestApp> {
  return await createTestApp({
    configYaml: `# my config\nmcp_servers:\n${servers}`,
    env: { DENO_DIR, LANG: "C.UTF-8", ...env },
  });
}

interface FakeCtx extends ToolContext {
  approvals: Array<{ patternKey: string; command: string }>;
  abort: AbortController;
}

function fakeCtx(approve = true): FakeCtx {
  const abort = new AbortController();
  const approvals: FakeCtx["approvals"] = [];
  return {
    sessionId: "000000000000",
    streamId: "0".repeat(32),
    workspace: "/tmp",
    signal: abort.signal,
    abort,
    approvals,
    emit() {},
    requestApproval(req) {
      approvals.push({ patternKey: req.patternKey, command: req.command });
      return Promise.resolve(approve ? { approved: true } : { approved: false, message: "no" });
    },
    askClarify: () => Promise.resolve(""),
    allowNetwork: false,
  };
}

function find(tools: ToolDefinition[], name: string): ToolDefinition {
  const t = tools.find((t) => t.name === name);
  ok(t, `tool ${name} among ${tools.map((t) => t.name).join(", ")}`);
  return t;
}

async function servers(app: TestApp): Promise<McpServerStatus[]> {
  const res = await app.call<{ servers: McpServerStatus[] }>("GET", "/api/mcp/servers");
  strictEqual(res.status, 200);
  return res.body.servers;
}

Deno.test("MCP over stdio: list, call, approval, env scrubbing, death and reload", async (t) => {
  const app = await appWith(stdioServer("test"));
  try {
    await t.step("status is passive: nothing is started by GET", async () => {
      const [row] = await servers(app);
      strictEqual(row.status, "configured");
      strictEqual(row.tool_count, 0);
      strictEqual(row.transport, "stdio");
      strictEqual(row.approval, "ask");
      strictEqual(row.env!.DENO_DIR, "${DENO_DIR}");
      ok(!row.env!.FIXTURE_TOKEN.includes("literal-secret"), row.env!.FIXTURE_TOKEN);
      deepStrictEqual((await app.call("GET", "/api/mcp/tools")).body, { tools: [] });
      strictEqual((await servers(app))[0].status, "configured");
    });

    let tools: ToolDefinition[] = [];
    await t.step("a turn connects and lists the server's tools", async () => {
      tools = await loadMcpTools(app.ctx.mcp);
      deepStrictEqual(
        tools.map((t) => t.name).sort(),
        ["add", "crash", "echo", "fail", "pid", "slow"].map((n) => `mcp__test__${n}`),
      );
      const [row] = await servers(app);
      strictEqual(row.status, "connected");
      strictEqual(row.tool_count, 6);
      const listed = (await app.call<{ tools: { tool_name: string; input_schema: unknown }[] }>(
        "GET",
        "/api/mcp/tools",
      )).body.tools;
      const echo = listed.find((x) => x.tool_name === "mcp__test__echo")!;
      deepStrictEqual((echo.input_schema as { required: string[] }).required, ["text"]);
      ok(find(tools, "mcp__test__echo").parameters.safeParse({ text: "x" }).success);
      ok(!find(tools, "mcp__test__echo").parameters.safeParse({ text: 3 }).success);
    });

    await t.step("calls go through the approval flow and return the server's answer", async () => {
      const ctx = fakeCtx();
      const res = await find(tools, "mcp__test__echo").execute({ text: "hi" }, ctx);
      deepStrictEqual(res, { output: "test echo: hi", isError: false });
      deepStrictEqual(ctx.approvals.map((a) => a.patternKey), ["mcp:test:echo"]);
      match(ctx.approvals[0].command, /test\.echo \{"text":"hi"\}/);
      const denied = await find(tools, "mcp__test__echo").execute({ text: "x" }, fakeCtx(false));
      strictEqual(denied.denied, true);
      strictEqual(denied.isError, true);
      match(denied.output, /^BLOCKED: .*: no$/);
      const failed = await find(tools, "mcp__test__fail").execute({ reason: "r" }, fakeCtx());
      deepStrictEqual(failed, { output: "failed: r", isError: true });
    });

    let pid = 0;
    await t.step(
      "the child gets a scrubbed environment plus its own, ${ENV} expanded",
      async () => {
        const res = await find(tools, "mcp__test__pid").execute({}, fakeCtx());
        const info = JSON.parse(res.output) as { pid: number; env: Record<string, string> };
        pid = info.pid;
        strictEqual(info.env.DENO_DIR, DENO_DIR);
        strictEqual(info.env.FIXTURE_TOKEN, "literal-secret-value-9876");
        strictEqual(info.env.HOME, app.ctx.config.home);
        strictEqual(info.env.LANG, "C.UTF-8");
        for (const key of Object.keys(info.env)) {
          ok(!key.startsWith("HERMES_"), `leaked ${key}`);
        }
      },
    );

    await t.step("a cancelled call returns a tool error at once", async () => {
      const ctx = fakeCtx();
      const pending = find(tools, "mcp__test__slow").execute({ ms: 60_000 }, ctx);
      setTimeout(() => ctx.abort.abort(), 50);
      const res = await pending;
      strictEqual(res.isError, true);
      match(res.output, /cancelled/);
      strictEqual((await servers(app))[0].status, "connected");
    });

    await t.step("killing the server mid-call gives a tool error and status error", async () => {
      const pending = find(tools, "mcp__test__slow").execute({ ms: 60_000 }, fakeCtx());
      setTimeout(() => Deno.kill(pid, "SIGKILL"), 100);
      const res = await pending;
      strictEqual(res.isError, true);
      match(res.output, /MCP server "test" stopped during slow/);
      const [row] = await servers(app);
      strictEqual(row.status, "error");
      strictEqual(row.tool_count, 0);
      match(row.last_error!, /stopped/);
      ok(row.retry_at !== null);
      deepStrictEqual(await loadMcpTools(app.ctx.mcp), [], "backoff: no retry right away");
      const again = await find(tools, "mcp__test__echo").execute({ text: "x" }, fakeCtx());
      strictEqual(again.isError, true);
      match(again.output, /unavailable/);
    });

    await t.step("POST /api/mcp/reload restarts the server and clears its backoff", async () => {
      const res = await app.call<{ ok: boolean; servers: McpServerStatus[] }>(
        "POST",
        "/api/mcp/reload",
        { name: "test" },
      );
      strictEqual(res.status, 200);
      strictEqual(res.body.servers[0].status, "connected");
      strictEqual(res.body.servers[0].retry_at, null);
      const fresh = await loadMcpTools(app.ctx.mcp);
      const out = await find(fresh, "mcp__test__add").execute({ a: 2, b: 3 }, fakeCtx());
      deepStrictEqual(out, { output: "5", isError: false });
      strictEqual((await app.call("POST", "/api/mcp/reload", { name: "nope" })).status, 404);
    });

    await t.step("a server that exits during a call gives a tool error", async () => {
      const fresh = await loadMcpTools(app.ctx.mcp);
      const res = await find(fresh, "mcp__test__crash").execute({}, fakeCtx());
      strictEqual(res.isError, true);
      match(res.output, /stopped during crash/);
      strictEqual((await servers(app))[0].status, "error");
    });
  } finally {
    await app.close();
  }
});

Deno.test("MCP per-call timeout returns a tool error and keeps the server", async () => {
  const app = await appWith(stdioServer("test", "    timeout: 0.3\n    approval: allow\n"));
  try {
    const tools = await loadMcpTools(app.ctx.mcp);
    const ctx = fakeCtx();
    const res = await find(tools, "mcp__test__slow").execute({ ms: 30_000 }, ctx);
    strictEqual(res.isError, true);
    match(res.output, /timed out after 0.3 s/);
    strictEqual(ctx.approvals.length, 0, "approval: allow never asks");
    const echo = await find(tools, "mcp__test__echo").execute({ text: "still" }, ctx);
    deepStrictEqual(echo, { output: "test echo: still", isError: false });
  } finally {
    await app.close();
  }
});

Deno.test("MCP server that cannot start shows status error and backs off", async () => {
  const app = await appWith(`  broken:\n    command: /nonexistent/mcp-server-binary\n  off:
    command: /nonexistent/other
    enabled: false\n`);
  try {
    deepStrictEqual(await loadMcpTools(app.ctx.mcp), []);
    const rows = await servers(app);
    const broken = rows.find((r) => r.name === "broken")!;
    strictEqual(broken.status, "error");
    match(broken.last_error!, /Cannot connect/);
    ok(broken.retry_at! > app.ctx.clock());
    const off = rows.find((r) => r.name === "off")!;
    deepStrictEqual([off.status, off.enabled, off.last_error], ["configured", false, null]);
  } finally {
    await app.close();
  }
});

Deno.test("MCP over Streamable HTTP: headers, call, server shutdown and reload", async (t) => {
  let http = startHttpMcpServer("web");
  const port = http.port;
  const app = await appWith(
    `  web:
    url: http://127.0.0.1:${port}/mcp
    approval: allow
    timeout: 60
    headers:
      Authorization: Bearer \${WEB_TOKEN}
      X-Static: static-secret-value-1234
`,
    { WEB_TOKEN: "tok-abcdefghijklmnop" },
  );
  try {
    let tools: ToolDefinition[] = [];
    await t.step("connects with expanded headers; status shows them masked", async () => {
      tools = await loadMcpTools(app.ctx.mcp);
      strictEqual(tools.length, 6);
      const res = await find(tools, "mcp__web__echo").execute({ text: "hey" }, fakeCtx());
      deepStrictEqual(res, { output: "web echo: hey", isError: false });
      ok(http.requests.length > 0);
      for (const r of http.requests) {
        strictEqual(r.headers.get("authorization"), "Bearer tok-abcdefghijklmnop");
      }
      const [row] = await servers(app);
      strictEqual(row.transport, "http");
      strictEqual(row.headers!.Authorization, "Bearer ${WEB_TOKEN}");
      ok(!row.headers!["X-Static"].includes("static-secret"));
    });

    await t.step("a server that goes away mid-call gives a tool error", async () => {
      const pending = find(tools, "mcp__web__slow").execute({ ms: 60_000 }, fakeCtx());
      await new Promise((r) => setTimeout(r, 100));
      await http.shutdown();
      const res = await pending;
      strictEqual(res.isError, true);
      match(res.output, /MCP server "web" stopped during slow/);
      const [row] = await servers(app);
      strictEqual(row.status, "error");
    });

    await t.step("reload reconnects once the server is back", async () => {
      http = startHttpMcpServer("web2");
      // Same port is not guaranteed; point the config at the new one through the API.
      const put = await app.call("PUT", "/api/mcp/servers/web", {
        url: `http://127.0.0.1:${http.port}/mcp`,
        approval: "allow",
        headers: { Authorization: "Bearer ${WEB_TOKEN}" },
      });
      strictEqual(put.status, 200);
      const res = await app.call<{ servers: McpServerStatus[] }>("POST", "/api/mcp/reload", {});
      strictEqual(res.body.servers[0].status, "connected");
      const fresh = await loadMcpTools(app.ctx.mcp);
      deepStrictEqual(
        await find(fresh, "mcp__web__echo").execute({ text: "back" }, fakeCtx()),
        { output: "web2 echo: back", isError: false },
      );
    });
  } finally {
    await app.close();
    await http.shutdown();
  }
});

Deno.test("MCP HTTP servers at cloud metadata addresses are refused", async () => {
  const app = await appWith(
    `  meta:\n    url: http://169.254.169.254/mcp\n    connect_timeout: 2\n`,
  );
  try {
    await loadMcpTools(app.ctx.mcp);
    const [row] = await servers(app);
    strictEqual(row.status, "error");
    match(row.last_error!, /Refusing http:\/\/169\.254\.169\.254.*metadata/);
  } finally {
    await app.close();
  }
});

Deno.test("mcpToolName() fits provider limits and keeps names distinct", () => {
  strictEqual(mcpToolName("test", "echo"), "mcp__test__echo");
  strictEqual(mcpToolName("my.server", "do it"), "mcp__my_server__do_it");
  const long = mcpToolName("s".repeat(40), "t".repeat(40));
  ok(long.length <= 64);
  ok(long !== mcpToolName("s".repeat(40), "t".repeat(39) + "u"));
});

const CONFIG = `${TEMPLATED_CONFIG}  remote:
    url: https://mcp.example.com/mcp
    headers:
      Authorization: Bearer sk-live-abcdefghijklmnop
`;

// deno-lint-ignore no-explicit-any
function parseYaml(text: string): Record<string, Record<string, any>> {
  return parseDocument(text, { merge: true }).toJS();
}

Deno.test("MCP config routes edit config.yaml without disturbing anything else", async (t) => {
  const app = await createTestApp({ configYaml: CONFIG });
  const read = () => Deno.readTextFile(app.ctx.config.configPath);
  try {
    await t.step("PUT of one templated server keeps comments, ${ENV} and the sibling", async () => {
      const res = await app.call<{ created: boolean; server: McpServerStatus }>(
        "PUT",
        "/api/mcp/servers/github",
        {
          command: "npx",
          args: ["-y", "server-github", "--verbose"],
          env: { GITHUB_TOKEN: "${GITHUB_TOKEN}", EXTRA: "1" },
          approval: "allow",
        },
      );
      strictEqual(res.status, 200);
      strictEqual(res.body.created, false);
      strictEqual(res.body.server.approval, "allow");
      const text = await read();
      match(text, /# Hermes config — written by hand/);
      match(text, /# keep me/);
      const value = parseYaml(text);
      deepStrictEqual(value.mcp_servers.github, {
        command: "npx",
        env: { GITHUB_TOKEN: "${GITHUB_TOKEN}", EXTRA: "1" },
        args: ["-y", "server-github", "--verbose"],
        approval: "allow",
      });
      deepStrictEqual(value.mcp_servers.other, {
        command: "npx",
        env: { GITHUB_TOKEN: "${GITHUB_TOKEN}" },
        args: ["-y", "other"],
      });
      match(text, /other:\n {4}<<: \*node/);
      deepStrictEqual(app.ctx.config.file.model, { default: "gpt-4o" });
    });

    await t.step("a masked secret sent back keeps the stored value", async () => {
      const row = (await servers(app)).find((s) => s.name === "remote")!;
      const shown = row.headers!.Authorization;
      ok(!shown.includes("abcdefghijkl"), shown);
      const res = await app.call("PUT", "/api/mcp/servers/remote", {
        url: "https://mcp.example.com/v2/mcp",
        headers: { Authorization: shown },
      });
      strictEqual(res.status, 200);
      const value = parseYaml(await read());
      deepStrictEqual(value.mcp_servers.remote, {
        url: "https://mcp.example.com/v2/mcp",
        headers: { Authorization: "Bearer sk-live-abcdefghijklmnop" },
      });
    });

    await t.step("PUT validates the body and names the field", async () => {
      const before = await read();
      const bad = await app.call<{ error: string }>("PUT", "/api/mcp/servers/x", { args: [] });
      strictEqual(bad.status, 400);
      match(bad.body.error, /command/);
      const both = await app.call("PUT", "/api/mcp/servers/x", { command: "a", url: "http://b" });
      strictEqual(both.status, 400);
      const scheme = await app.call("PUT", "/api/mcp/servers/x", { url: "file:///etc/passwd" });
      strictEqual(scheme.status, 400);
      const unknown = await app.call("PUT", "/api/mcp/servers/x", { command: "a", shell: true });
      strictEqual(unknown.status, 400);
      const name = await app.call("PUT", "/api/mcp/servers/..%2Fetc", { command: "a" });
      strictEqual(name.status, 400);
      strictEqual(await read(), before);
    });

    await t.step("PATCH toggles enabled; DELETE removes; unknown names are 404", async () => {
      const res = await app.call<{ server: McpServerStatus }>(
        "PATCH",
        "/api/mcp/servers/other",
        { enabled: false },
      );
      strictEqual(res.status, 200);
      strictEqual(res.body.server.enabled, false);
      strictEqual(parseYaml(await read()).mcp_servers.other.enabled, false);
      strictEqual(
        (await app.call("PATCH", "/api/mcp/servers/nope", { enabled: true })).status,
        404,
      );
      strictEqual((await app.call("PATCH", "/api/mcp/servers/other", {})).status, 400);
      strictEqual((await app.call("DELETE", "/api/mcp/servers/github")).status, 200);
      strictEqual((await app.call("DELETE", "/api/mcp/servers/github")).status, 404);
      const value = parseYaml(await read());
      deepStrictEqual(Object.keys(value.mcp_servers), ["other", "remote"]);
      deepStrictEqual(value["x-templates"].node, {
        command: "npx",
        env: { GITHUB_TOKEN: "${GITHUB_TOKEN}" },
      });
      deepStrictEqual((await servers(app)).map((s) => s.name), ["other", "remote"]);
    });

    await t.step("20 parallel PUTs of different servers never lose one another", async () => {
      const results = await Promise.all(
        Array.from(
          { length: 20 },
          (_, i) => app.call("PUT", `/api/mcp/servers/p${i}`, { command: `cmd-${i}` }),
        ),
      );
      deepStrictEqual(results.map((r) => r.status), Array(20).fill(201));
      const names = Object.keys(parseYaml(await read()).mcp_servers);
      for (let i = 0; i < 20; i++) ok(names.includes(`p${i}`), `p${i} kept`);
      strictEqual((await servers(app)).length, 22);
    });
  } finally {
    await app.close();
  }
});

Deno.test("MCP config writes refuse a malformed config and leave it intact", async () => {
  const app = await createTestApp({ configYaml: "mcp_servers: {}\n" });
  try {
    const broken = "mcp_servers:\n  a: [unclosed\n";
    await Deno.writeTextFile(app.ctx.config.configPath, broken);
    const res = await app.call<{ error: string }>("PUT", "/api/mcp/servers/a", { command: "x" });
    strictEqual(res.status, 400);
    match(res.body.error, /malformed at line \d+/);
    ok(res.body.error.includes(app.ctx.config.configPath));
    strictEqual(await Deno.readTextFile(app.ctx.config.configPath), broken);
  } finally {
    await app.close();
  }
});

Deno.test("MCP tools reach the agent: the model calls mcp__test__echo and gets the result", async () => {
  const fake = startFakeProvider();
  const app = await createTestApp({
    configYaml: `model: {provider: custom, base_url: ${fake.baseUrl}, default: fake-model}
mcp_servers:
${stdioServer("test", "    approval: allow\n")}`,
    env: { DENO_DIR },
  });
  try {
    ensureAgentTools(app);
    const sid = await newSessionId(app);
    fake.enqueue(
      { toolCalls: [{ name: "mcp__test__echo", args: { text: "from the model" } }] },
      { text: "echoed" },
    );
    const events = await runTurn(app, sid, "echo something");
    const complete = events.find((e) => e.event === "tool_complete")!;
    strictEqual(complete.data.name, "mcp__test__echo");
    strictEqual(complete.data.is_error, false);
    strictEqual(complete.data.result_preview, "test echo: from the model");
    strictEqual(events.at(-1)!.event, "stream_end");
    const offered = fake.chatRequests[0].body.tools as Array<
      { function: { name: string; parameters: { properties: Record<string, unknown> } } }
    >;
    const echo = offered.find((t) => t.function.name === "mcp__test__echo")!;
    deepStrictEqual(Object.keys(echo.function.parameters.properties), ["text"]);
    const toolMessage = fake.chatRequests[1].body.messages.find((m: { role: string }) =>
      m.role === "tool"
    );
    strictEqual(toolMessage.content, "test echo: from the model");

    fake.enqueue({ toolCalls: [{ name: "mcp__test__crash", args: {} }] }, { text: "it broke" });
    const crashed = await runTurn(app, sid, "crash it");
    const failed = crashed.find((e) => e.event === "tool_complete")!;
    strictEqual(failed.data.is_error, true);
    match(String(failed.data.result_preview), /stopped during crash/);
    strictEqual(crashed.at(-1)!.event, "stream_end");
    strictEqual((await servers(app))[0].status, "error");
  } finally {
    await app.close();
    await fake.close();
  }
});
