// Test fixtures: a fresh app on a temp state dir and temp workspace per test, driven through
// its fetch handler (no port needed), plus a real loopback server when a test needs HTTP.
import { join } from "node:path";
import { buildApp, type BuiltApp } from "../main.ts";
import { loadConfig } from "../lib/settings/config.ts";
import { createLogger } from "../lib/log.ts";
import { consoleToken } from "../lib/security/request_proof.ts";

export interface TestApp extends BuiltApp {
  stateDir: string;
  workspace: string;
  /** Log lines written by the server (errors and warnings; info is kept too). */
  logs: string[];
  /**
   * Call the app with a path and an optional JSON body (or a raw BodyInit). Like the console's
   * page, it sends the install's proof token (X-Hermes-CSRF-Token) unless `headers` names one
   * or `opts.proof` is false.
   */
  request(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
    opts?: RequestOptions,
  ): Promise<Response>;
  /** Same as request() but returns the parsed JSON and status. */
  call<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
    opts?: RequestOptions,
  ): Promise<{ status: number; body: T }>;
}

export interface RequestOptions {
  /** Send the console token as the page would (default true); false to test refusals. */
  proof?: boolean;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** YAML text written to the config file before start. */
  configYaml?: string;
  clock?: () => number;
  /** Tool runtime overrides (timers, timeouts, bubblewrap path, output caps). */
  tools?: import("../lib/tools/runtime.ts").ToolsRuntimeOptions;
}

export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const root = await Deno.makeTempDir({ prefix: "hermes-test-" });
  const stateDir = join(root, "state");
  const workspace = join(root, "workspace");
  await Deno.mkdir(workspace, { recursive: true });
  const configPath = join(root, "config.yaml");
  if (opts.configYaml !== undefined) await Deno.writeTextFile(configPath, opts.configYaml);
  const config = loadConfig({
    HOME: root,
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HERMES_WEBUI_STATE_DIR: stateDir,
    HERMES_WEBUI_DEFAULT_WORKSPACE: workspace,
    HERMES_CONFIG_PATH: configPath,
    // A fresh app has no provider: `/` would send every page test to the first-run wizard.
    // Onboarding tests pass HERMES_WEBUI_SKIP_ONBOARDING: "" to see it.
    HERMES_WEBUI_SKIP_ONBOARDING: "1",
    ...opts.env,
  });
  const logs: string[] = [];
  const app = await buildApp(config, {
    clock: opts.clock,
    tools: opts.tools,
    log: createLogger({ write: (l) => logs.push(l) }),
  });
  // Scripted turns stay exact: a test that wants model-written titles turns them on.
  app.ctx.runs.configure({ autoTitle: false });
  const request = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
    opts: RequestOptions = {},
  ) => {
    const init: RequestInit = { method, headers: { ...headers } };
    const named = Object.keys(headers).some((k) => k.toLowerCase() === "x-hermes-csrf-token");
    if (opts.proof !== false && !named) {
      (init.headers as Record<string, string>)["x-hermes-csrf-token"] = await consoleToken(
        app.ctx.security,
      );
    }
    if (body !== undefined) {
      if (
        typeof body === "string" || body instanceof Uint8Array || body instanceof FormData ||
        body instanceof ReadableStream
      ) {
        init.body = body as BodyInit;
      } else {
        init.body = JSON.stringify(body);
        (init.headers as Record<string, string>)["content-type"] = "application/json";
      }
    }
    return await app.fetch(new Request(`http://127.0.0.1:8787${path}`, init));
  };
  return {
    ...app,
    stateDir,
    workspace,
    logs,
    request,
    async call<T>(
      method: string,
      path: string,
      body?: unknown,
      headers?: Record<string, string>,
      opts?: RequestOptions,
    ) {
      const res = await request(method, path, body, headers, opts);
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch { /* not JSON */ }
      return { status: res.status, body: parsed as T };
    },
    async close() {
      await app.close();
      await Deno.remove(root, { recursive: true }).catch(() => {});
    },
  };
}

/** Serve a TestApp on a random loopback port (for SSE, browsers, real HTTP clients). */
export function serveTestApp(app: BuiltApp): { url: string; shutdown(): Promise<void> } {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const { port } = server.addr as Deno.NetAddr;
  return { url: `http://127.0.0.1:${port}`, shutdown: () => server.shutdown() };
}

/**
 * A test app with one session in its workspace, closed afterwards: the frame of the file-route
 * tests (`fn` gets the app, the session id and the workspace path).
 */
export async function withWorkspaceSession(
  fn: (app: TestApp, sid: string, ws: string) => Promise<void>,
  env?: Record<string, string>,
): Promise<void> {
  const app = await createTestApp({ env });
  try {
    const { createSession } = await import("../lib/sessions/sessions.ts");
    const sid =
      (await createSession(app.ctx.db, app.ctx.clock, { workspace: app.workspace })).session_id;
    await fn(app, sid, app.workspace);
  } finally {
    await app.close();
  }
}
