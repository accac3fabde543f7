// MCP servers as configured: `mcp_servers.<name>` in config.yaml, read from the raw runtime copy
// (`config.file`), masked for display, and the scrubbed environment of a stdio server. The read
// side only: the manager loads this at start, while editing (config.ts: zod, the YAML writer)
// loads with the first request that edits. Invariants: an unusable entry is reported in
// `invalid`, never thrown; `${ENV}` references stay readable when masked.
import { type AppConfig, expandEnvRefs } from "../settings/config.ts";
import { ValidationError } from "../errors.ts";
import { maskSecret } from "../security/secrets.ts";

export type McpTransport = "stdio" | "http";
export type McpApproval = "ask" | "allow";

/** One server as configured (raw strings, `${ENV}` unexpanded). */
export interface McpServerConfig {
  name: string;
  transport: McpTransport;
  enabled: boolean;
  approval: McpApproval;
  command?: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  url?: string;
  headers: Record<string, string>;
  /** Seconds one tool call may take before the agent gets a tool error. */
  timeout: number;
  /** Seconds the initial handshake (spawn + initialize + tools/list) may take. */
  connectTimeout: number;
  /** Set when the entry cannot be used; the server is listed with status "error". */
  invalid?: string;
}

export const DEFAULT_TOOL_TIMEOUT_SECONDS = 120;
export const DEFAULT_CONNECT_TIMEOUT_SECONDS = 30;

/** Server names: they become part of tool names (`mcp__<name>__<tool>`) and URLs. */
export const SERVER_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The transport a `transport` value names, or undefined for an unknown one. */
export function normalizeTransport(t: unknown): McpTransport | undefined {
  if (t === "stdio") return "stdio";
  if (t === "http" || t === "streamable-http" || t === "streamable_http") return "http";
  return undefined;
}

/** Apply a `<<` merge key left in a plain object (parsers without merge support keep it). */
function applyMerge(entry: Record<string, unknown>): Record<string, unknown> {
  const merge = entry["<<"];
  if (merge === undefined) return entry;
  const sources = (Array.isArray(merge) ? merge : [merge]).filter((s) =>
    s && typeof s === "object" && !Array.isArray(s)
  ) as Record<string, unknown>[];
  const out: Record<string, unknown> = {};
  for (const s of [...sources].reverse()) Object.assign(out, applyMerge(s));
  for (const [k, v] of Object.entries(entry)) if (k !== "<<") out[k] = v;
  return out;
}

function asStringMap(value: unknown): Record<string, string> {
  if (!value || typeof value !== "object" || Array.isArray(value)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) out[k] = String(v);
  return out;
}

function positive(value: unknown, fallback: number): number {
  const n = typeof value === "string" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? n : fallback;
}

/** Read one raw entry; problems are reported in `invalid` rather than thrown. */
export function parseServerEntry(name: string, raw: unknown): McpServerConfig {
  const entry = raw && typeof raw === "object" && !Array.isArray(raw)
    ? applyMerge(raw as Record<string, unknown>)
    : {};
  const command = typeof entry.command === "string" ? entry.command : undefined;
  const url = typeof entry.url === "string" ? entry.url : undefined;
  const transport = normalizeTransport(entry.transport) ?? (url && !command ? "http" : "stdio");
  const enabled = entry.enabled === undefined ? true : entry.enabled !== false &&
    entry.enabled !== "false";
  const cfg: McpServerConfig = {
    name,
    transport,
    enabled,
    approval: entry.approval === "allow" ? "allow" : "ask",
    command,
    args: Array.isArray(entry.args) ? entry.args.map(String) : [],
    env: asStringMap(entry.env),
    cwd: typeof entry.cwd === "string" ? entry.cwd : undefined,
    url,
    headers: asStringMap(entry.headers),
    timeout: positive(entry.timeout, DEFAULT_TOOL_TIMEOUT_SECONDS),
    connectTimeout: positive(entry.connect_timeout, DEFAULT_CONNECT_TIMEOUT_SECONDS),
  };
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
    cfg.invalid = "the entry must be a mapping";
  } else if (!SERVER_NAME_RE.test(name)) {
    cfg.invalid = `the name "${name}" may only use letters, digits, ".", "_" and "-"`;
  } else if (transport === "stdio" && !command) cfg.invalid = "a stdio server needs a command";
  else if (transport === "http" && !url) cfg.invalid = "an HTTP server needs a url";
  return cfg;
}

/** Every configured server, in config order. */
export function readServerConfigs(config: AppConfig): McpServerConfig[] {
  const section = config.file.mcp_servers;
  if (!section || typeof section !== "object" || Array.isArray(section)) return [];
  return Object.entries(section as Record<string, unknown>).map(([name, raw]) =>
    parseServerEntry(name, raw)
  );
}

/** Show a stored value without revealing a literal secret; `${ENV}` references stay readable. */
export function maskValue(value: string): string {
  if (/^\s*(\$\{[A-Za-z_][A-Za-z0-9_]*\}\s*)+$/.test(value)) return value;
  if (/^(Bearer|Basic|Token)\s+\S+$/i.test(value)) {
    const [scheme, rest] = value.split(/\s+/, 2);
    return rest.startsWith("${") ? value : `${scheme} ${maskSecret(rest)}`;
  }
  return maskSecret(value);
}

export function maskMap(map: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, maskValue(v)]));
}

/** True when `sent` is exactly what a client was shown for `stored` (so keep `stored`). */
export function isEchoedMask(sent: unknown, stored: unknown): boolean {
  return typeof stored === "string" && sent !== stored && sent === maskValue(stored);
}

/** The child environment: PATH, HOME, LANG from ours plus the server's own, `${ENV}` expanded. */
export function stdioEnvironment(
  cfg: McpServerConfig,
  env: Readonly<Record<string, string>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of ["PATH", "HOME", "LANG"]) if (env[key] !== undefined) out[key] = env[key];
  for (const [k, v] of Object.entries(cfg.env)) out[k] = expandEnvRefs(v, env);
  return out;
}

export function requireServerName(name: string): string {
  if (!SERVER_NAME_RE.test(name)) {
    throw new ValidationError(
      `Invalid MCP server name "${name}": use 1-64 letters, digits, ".", "_" or "-"`,
      "name",
    );
  }
  return name;
}
