// MCP server configuration: `mcp_servers.<name>` in config.yaml, read from the raw runtime copy
// (`config.file`) and written back through the config writer. Invariants: stored `${ENV}`
// references and masked secrets are never replaced by expanded or masked values; stdio
// servers get a scrubbed environment; fields this console does not know are kept on edit.
import { type Document, isMap, isScalar } from "yaml";
import { z } from "zod";
import { type AppConfig, expandEnvRefs } from "../settings/config.ts";
import {
  type ConfigHost,
  detachAliases,
  editConfig,
  setMasked,
} from "../settings/config_writer.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
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

const stringMap = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
  .transform((m) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, String(v)])));

/** The body of `PUT /api/mcp/servers/{name}`: exactly one of `command` or `url`. */
export const serverBodySchema = z.strictObject({
  transport: z.enum(["stdio", "http", "streamable-http", "streamable_http"]).optional(),
  command: z.string().trim().min(1).max(4096).optional(),
  args: z.array(z.string().max(8192)).max(256).optional(),
  env: stringMap.optional(),
  cwd: z.string().min(1).max(4096).optional(),
  url: z.string().trim().min(1).max(4096).optional(),
  headers: stringMap.optional(),
  enabled: z.boolean().optional(),
  approval: z.enum(["ask", "allow"]).optional(),
  timeout: z.number().positive().max(86400).optional(),
  connect_timeout: z.number().positive().max(3600).optional(),
}).superRefine((v, ctx) => {
  const transport = normalizeTransport(v.transport) ?? (v.url ? "http" : "stdio");
  if (transport === "stdio" && !v.command) {
    ctx.addIssue({ code: "custom", path: ["command"], message: "a stdio server needs a command" });
  }
  if (transport === "http" && !v.url) {
    ctx.addIssue({ code: "custom", path: ["url"], message: "an HTTP server needs a url" });
  }
  if (v.command && v.url) {
    ctx.addIssue({ code: "custom", path: ["url"], message: "give either command or url" });
  }
  if (v.url && !v.url.includes("${")) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(v.url);
    } catch { /* reported below */ }
    if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
      ctx.addIssue({ code: "custom", path: ["url"], message: "must be an http(s) URL" });
    }
  }
});
export type ServerBody = z.infer<typeof serverBodySchema>;

function normalizeTransport(t: unknown): McpTransport | undefined {
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

/** Make `mcp_servers` a block mapping ready for entries, or refuse a section of another type. */
function ensureSection(doc: Document, path: string): void {
  const section = doc.get("mcp_servers", true);
  if (section === undefined || section === null || (isScalar(section) && section.value === null)) {
    doc.set("mcp_servers", doc.createNode({}));
  } else if (!isMap(section)) {
    throw new ValidationError(`"mcp_servers" in ${path} must be a mapping; it was not changed`);
  } else if (section.items.length === 0) section.flow = false;
}

function keysOf(node: unknown): string[] {
  if (!isMap(node)) return [];
  return node.items.map((p) => String(isScalar(p.key) ? p.key.value : p.key));
}

const KNOWN_KEYS = [
  "transport",
  "command",
  "args",
  "env",
  "cwd",
  "url",
  "headers",
  "enabled",
  "approval",
  "timeout",
  "connect_timeout",
] as const;

/**
 * Create or replace one server. Known fields absent from `body` are removed; keys this console
 * does not manage are kept; env/header values echoed back masked keep their stored secret.
 * Returns true when the server was created.
 */
export async function putServer(host: ConfigHost, name: string, body: ServerBody) {
  requireServerName(name);
  return await editConfig(host, (doc) => {
    detachAliases(doc, ["mcp_servers", name]);
    ensureSection(doc, host.config.configPath);
    const base = ["mcp_servers", name];
    const existed = doc.hasIn(base);
    if (!existed || !isMap(doc.getIn(base, true))) doc.setIn(base, doc.createNode({}));
    for (const key of KNOWN_KEYS) {
      if (key === "env" || key === "headers") continue;
      const value = body[key];
      if (value === undefined) doc.deleteIn([...base, key]);
      else doc.setIn([...base, key], doc.createNode(value));
    }
    for (const key of ["env", "headers"] as const) {
      const map = body[key];
      if (map === undefined || Object.keys(map).length === 0) {
        doc.deleteIn([...base, key]);
        continue;
      }
      if (!isMap(doc.getIn([...base, key], true))) {
        doc.setIn([...base, key], doc.createNode({}));
      }
      for (const k of keysOf(doc.getIn([...base, key], true))) {
        if (!(k in map)) doc.deleteIn([...base, key, k]);
      }
      for (const [k, v] of Object.entries(map)) {
        setMasked(doc, [...base, key, k], v, { isMasked: isEchoedMask });
      }
    }
    return !existed;
  });
}

/** Change `enabled` and/or `approval` of an existing server (404 when unknown). */
export async function patchServer(
  host: ConfigHost,
  name: string,
  patch: { enabled?: boolean; approval?: McpApproval },
): Promise<void> {
  await editConfig(host, (doc) => {
    if (!doc.hasIn(["mcp_servers", name])) {
      throw new NotFoundError(`MCP server "${name}" is not configured`);
    }
    detachAliases(doc, ["mcp_servers", name]);
    if (patch.enabled !== undefined) doc.setIn(["mcp_servers", name, "enabled"], patch.enabled);
    if (patch.approval !== undefined) doc.setIn(["mcp_servers", name, "approval"], patch.approval);
  });
}

/** Remove a server (404 when unknown); anything aliasing it keeps its own copy. */
export async function deleteServer(host: ConfigHost, name: string): Promise<void> {
  await editConfig(host, (doc) => {
    if (!doc.hasIn(["mcp_servers", name])) {
      throw new NotFoundError(`MCP server "${name}" is not configured`);
    }
    detachAliases(doc, ["mcp_servers", name]);
    doc.deleteIn(["mcp_servers", name]);
  });
}
