// The change a write_file/patch call made, as a unified diff computed on the server (npm `diff`)
// and carried in the tool result and its `tool_complete` event, for the diff view. Invariants:
// only a successful call gets a diff; files are read through the workspace guard (no path
// outside it, no symlink escape); big files or diffs are cut and marked `truncated`.
import { structuredPatch } from "diff";
import { resolveInWorkspace } from "../workspace/workspace_paths.ts";
import type { FileDiff } from "../shared/chat_events.ts";
import type { ToolContext, ToolResult } from "./types.ts";

export type { FileDiff };

/** Files larger than this are not diffed (the card says the file changed, without lines). */
export const MAX_DIFF_FILE_BYTES = 512 * 1024;
/** Diff lines carried at most (context included). */
export const MAX_DIFF_LINES = 2000;

/** A file's text, null when it does not exist, undefined when it cannot be diffed. */
async function readForDiff(workspace: string, path: string): Promise<string | null | undefined> {
  let real: string;
  try {
    real = await resolveInWorkspace(workspace, path, { mustExist: false });
  } catch {
    return undefined;
  }
  try {
    const info = await Deno.stat(real);
    if (!info.isFile || info.size > MAX_DIFF_FILE_BYTES) return undefined;
    const bytes = await Deno.readFile(real);
    if (bytes.includes(0)) return undefined; // binary
    return new TextDecoder().decode(bytes);
  } catch (err) {
    return err instanceof Deno.errors.NotFound ? null : undefined;
  }
}

/** The unified diff from `before` (null: a new file) to `after`, bounded. */
export function fileDiff(path: string, before: string | null, after: string): FileDiff {
  const patch = structuredPatch(path, path, before ?? "", after, "", "", { context: 3 });
  let added = 0;
  let removed = 0;
  let budget = MAX_DIFF_LINES;
  let truncated = false;
  const hunks: FileDiff["hunks"] = [];
  for (const h of patch.hunks) {
    for (const l of h.lines) {
      if (l.startsWith("+")) added++;
      else if (l.startsWith("-")) removed++;
    }
    if (budget <= 0) {
      truncated = true;
      continue;
    }
    const lines = h.lines.filter((l) => !l.startsWith("\\")).slice(0, budget);
    if (lines.length < h.lines.length) truncated = true;
    budget -= lines.length;
    hunks.push({
      old_start: h.oldStart,
      old_lines: h.oldLines,
      new_start: h.newStart,
      new_lines: h.newLines,
      lines,
    });
  }
  return {
    path,
    status: before === null ? "added" : "modified",
    added,
    removed,
    hunks,
    ...(truncated ? { truncated: true } : {}),
  };
}

/** Wrap a file tool's execute so a successful call's result carries its diff. */
export function withDiff<A extends { path: string }>(
  run: (args: A, ctx: ToolContext) => Promise<ToolResult>,
): (args: A, ctx: ToolContext) => Promise<ToolResult> {
  return async (args, ctx) => {
    const before = await readForDiff(ctx.workspace, args.path);
    const result = await run(args, ctx);
    if (result.isError || result.denied || before === undefined) return result;
    const after = await readForDiff(ctx.workspace, args.path);
    if (typeof after !== "string" || after === before) return result;
    return { ...result, diff: fileDiff(args.path, before, after) };
  };
}
