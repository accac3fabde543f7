// The per-app MCP client manager: one connection per configured server through the official
// SDK client (stdio or Streamable HTTP), with states configured | connecting | connected |
// error, a connect backoff, and per-call timeouts. Invariants: status/inventory are passive
// (never spawn or probe); a dead or slow server yields an error, never a hung call.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { type AppConfig, expandEnvRefs } from "../settings/config.ts";
import type { Clock } from "../ids.ts";
import type { Logger } from "../log.ts";
import { checkUrl, guardedFetch } from "../security/url_guard.ts";
import {
  maskMap,
  type McpServerConfig,
  readServerConfigs,
  stdioEnvironment,
} from "./server_config.ts";

/**
 * The MCP SDK (with its JSON-schema validator, ~25 MB resident) is imported when the first
 * server connects, not at start-up: most consoles configure no MCP server at all.
 */
let sdk: ReturnType<typeof importSdk> | undefined;
function importSdk() {
  return Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
  ]).then(([client, stdio, http]) => ({
    Client: client.Client,
    StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
  }));
}
const mcpSdk = () =>
  sdk ??= importSdk().catch((err) => {
    sdk = undefined;
    throw err;
  });

export type McpState = "configured" | "connecting" | "connected" | "error";

/** One row of `GET /api/mcp/servers`: secrets masked, nothing probed. */
export interface McpServerStatus {
  name: string;
  transport: "stdio" | "http";
  enabled: boolean;
  approval: "ask" | "allow";
  status: McpState;
  tool_count: number;
  last_error: string | null;
  command?: string;
  args?: string[];
  cwd?: string;
  url?: string;
  env?: Record<string, string>;
  headers?: Record<string, string>;
  timeout: number;
  connect_timeout: number;
  /** Epoch seconds before which a failed server is not retried automatically (null: now). */
  retry_at: number | null;
}

