// MCP server configuration edits: `mcp_servers.<name>` in config.yaml, validated (the PUT body)
// and written back through the config writer (reading is server_config.ts). Invariants: stored
// `${ENV}` references and masked secrets are never replaced by expanded or masked values;
// fields this console does not know are kept on edit.
import { type Document, isMap, isScalar } from "yaml";
import { z } from "zod";
import {
  type ConfigHost,
  detachAliases,
  editConfig,
  setMasked,
} from "../settings/config_writer.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import {
  isEchoedMask,
  type McpApproval,
  normalizeTransport,
  requireServerName,
} from "./server_config.ts";

// The read side lives in server_config.ts (the manager loads it at start without zod or the
// YAML writer); re-exported here for the routes and panels that read and edit together.
export {
  DEFAULT_CONNECT_TIMEOUT_SECONDS,
  DEFAULT_TOOL_TIMEOUT_SECONDS,
  isEchoedMask,
  maskMap,
  maskValue,
  type McpApproval,
  type McpServerConfig,
  type McpTransport,
  parseServerEntry,
  readServerConfigs,
  requireServerName,
  SERVER_NAME_RE,
  stdioEnvironment,
} from "./server_config.ts";

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
