// MCP tools as agent tools: each tool of a connected server becomes `mcp__<server>__<tool>`
// with the server's JSON schema. Invariants: every call of an `approval: ask` server goes
// through ctx.requestApproval (pattern key `mcp:<server>:<tool>`); failures, timeouts and dead
// servers come back as tool errors, never as exceptions or hung turns.
import { z } from "zod";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { McpManager, McpToolInfo } from "../mcp/manager.ts";
import type { ToolContext, ToolDefinition, ToolResult } from "./types.ts";

/** Longest tool name the OpenAI and Anthropic APIs accept. */
const MAX_TOOL_NAME = 64;
/** Longest tool output handed back to the model. */
const MAX_OUTPUT_CHARS = 100_000;

function sanitize(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, "_");
}

function shortHash(text: string): string {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0).toString(16).padStart(8, "0").slice(0, 6);
}

/** The agent-facing name of `tool` on `server`, valid for every provider's tool-name rules. */
export function mcpToolName(server: string, tool: string): string {
  const name = `mcp__${sanitize(server)}__${sanitize(tool)}`;
  if (name.length <= MAX_TOOL_NAME) return name;
  return `${name.slice(0, MAX_TOOL_NAME - 7)}_${shortHash(`${server}\0${tool}`)}`;
}

/** The server's JSON schema as a zod schema; a schema zod cannot express accepts any object. */
export function schemaFromJson(schema: Record<string, unknown>): z.ZodType {
  const input = { type: "object", properties: {}, ...schema };
  try {
    return z.fromJSONSchema(input as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return z.record(z.string(), z.unknown());
  }
}

/** Render an MCP result as the text a model reads. */
export function formatMcpResult(result: CallToolResult): string {
  const parts: string[] = [];
  for (const item of result.content ?? []) {
    if (item.type === "text") parts.push(item.text);
    else if (item.type === "image" || item.type === "audio") {
      const bytes = Math.floor((item.data?.length ?? 0) * 3 / 4);
      parts.push(`[${item.type} ${item.mimeType}, ${bytes} bytes]`);
    } else if (item.type === "resource") {
      const r = item.resource as { uri: string; text?: string };
      parts.push(r.text !== undefined ? r.text : `[resource ${r.uri}]`);
    } else if (item.type === "resource_link") parts.push(`[resource link ${item.uri}]`);
  }
  if (parts.length === 0 && result.structuredContent !== undefined) {
    parts.push(JSON.stringify(result.structuredContent, null, 2));
  }
  let text = parts.join("\n");
  if (text.length > MAX_OUTPUT_CHARS) {
    text = `${text.slice(0, MAX_OUTPUT_CHARS)}\n[output truncated: ${text.length} characters]`;
  }
  return text;
}

function preview(args: unknown): string {
  const text = JSON.stringify(args ?? {});
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}

/** One agent tool for one MCP tool; the server's approval policy is read at call time. */
export function mcpToolDefinition(
  manager: McpManager,
  info: McpToolInfo,
  name = mcpToolName(info.server, info.name),
): ToolDefinition<Record<string, unknown>> {
  const description = `${info.description || `Tool "${info.name}"`}\n\n` +
    `(MCP tool "${info.name}" of server "${info.server}")`;
  return {
    name,
    description,
    parameters: schemaFromJson(info.inputSchema) as z.ZodType<Record<string, unknown>>,
    async execute(args, ctx: ToolContext): Promise<ToolResult> {
      const cfg = manager.configs().find((c) => c.name === info.server);
      if (!cfg || !cfg.enabled) {
        return { output: `MCP server "${info.server}" is no longer enabled`, isError: true };
      }
      if (cfg.approval !== "allow") {
        const patternKey = `mcp:${info.server}:${info.name}`;
        const answer = await ctx.requestApproval({
          command: `${info.server}.${info.name} ${preview(args)}`,
          description: `Run MCP tool "${info.name}" on server "${info.server}"`,
          patternKey,
          patternKeys: [patternKey],
        });
        if (!answer.approved) {
          const why = answer.message ? `: ${answer.message}` : "";
          return {
            output: `BLOCKED: the user did not approve ${info.server}.${info.name}${why}`,
            isError: true,
            denied: true,
          };
        }
      }
      try {
        const result = await manager.callTool(info.server, info.name, args ?? {}, {
          signal: ctx.signal,
        });
        return { output: formatMcpResult(result), isError: result.isError === true };
      } catch (err) {
        return { output: (err as Error).message, isError: true };
      }
    },
  };
}

/**
 * Connect the enabled servers (honouring backoff) and return their tools for one turn.
 * Never throws: a server that cannot start simply contributes no tools (its status says why).
 */
export async function loadMcpTools(manager: McpManager): Promise<ToolDefinition[]> {
  let infos: McpToolInfo[];
  try {
    infos = await manager.toolsForTurn();
  } catch {
    infos = manager.tools();
  }
  const seen = new Set<string>();
  const out: ToolDefinition[] = [];
  for (const info of infos) {
    let name = mcpToolName(info.server, info.name);
    if (seen.has(name)) {
      name = `${name.slice(0, MAX_TOOL_NAME - 7)}_${shortHash(name + out.length)}`;
    }
    seen.add(name);
    out.push(mcpToolDefinition(manager, info, name));
  }
  return out;
}