export interface McpToolInfo {
  server: string;
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface McpManagerDeps {
  config: AppConfig;
  log: Logger;
  clock: Clock;
}

interface Connection {
  cfg: McpServerConfig;
  /** Fingerprint of the config the connection was made with; a change means reconnect. */
  key: string;
  state: McpState;
  client?: Client;
  tools: Tool[];
  lastError: string | null;
  failures: number;
  retryAt: number;
  connecting?: Promise<void>;
  /** Aborts the connect attempt in flight (reload, removal, shutdown). */
  abort?: AbortController;
  /** Bumped on every (re)connect and close, so stale callbacks of older clients are ignored. */
  generation: number;
  stderrTail: string[];
}

const BACKOFF_BASE_SECONDS = 5;
const BACKOFF_MAX_SECONDS = 300;
const STDERR_TAIL_LINES = 20;

function fingerprint(cfg: McpServerConfig): string {
  const { enabled: _e, approval: _a, timeout: _t, ...rest } = cfg;
  return JSON.stringify(rest);
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Connections to the MCP servers of one app; closed when the app closes. */
export class McpManager {
  #conns = new Map<string, Connection>();
  #closed = false;

  constructor(private deps: McpManagerDeps) {}

  /** Current configs (re-read from `config.file`, which config writes refresh). */
  configs(): McpServerConfig[] {
    return readServerConfigs(this.deps.config);
  }

  #conn(cfg: McpServerConfig): Connection {
    let conn = this.#conns.get(cfg.name);
    if (!conn) {
      conn = {
        cfg,
        key: fingerprint(cfg),
        state: "configured",
        tools: [],
        lastError: null,
        failures: 0,
        retryAt: 0,
        generation: 0,
        stderrTail: [],
      };
      this.#conns.set(cfg.name, conn);
    }
    conn.cfg = cfg;
    return conn;
  }

  /** Passive status of every configured server. */
  status(): McpServerStatus[] {
    return this.configs().map((cfg) => {
      const conn = this.#conns.get(cfg.name);
      const current = conn && conn.key === fingerprint(cfg) ? conn : undefined;
      let state: McpState = current?.state ?? "configured";
      let lastError = current?.lastError ?? null;
      if (cfg.invalid) {
        state = "error";
        lastError = `Invalid configuration: ${cfg.invalid}`;
      } else if (!cfg.enabled) state = "configured";
      const row: McpServerStatus = {
        name: cfg.name,
        transport: cfg.transport,
        enabled: cfg.enabled,
        approval: cfg.approval,
        status: state,
        tool_count: state === "connected" ? current!.tools.length : 0,
        last_error: lastError,
        timeout: cfg.timeout,
        connect_timeout: cfg.connectTimeout,
        retry_at: current && current.state === "error" && current.retryAt > this.deps.clock()
          ? current.retryAt
          : null,
      };
      if (cfg.transport === "stdio") {
        row.command = cfg.command;
        row.args = cfg.args;
        if (cfg.cwd) row.cwd = cfg.cwd;
        row.env = maskMap(cfg.env);
      } else {
        row.url = cfg.url;
        row.headers = maskMap(cfg.headers);
      }
      return row;
    });
  }

  /** Passive inventory: tools of the servers connected right now (enabled ones only). */
  tools(): McpToolInfo[] {
    const out: McpToolInfo[] = [];
    for (const cfg of this.configs()) {
      const conn = this.#conns.get(cfg.name);
      if (!cfg.enabled || !conn || conn.state !== "connected") continue;
      if (conn.key !== fingerprint(cfg)) continue;
      for (const t of conn.tools) {
        out.push({
          server: cfg.name,
          name: t.name,
          description: t.description ?? "",
          inputSchema: t.inputSchema as Record<string, unknown>,
        });
      }
    }
    return out;
  }

  /**
   * Connect every enabled server that is not connected and not waiting out a backoff, then
   * return the inventory. Used at the start of a turn; failures only show in `status()`.
   */
  async toolsForTurn(): Promise<McpToolInfo[]> {
    await this.reconcile();
    const now = this.deps.clock();
    await Promise.all(
      this.configs().filter((c) => c.enabled && !c.invalid).map((cfg) => {
        const conn = this.#conn(cfg);
        if (conn.state === "connected") return;
        if (conn.state === "error" && conn.retryAt > now) return;
        return this.#connect(conn);
      }),
    );
    return this.tools();
  }

  /** Close connections whose server was removed, disabled or changed (reconnect lazily). */
  async reconcile(): Promise<void> {
    const configs = new Map(this.configs().map((c) => [c.name, c]));
    const closing: Promise<void>[] = [];
    for (const [name, conn] of this.#conns) {
      const cfg = configs.get(name);
      if (!cfg || !cfg.enabled || cfg.invalid || fingerprint(cfg) !== conn.key) {
        closing.push(this.#disconnect(conn));
        if (!cfg) this.#conns.delete(name);
        else {
          conn.key = fingerprint(cfg);
          conn.failures = 0;
          conn.retryAt = 0;
          conn.lastError = null;
        }
      } else conn.cfg = cfg;
    }
    await Promise.all(closing);
  }

  /**
   * Restart the named server (or every enabled one): close it, clear its backoff and connect
   * again. Returns the resulting status rows of the servers reloaded.
   */
  async reload(name?: string): Promise<McpServerStatus[]> {
    await this.reconcile();
    const targets = this.configs().filter((c) => name === undefined ? c.enabled : c.name === name);
    await Promise.all(targets.map(async (cfg) => {
      const conn = this.#conn(cfg);
      await this.#disconnect(conn);
      conn.failures = 0;
      conn.retryAt = 0;
      conn.lastError = null;
      if (cfg.enabled && !cfg.invalid) await this.#connect(conn);
    }));
    const names = new Set(targets.map((t) => t.name));
    return this.status().filter((s) => names.has(s.name));
  }

  /**
   * Call a tool. Resolves with the server's result, or rejects with an Error whose message
   * a model can read: not connected, timed out, cancelled, or the server died mid-call.
   */
  async callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    opts: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<CallToolResult> {
    const cfg = this.configs().find((c) => c.name === server);
    if (!cfg || !cfg.enabled) throw new Error(`MCP server "${server}" is not enabled`);
    const conn = this.#conn(cfg);
    if (conn.key !== fingerprint(cfg)) await this.reconcile();
    if (conn.state !== "connected") {
      if (conn.state === "error" && conn.retryAt > this.deps.clock()) {
        throw new Error(`MCP server "${server}" is unavailable: ${conn.lastError}`);
      }
      await this.#connect(conn);
      if ((conn.state as McpState) !== "connected") {
        throw new Error(`MCP server "${server}" is unavailable: ${conn.lastError}`);
      }
    }
    const client = conn.client!;
    const generation = conn.generation;
    const timeoutMs = opts.timeoutMs ?? cfg.timeout * 1000;
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, {
        signal: opts.signal,
        timeout: timeoutMs,
        maxTotalTimeout: timeoutMs,
        resetTimeoutOnProgress: true,
      });
      return result as CallToolResult;
    } catch (err) {
      if (opts.signal?.aborted) throw new Error(`Call to ${server}.${tool} was cancelled`);
      const died = conn.generation !== generation || conn.state !== "connected";
      const code = (err as { code?: number }).code;
      if (died || code === -32000) {
        const why = conn.lastError ?? message(err);
        throw new Error(`MCP server "${server}" stopped during ${tool}: ${why}`);
      }
      if (code === -32001) {
        throw new Error(`MCP tool ${server}.${tool} timed out after ${timeoutMs / 1000} s`);
      }
      throw new Error(`MCP tool ${server}.${tool} failed: ${message(err)}`);
    }
  }

