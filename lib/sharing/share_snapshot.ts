// What a share link shows: a frozen, reduced copy of a conversation taken at share time.
// Invariants: the agent's reasoning is never in it; tool arguments and outputs are in it only
// when the user asked (`includeTools`); what file tools read or wrote, and the output of every
// other tool (a shell's `cat notes.txt`, an MCP tool's answer can print any file), only with
// `includeFiles` too; prose is kept as markdown and rendered (inert) when the page is served.
import { type AsyncQueries, sql } from "../storage/db.ts";
import { listMessages } from "../sessions/messages.ts";
import { foldMessages, type ToolCallRecord } from "../shared/transcript_model.ts";

/** Tools whose arguments or output are a file's contents (or a listing of the workspace). */
export const FILE_TOOLS: ReadonlySet<string> = new Set([
  "read_file",
  "write_file",
  "patch",
  "list_directory",
  "search_files",
]);

export interface SharedTool {
  name: string;
  /** The short target the console shows (command, path, query…). */
  target: string;
  status: string;
  /** Arguments and output, present only when the share includes them. */
  args?: string;
  result?: string | null;
  /** True when the details exist but were left out (a file tool without `includeFiles`). */
  withheld?: boolean;
  /** True when the output was left out (any other tool without `includeFiles`). */
  outputWithheld?: boolean;
}

export interface SharedTurn {
  user: { text: string; attachments: string[] } | null;
  /** Tool calls shown (only when the share includes tools). */
  tools: SharedTool[];
  /** Number of tool calls the turn made (shown as a count when tools are left out). */
  toolCount: number;
  /** The assistant's prose, as markdown. */
  segments: string[];
}

export interface ShareSnapshot {
  v: 1;
  title: string;
  turns: SharedTurn[];
}

export interface SnapshotOptions {
  includeTools: boolean;
  includeFiles: boolean;
}

/** Fold every message of `sessionId` into the reduced turns a share shows. */
export async function takeSnapshot(
  db: AsyncQueries,
  sessionId: string,
  title: string,
  opts: SnapshotOptions,
): Promise<ShareSnapshot> {
  const messages = await listMessages(db, sessionId);
  const records = await db.all<ToolCallRecord>(
    sql`SELECT tool_call_id, status, result, duration FROM tool_calls
        WHERE session_id = ${sessionId}`,
  );
  const turns = foldMessages(messages, records).map((t): SharedTurn => ({
    user: t.user ? { text: t.user.text, attachments: t.user.attachments } : null,
    toolCount: t.tools.length,
    tools: opts.includeTools
      ? t.tools.map((tool) => {
        const base = { name: tool.name, target: tool.target, status: tool.status };
        if (opts.includeFiles) return { ...base, args: tool.args, result: tool.result };
        if (FILE_TOOLS.has(tool.name)) return { ...base, withheld: true };
        return { ...base, args: tool.args, outputWithheld: tool.result !== null };
      })
      : [],
    segments: t.segments.map((s) => s.text),
  })).filter((t) => t.user || t.segments.length || t.toolCount);
  return { v: 1, title, turns };
}
