// Protected paths: the console's own secrets (state dir, config.yaml, the .env beside it, all of
// ~/.hermes) and the user's credentials (~/.ssh, ~/.gnupg, ~/.aws, …). Invariant: one decision,
// isProtectedPath(), used by the file tools, the workspace panel and the terminal sandbox's
// masks; a workspace may contain them (home as workspace is common) but never sees or edits them.
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/** What the decision needs from AppConfig. */
export interface ProtectedPathsConfig {
  stateDir: string;
  configPath: string;
  home: string;
}

/**
 * The protected paths as configured (absolute, not resolved). A directory protects everything
 * inside it. Credentials are protected whole (a model must not add an authorized_keys entry any
 * more than read a private key).
 */
export function secretPaths(config: ProtectedPathsConfig): string[] {
  const home = config.home;
  const paths = [
    config.stateDir,
    config.configPath,
    join(dirname(config.configPath), ".env"),
    join(home, ".hermes"),
    join(home, ".ssh"),
    join(home, ".gnupg"),
    join(home, ".aws"),
    join(home, ".netrc"),
    join(home, ".git-credentials"),
    join(home, ".docker", "config.json"),
    join(home, ".kube", "config"),
    join(home, ".config", "gh", "hosts.yml"),
  ];
  return [...new Set(paths.map((p) => resolve(p)))];
}

/** True when `path` is `root` or lies inside it (both absolute, normalized). */
export function isWithinPath(path: string, root: string): boolean {
  if (path === root) return true;
  const rel = relative(root, path);
  return rel !== "" && !isAbsolute(rel) && rel !== ".." && !rel.startsWith(".." + sep);
}

/** True when the absolute real path `path` is, or lies inside, a protected path of `list`. */
export function isProtectedPath(path: string, list: readonly string[]): boolean {
  return list.some((p) => isWithinPath(path, p));
}

/**
 * The real form of `path`: its real path when it exists, else the real path of its nearest
 * existing ancestor joined with the rest (a protected path that does not exist yet must still
 * be refused when something tries to create it).
 */
async function realForm(path: string): Promise<string> {
  const rest: string[] = [];
  let cursor = path;
  while (true) {
    try {
      return join(await Deno.realPath(cursor), ...rest);
    } catch {
      const parent = dirname(cursor);
      if (parent === cursor) return path;
      rest.unshift(cursor.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      cursor = parent;
    }
  }
}

/** Every protected path in both its configured and its real form. */
export async function realSecretPaths(config: ProtectedPathsConfig): Promise<string[]> {
  const out = new Set<string>();
  for (const p of secretPaths(config)) {
    out.add(p);
    out.add(await realForm(p));
  }
  return [...out];
}

/**
 * The protected absolute paths inside `workspace` (real paths, existing or not), for masks:
 * the file tools refuse them, the panel hides them, the terminal sandbox masks the existing ones
 * (lib/sandbox/command_runner.ts). Empty when the workspace holds none.
 */
export async function protectedPathsForWorkspace(
  config: ProtectedPathsConfig,
  workspace: string,
): Promise<string[]> {
  const root = await realForm(resolve(workspace));
  return (await realSecretPaths(config)).filter((p) => isWithinPath(p, root));
}

/**
 * Why `workspace` itself may not be used (it is, or lies inside, a protected path), or null.
 * Such a workspace is refused outright: there would be nothing left to show.
 */
export async function protectedWorkspaceReason(
  config: ProtectedPathsConfig,
  workspace: string,
): Promise<string | null> {
  const root = await realForm(resolve(workspace));
  const hit = (await realSecretPaths(config)).find((p) => isWithinPath(root, p));
  return hit
    ? `"${workspace}" is inside ${hit}, which holds the console's state, configuration or ` +
      `credentials; choose a folder outside it`
    : null;
}

/**
 * `dev:ino` of the protected regular files and of the regular files directly inside protected
 * folders (keys, config, database): a hard link to one of them, anywhere in a workspace, is the
 * same file under an innocent name, so the file tools refuse any file with one of these ids.
 */
export async function protectedFileIds(config: ProtectedPathsConfig): Promise<string[]> {
  const ids = new Set<string>();
  const add = (st: Deno.FileInfo) => {
    if (st.isFile && st.ino !== null) ids.add(`${st.dev}:${st.ino}`);
  };
  for (const p of secretPaths(config)) {
    let st: Deno.FileInfo;
    try {
      st = await Deno.stat(p);
    } catch {
      continue;
    }
    if (!st.isDirectory) {
      add(st);
      continue;
    }
    let n = 0;
    try {
      for await (const e of Deno.readDir(p)) {
        if (++n > 200) break;
        if (e.isFile) add(await Deno.lstat(join(p, e.name)).catch(() => st));
      }
    } catch { /* unreadable: nothing to add */ }
  }
  return [...ids];
}
