// The project context files at a workspace's root (AGENTS.md, HERMES.md, .hermes.md, then
// CLAUDE.md): the first present name of each group is read, within a budget, into the system
// prompt and shown in GET /api/memory. Invariants: read through the workspace guard (a context
// file that is a symlink out of the workspace, say to the console's config, is never read); a
// file over the budget is cut with a marker, never refused.
import { resolveInWorkspace } from "../workspace/workspace_paths.ts";

/** Context file names, first match of each group wins. */
export const CONTEXT_FILES = [["AGENTS.md", "HERMES.md", ".hermes.md"], ["CLAUDE.md"]];
export const MAX_CONTEXT_FILE_CHARS = 20_000;

export interface ContextFile {
  name: string;
  path: string;
  /** Epoch seconds, or null when the platform does not say. */
  mtime: number | null;
  size: number;
  /** The text the prompt receives (cut at the budget). */
  text: string;
  truncated: boolean;
}

/** The workspace's context files, one per group, in order. */
export async function readContextFiles(workspace: string): Promise<ContextFile[]> {
  const out: ContextFile[] = [];
  for (const group of CONTEXT_FILES) {
    for (const name of group) {
      try {
        const path = await resolveInWorkspace(workspace, name);
        const stat = await Deno.stat(path);
        if (!stat.isFile) continue;
        const full = await Deno.readTextFile(path);
        const truncated = full.length > MAX_CONTEXT_FILE_CHARS;
        out.push({
          name,
          path,
          mtime: stat.mtime ? stat.mtime.getTime() / 1000 : null,
          size: stat.size,
          text: truncated ? full.slice(0, MAX_CONTEXT_FILE_CHARS) + "\n[… truncated]" : full,
          truncated,
        });
        break;
      } catch {
        // not present, outside the workspace or unreadable: try the next name
      }
    }
  }
  return out;
}

/** The system prompt's project instructions, or null. */
export async function contextFilesPromptSection(workspace: string): Promise<string | null> {
  const files = await readContextFiles(workspace);
  return files.length
    ? files.map((f) => `## ${f.name} (project instructions)\n${f.text.trim()}`).join("\n\n")
    : null;
}
