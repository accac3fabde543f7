// What GET /api/memory shows: the agent's files for a profile — MEMORY.md, USER.md and SOUL.md in
// the profile's home — and, for a session, the project context files of its workspace, each with
// its path, mtime, size and the budget that reaches the prompt. Invariant: read-only; writing
// goes through lib/agent/memory.ts (memory, user) or writeSoul (soul).
import { join } from "node:path";
import { MEMORY_SECTIONS, memoryPath, PROMPT_BUDGET, readMemory } from "./memory.ts";
import { SOUL_BUDGET, soulPath } from "./soul.ts";
import { MAX_CONTEXT_FILE_CHARS, readContextFiles } from "./project_context.ts";

export interface MemoryFileInfo {
  section: "memory" | "user" | "soul" | "project";
  name: string;
  path: string;
  exists: boolean;
  mtime: number | null;
  size: number;
  budget: number;
  content: string;
}

async function stat(path: string): Promise<{ mtime: number | null; size: number } | null> {
  try {
    const s = await Deno.stat(path);
    return { mtime: s.mtime ? s.mtime.getTime() / 1000 : null, size: s.size };
  } catch {
    return null;
  }
}

/** The profile home's files, then the workspace's context files when one is given. */
export async function memoryFiles(
  home: string,
  workspace?: string | null,
): Promise<MemoryFileInfo[]> {
  const out: MemoryFileInfo[] = [];
  for (const section of MEMORY_SECTIONS) {
    const path = memoryPath(home, section);
    const s = await stat(path);
    out.push({
      section,
      name: path.slice(path.lastIndexOf("/") + 1),
      path,
      exists: !!s,
      mtime: s?.mtime ?? null,
      size: s?.size ?? 0,
      budget: PROMPT_BUDGET,
      content: await readMemory(home, section),
    });
  }
  const soul = soulPath(home);
  const s = await stat(soul);
  out.push({
    section: "soul",
    name: "SOUL.md",
    path: soul,
    exists: !!s,
    mtime: s?.mtime ?? null,
    size: s?.size ?? 0,
    budget: SOUL_BUDGET,
    content: s ? await Deno.readTextFile(soul) : "",
  });
  if (workspace) {
    for (const f of await readContextFiles(workspace)) {
      out.push({
        section: "project",
        name: f.name,
        path: f.path,
        exists: true,
        mtime: f.mtime,
        size: f.size,
        budget: MAX_CONTEXT_FILE_CHARS,
        content: f.text,
      });
    }
  }
  return out;
}

/** Replace SOUL.md in a profile home (an empty text removes the persona). */
export async function writeSoul(home: string, content: string): Promise<void> {
  if (content.length > 256 * 1024) throw new RangeError("SOUL.md is at most 256 KB");
  await Deno.mkdir(home, { recursive: true });
  const path = soulPath(home);
  if (!content.trim()) {
    await Deno.remove(path).catch(() => {});
    return;
  }
  const tmp = join(home, `.SOUL.md.${crypto.randomUUID().slice(0, 8)}.tmp`);
  await Deno.writeTextFile(tmp, content, { mode: 0o600 });
  await Deno.rename(tmp, path);
}
