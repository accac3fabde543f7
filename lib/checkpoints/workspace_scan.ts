// A cheap picture of the workspace for the terminal's checkpoints: every regular file's size and
// mtime (no content read), `.gitignore` files respected (nested ones too), `.git` skipped, symlinks
// never followed, protected paths left out. Bounded: past `maxFiles` the scan stops, marked partial.
import { join } from "node:path";
import ignore, { type Ignore } from "ignore";
import { isProtectedPath } from "../workspace/protected_paths.ts";

export interface ScanEntry {
  size: number;
  mtimeMs: number;
}

export interface Scan {
  files: Map<string, ScanEntry>;
  partial: boolean;
}

const ALWAYS_SKIPPED = new Set([".git", ".hg", ".svn"]);

/** Scan `root` (a real path). `protectedPaths` are absolute real paths never entered. */
export async function scanWorkspace(
  root: string,
  opts: { protectedPaths: readonly string[]; maxFiles?: number },
): Promise<Scan> {
  const maxFiles = opts.maxFiles ?? 20_000;
  const files = new Map<string, ScanEntry>();
  let partial = false;
  // Each level's ignore rules, with the folder (relative to root) they apply from.
  const walk = async (rel: string, rules: Array<{ base: string; ig: Ignore }>): Promise<void> => {
    const abs = rel ? join(root, rel) : root;
    let here = rules;
    try {
      const text = await Deno.readTextFile(join(abs, ".gitignore"));
      here = [...rules, { base: rel, ig: ignore().add(text) }];
    } catch { /* none here */ }
    const ignored = (path: string, dir: boolean) =>
      here.some(({ base, ig }) => {
        const sub = base ? path.slice(base.length + 1) : path;
        return sub !== "" && ig.ignores(dir ? `${sub}/` : sub);
      });
    let entries: Deno.DirEntry[];
    try {
      entries = [];
      for await (const e of Deno.readDir(abs)) entries.push(e);
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      if (partial) return;
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isSymlink) continue;
      if (isProtectedPath(join(root, path), opts.protectedPaths)) continue;
      if (e.isDirectory) {
        if (ALWAYS_SKIPPED.has(e.name) || ignored(path, true)) continue;
        await walk(path, here);
      } else if (e.isFile) {
        if (ignored(path, false)) continue;
        let st: Deno.FileInfo;
        try {
          st = await Deno.lstat(join(root, path));
        } catch {
          continue;
        }
        if (!st.isFile) continue;
        if (files.size >= maxFiles) {
          partial = true;
          return;
        }
        files.set(path, { size: st.size, mtimeMs: st.mtime?.getTime() ?? 0 });
      }
    }
  };
  await walk("", []);
  return { files, partial };
}