  #connect(conn: Connection): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (conn.connecting) return conn.connecting;
    const run: Promise<void> = this.#doConnect(conn).finally(() => {
      if (conn.connecting === run) conn.connecting = undefined;
    });
    conn.connecting = run;
    return run;
  }

  async #doConnect(conn: Connection): Promise<void> {
    const cfg = conn.cfg;
    const generation = ++conn.generation;
    conn.state = "connecting";
    conn.stderrTail = [];
    const { Client } = await mcpSdk();
    const client = new Client({ name: "hermes-console", version: "1.0.0" }, {
      capabilities: {},
      listChanged: {
        tools: {
          onChanged: (error: Error | null, tools: Tool[] | null) => {
            if (conn.generation !== generation) return;
            if (error) this.deps.log.warn(`MCP ${cfg.name}: tool list refresh failed`, {});
            else if (tools) conn.tools = tools;
          },
        },
      },
    });
    const timeoutMs = cfg.connectTimeout * 1000;
    const abort = new AbortController();
    conn.abort = abort;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, timeoutMs);
    try {
      const transport = await this.#transport(conn, generation);
      client.onclose = () => this.#onClosed(conn, generation, "the connection closed");
      client.onerror = (err: Error) => {
        if (conn.generation !== generation || conn.state !== "connected") return;
        // The HTTP transport gives up on a broken stream without closing: treat as gone, and
        // close the client so calls in flight fail now instead of at their timeout.
        if (/Maximum reconnection attempts/i.test(message(err))) {
          this.#onClosed(conn, generation, "the server stopped answering");
          client.close().catch(() => {});
        }
      };
      const opts = { signal: abort.signal, timeout: timeoutMs };
      await client.connect(transport, opts);
      const tools: Tool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : {}, opts);
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor && tools.length < 10_000);
      if (conn.generation !== generation) {
        await client.close().catch(() => {});
        return;
      }
      conn.client = client;
      conn.tools = tools;
      conn.state = "connected";
      conn.failures = 0;
      conn.retryAt = 0;
      conn.lastError = null;
      this.deps.log.info(`MCP ${cfg.name}: connected`, { tools: tools.length });
    } catch (err) {
      const reason = timedOut ? `did not answer within ${cfg.connectTimeout} s` : message(err);
      await client.close().catch(() => {});
      if (conn.generation !== generation) return;
      this.#fail(conn, `Cannot connect: ${reason}`);
    } finally {
      clearTimeout(timer);
      if (conn.abort === abort) conn.abort = undefined;
    }
  }

  async #transport(conn: Connection, generation: number): Promise<Transport> {
    const cfg = conn.cfg;
    const env = this.deps.config.env;
    const { StdioClientTransport, StreamableHTTPClientTransport } = await mcpSdk();
    if (cfg.transport === "http") {
      const url = expandEnvRefs(cfg.url!, env);
      // User-configured, so private addresses are fine; metadata/link-local never are.
      await checkUrl(url, { allowPrivate: true });
      const headers = Object.fromEntries(
        Object.entries(cfg.headers).map(([k, v]) => [k, expandEnvRefs(v, env)]),
      );
      for (const v of Object.values(headers)) this.deps.log.addSecret(v);
      return new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers },
        fetch: (input: string | URL, init?: RequestInit) =>
          guardedFetch(input, init, { allowPrivate: true }),
        reconnectionOptions: {
          initialReconnectionDelay: 250,
          maxReconnectionDelay: 2000,
          reconnectionDelayGrowFactor: 2,
          maxRetries: 2,
        },
      });
    }
    const childEnv = stdioEnvironment(cfg, env);
    for (const [k, v] of Object.entries(cfg.env)) {
      if (!/^\s*$/.test(v)) this.#secret(k, childEnv[k]);
    }
    const transport = new StdioClientTransport({
      command: expandEnvRefs(cfg.command!, env),
      args: cfg.args.map((a) => expandEnvRefs(a, env)),
      env: childEnv,
      cwd: cfg.cwd ? expandEnvRefs(cfg.cwd, env) : undefined,
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Uint8Array | string) => {
      if (conn.generation !== generation) return;
      const lines = String(chunk).split("\n").map((l) => l.trimEnd()).filter(Boolean);
      conn.stderrTail.push(...lines);
      if (conn.stderrTail.length > STDERR_TAIL_LINES) {
        conn.stderrTail.splice(0, conn.stderrTail.length - STDERR_TAIL_LINES);
      }
    });
    return transport;
  }

  #secret(name: string, value: string | undefined): void {
    if (value && /key|token|secret|pass|auth/i.test(name)) this.deps.log.addSecret(value);
  }

  #onClosed(conn: Connection, generation: number, why: string): void {
    if (conn.generation !== generation || this.#closed) return;
    if (conn.state !== "connected" && conn.state !== "connecting") return;
    const tail = conn.stderrTail.slice(-3).join(" | ");
    this.#fail(conn, `Server stopped: ${why}${tail ? ` (stderr: ${tail})` : ""}`);
    conn.client = undefined;
  }

  #fail(conn: Connection, reason: string): void {
    conn.state = "error";
    conn.tools = [];
    conn.client = undefined;
    conn.lastError = reason;
    conn.failures += 1;
    const delay = Math.min(BACKOFF_BASE_SECONDS * 2 ** (conn.failures - 1), BACKOFF_MAX_SECONDS);
    conn.retryAt = this.deps.clock() + delay;
    this.deps.log.warn(`MCP ${conn.cfg.name}: ${reason}`, { retry_in_seconds: delay });
  }

  async #disconnect(conn: Connection): Promise<void> {
    conn.generation += 1;
    conn.abort?.abort();
    const pending = conn.connecting;
    conn.connecting = undefined;
    await pending?.catch(() => {});
    const client = conn.client;
    conn.client = undefined;
    conn.tools = [];
    conn.state = "configured";
    if (client) await client.close().catch(() => {});
  }

  /** Close every connection (app shutdown). */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#conns.values()].map((c) => this.#disconnect(c)));
    this.#conns.clear();
  }
}
