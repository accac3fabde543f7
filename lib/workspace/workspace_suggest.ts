// Workspace suggestions for the "add workspace" field: folders used recently by sessions, git
// repositories found under home, and, for a typed path, the folders that complete it.
// Invariants: the home scan is bounded (depth, folders visited, time), never follows symlinks,
// skips hidden and dependency folders; nothing protected (state dir, ~/.hermes, credentials) or
// under a system root is ever suggested.
import { basename, dirname, join } from "node:path";
import { type AsyncQueries, sql } from "../storage/db.ts";
import { isProtectedPath, type ProtectedPathsConfig, realSecretPaths } from "./protected_paths.ts";
import { hasControlChar } from "./workspace_paths.ts";

export const MAX_SUGGESTIONS = 20;
const SCAN_DEPTH = 3;
const SCAN_DIRS = 3000;
const SKIP = new Set(["node_modules", "vendor", "target", "dist", "build", "__pycache__", "venv"]);

export interface SuggestDeps {
  db: AsyncQueries;
  config: ProtectedPathsConfig;
}

/** Git repositories under `home` (breadth-first, bounded), as real paths. */
export async function findGitRepos(home: string, secrets: string[]): Promise<string[]> {
  const found: string[] = [];
  let queue: string[] = [home];
  let visited = 0;
  for (let depth = 0; depth <= SCAN_DEPTH && queue.length; depth++) {
    const next: string[] = [];
    for (const dir of queue) {
      if (++visited > SCAN_DIRS || found.length >= MAX_SUGGESTIONS * 2) return found;
      let isRepo = false;
      const children: string[] = [];
      try {
        for await (const e of Deno.readDir(dir)) {
          if (e.name === ".git") isRepo = true;
          if (!e.isDirectory || e.isSymlink) continue;
          if (e.name.startsWith(".") || SKIP.has(e.name)) continue;
          const child = join(dir, e.name);
          if (!isProtectedPath(child, secrets)) children.push(child);
        }
      } catch {
        continue;
      }
      if (isRepo && dir !== home) {
        found.push(dir);
        continue; // a repo's subfolders are part of it
      }
      next.push(...children.sort());
    }
    queue = next;
  }
  return found;
}

/**
 * GET /api/workspaces/suggest?prefix= → suggestions. An empty prefix gives recent session
 * folders then git repos under home; a prefix starting with `/` or `~` completes that path's
 * folders; any other prefix filters the first list by name.
 */
export async function suggestWorkspaces(deps: SuggestDeps, prefix: string): Promise<string[]> {
  const secrets = await realSecretPaths(deps.config);
  const home = deps.config.home;
  const ok = async (p: string) => {
    if (isProtectedPath(p, secrets) || hasControlChar(p)) return false;
    if (/^\/(etc|usr|bin|sbin|lib|lib64|boot|proc|sys|dev|root|run|snap)(\/|$)/.test(p)) {
      return false;
    }
    try {
      return (await Deno.stat(p)).isDirectory;
    } catch {
      return false;
    }
  };
  const out: string[] = [];
  const push = async (p: string) => {
    if (out.length < MAX_SUGGESTIONS && !out.includes(p) && await ok(p)) out.push(p);
  };
  if (prefix.startsWith("/") || prefix.startsWith("~")) {
    const expanded = prefix.startsWith("~") ? join(home, prefix.slice(1)) : prefix;
    const dir = expanded.endsWith("/") ? expanded : dirname(expanded);
    const stem = expanded.endsWith("/") ? "" : basename(expanded);
    const names: string[] = [];
    try {
      for await (const e of Deno.readDir(dir)) {
        if (names.length > 2000) break;
        if (e.isDirectory && !e.isSymlink && e.name.startsWith(stem)) {
          if (e.name.startsWith(".") && !stem.startsWith(".")) continue;
          names.push(e.name);
        }
      }
    } catch { /* unreadable: no completions */ }
    for (const n of names.sort()) await push(join(dir, n));
    return out;
  }
  const recent = (await deps.db.all<{ workspace: string }>(
    sql`SELECT workspace, max(updated_at) AS t FROM sessions
        GROUP BY workspace ORDER BY t DESC LIMIT 50`,
  )).map((r) => r.workspace);
  const repos = await findGitRepos(home, secrets);
  const needle = prefix.toLowerCase();
  for (const p of [...recent, ...repos]) {
    if (needle === "" || p.toLowerCase().includes(needle)) await push(p);
  }
  return out;
}
