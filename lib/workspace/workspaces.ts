// Workspaces: the directories sessions may work in, and the registered list the UI offers.
// Invariants: every stored or accepted workspace is an absolute real path to an existing
// directory; a session's workspace is trusted only when it lies under the home dir, under
// the default workspace, or under a registered workspace, and never inside a system root nor
// inside a protected path (state dir, config, ~/.hermes, credentials: protected_paths.ts). A
// workspace that merely CONTAINS protected paths (home as workspace) is accepted: the file
// tools, the panel and the terminal sandbox mask those paths inside it.
import { basename, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { AppConfig } from "../settings/config.ts";
import { type AsyncQueries, sql } from "../storage/db.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import type { Clock } from "../ids.ts";
import { protectedWorkspaceReason } from "./protected_paths.ts";

export interface Workspace {
  path: string;
  name: string;
}

/** What trust decisions need: the database (registered list) and the configured roots. */
export interface WorkspaceDeps {
  db: AsyncQueries;
  config:
    & Pick<AppConfig, "home" | "defaultWorkspace">
    & Partial<
      Pick<AppConfig, "stateDir" | "configPath">
    >;
}

/** OS directories never accepted as a workspace (nor anything inside them). */
const BLOCKED_ROOTS = [
  "/etc",
  "/usr",
  "/var",
  "/bin",
  "/sbin",
  "/lib",
  "/lib64",
  "/boot",
  "/proc",
  "/sys",
  "/dev",
  "/root",
  "/run",
  "/snap",
];
/** Temp and per-user data roots that live under a blocked root but are fine to use. */
const ALLOWED_UNDER_BLOCKED = ["/var/tmp", "/var/home", "/var/folders", "/private/var/folders"];

function isWithin(path: string, root: string): boolean {
  if (path === root) return true;
  const rel = relative(root, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) && !rel.split(sep).includes("..");
}

function isBlocked(path: string): boolean {
  if (path === "/") return true;
  if (ALLOWED_UNDER_BLOCKED.some((ok) => isWithin(path, ok))) return false;
  return BLOCKED_ROOTS.some((root) => isWithin(path, root));
}

/** Strip one pair of surrounding quotes (Finder's "Copy as Pathname") and expand `~`. */
function expandInput(raw: string, home: string): string {
  let s = raw.trim();
  if (s.length >= 2 && s[0] === s.at(-1) && (s[0] === "'" || s[0] === '"')) s = s.slice(1, -1);
  if (s === "~") return home;
  if (s.startsWith("~/")) return join(home, s.slice(2));
  return s;
}

async function realDirectory(raw: string, home: string): Promise<string> {
  if (typeof raw !== "string" || raw.trim() === "" || raw.includes("\0")) {
    throw new ValidationError("Workspace path is empty or invalid", "workspace");
  }
  const expanded = expandInput(raw, home);
  if (!isAbsolute(expanded)) {
    throw new ValidationError(`Workspace path must be absolute: "${raw}"`, "workspace");
  }
  let real: string;
  try {
    real = await Deno.realPath(resolve(expanded));
  } catch {
    throw new ValidationError(`Workspace path does not exist: "${raw}"`, "workspace");
  }
  const info = await Deno.stat(real);
  if (!info.isDirectory) {
    throw new ValidationError(`Workspace path is not a directory: "${real}"`, "workspace");
  }
  return real;
}

async function realOrSelf(path: string): Promise<string> {
  try {
    return await Deno.realPath(path);
  } catch {
    return resolve(path);
  }
}

/**
 * Validate a directory a person is explicitly adding to the list: it must exist, be a
 * directory and not be a system root. Returns its real path.
 */
export async function validateWorkspaceToAdd(config: WorkspaceDeps["config"], raw: string) {
  return (await realDirectoryOutsideSystem(config, raw)).real;
}

/**
 * The real path of `raw`, refused (400) when it is a system directory; `inHome` says it lies
 * under the home dir, which is trusted even where a system root would otherwise contain it.
 */
async function realDirectoryOutsideSystem(
  config: WorkspaceDeps["config"],
  raw: string,
): Promise<{ real: string; inHome: boolean }> {
  const real = await realDirectory(raw, config.home);
  if (config.stateDir !== undefined && config.configPath !== undefined) {
    const reason = await protectedWorkspaceReason({
      stateDir: config.stateDir,
      configPath: config.configPath,
      home: config.home,
    }, real);
    if (reason) throw new ValidationError(`Workspace path ${reason}`, "workspace");
  }
  const home = await realOrSelf(config.home);
  if (home !== "/" && isWithin(real, home)) return { real, inHome: true };
  if (isBlocked(real)) {
    throw new ValidationError(
      `Workspace path points to a system directory: "${real}"`,
      "workspace",
    );
  }
  return { real, inHome: false };
}

/**
 * Resolve a workspace a session wants to use. Trusted when, after resolving symlinks, it is
 * under the home dir, under the default workspace, or under a registered workspace — and
 * not inside a system root. Anything else is a 400 that names the path.
 */
export async function resolveTrustedWorkspace(deps: WorkspaceDeps, raw: string): Promise<string> {
  const { db, config } = deps;
  const { real, inHome } = await realDirectoryOutsideSystem(config, raw);
  if (inHome) return real;
  const roots = [await realOrSelf(config.defaultWorkspace), ...await registeredPaths(db)];
  if (roots.some((root) => isWithin(real, root))) return real;
  throw new ValidationError(
    `Workspace "${real}" is outside the home directory, the default workspace and the ` +
      `registered workspaces; add it under Settings → Workspaces first`,
    "workspace",
  );
}

async function registeredPaths(db: AsyncQueries): Promise<string[]> {
  return (await db.all<{ path: string }>(sql`SELECT path FROM workspaces`)).map((r) => r.path);
}

/** The default workspace ("Home" unless renamed), then registered ones in the order added. */
export async function listWorkspaces(deps: WorkspaceDeps): Promise<Workspace[]> {
  const rows = await deps.db.all<Workspace>(
    sql`SELECT path, coalesce(name, '') AS name FROM workspaces ORDER BY added_at, rowid`,
  );
  const list = rows.map((r) => ({ path: r.path, name: r.name || basename(r.path) || r.path }));
  const def = await realOrSelf(deps.config.defaultWorkspace);
  const stored = list.find((w) => w.path === def);
  return [stored ?? { path: def, name: "Home" }, ...list.filter((w) => w.path !== def)];
}

/** The workspace used most recently (by session activity), or the default one. */
export async function lastWorkspace(deps: WorkspaceDeps): Promise<string> {
  const row = await deps.db.get<{ workspace: string }>(
    sql`SELECT workspace FROM sessions ORDER BY updated_at DESC LIMIT 1`,
  );
  return row?.workspace ?? deps.config.defaultWorkspace;
}

/**
 * Register a directory (validated, real path). Adding one already listed keeps it and,
 * when a name is given, renames it. Returns the stored entry.
 */
export async function addWorkspace(
  deps: WorkspaceDeps,
  clock: Clock,
  raw: string,
  name?: string | null,
): Promise<Workspace> {
  const path = await validateWorkspaceToAdd(deps.config, raw);
  await registerWorkspace(deps.db, clock, path, name);
  return (await listWorkspaces(deps)).find((w) => w.path === path)!;
}

/** Insert an already-validated real path into the list (no-op if present, unless renamed). */
export async function registerWorkspace(
  db: AsyncQueries,
  clock: Clock,
  path: string,
  name?: string | null,
): Promise<void> {
  const clean = cleanName(name);
  await db.run(
    sql`INSERT INTO workspaces (path, name, added_at) VALUES (${path}, ${clean}, ${clock()})
        ON CONFLICT (path) DO UPDATE SET name = coalesce(excluded.name, workspaces.name)`,
  );
}

function cleanName(name: string | null | undefined): string | null {
  if (name === undefined || name === null) return null;
  const trimmed = name.trim().slice(0, 128);
  return trimmed === "" ? null : trimmed;
}

/**
 * The listed path that user input names (the exact string, else its real path), or a 404.
 * The default workspace is always listed, registered or not.
 */
async function findListed(deps: WorkspaceDeps, raw: string): Promise<string> {
  if (typeof raw !== "string" || raw.trim() === "") {
    throw new ValidationError("Workspace path is empty", "path");
  }
  const listed = (await listWorkspaces(deps)).map((w) => w.path);
  if (listed.includes(raw)) return raw;
  const real = await realOrSelf(expandInput(raw, deps.config.home));
  if (listed.includes(real)) return real;
  throw new NotFoundError(`Workspace "${raw}" is not registered`);
}

/**
 * Remove a directory from the list (sessions using it keep their workspace). The default
 * workspace cannot be removed: it is where new sessions start.
 */
export async function removeWorkspace(deps: WorkspaceDeps, raw: string): Promise<void> {
  const path = await findListed(deps, raw);
  if (path === await realOrSelf(deps.config.defaultWorkspace)) {
    throw new ValidationError(
      `"${path}" is the default workspace (HERMES_WEBUI_DEFAULT_WORKSPACE) and cannot be removed`,
      "path",
    );
  }
  await deps.db.run(sql`DELETE FROM workspaces WHERE path = ${path}`);
}

/** Give a listed workspace a display name (blank falls back to the folder name). */
export async function renameWorkspace(
  deps: WorkspaceDeps,
  clock: Clock,
  raw: string,
  name: string,
): Promise<Workspace> {
  const path = await findListed(deps, raw);
  const clean = cleanName(name);
  await deps.db.transaction(async (tx) => {
    // The default workspace is listed without a row until it is first renamed.
    await registerWorkspace(tx, clock, path);
    await tx.run(sql`UPDATE workspaces SET name = ${clean} WHERE path = ${path}`);
  });
  return (await listWorkspaces(deps)).find((w) => w.path === path)!;
}

/**
 * Put the listed workspaces in the order of `paths` (each must be listed; 400 otherwise). The
 * default workspace stays first; listed ones not named keep their order after the named ones.
 * The order is kept as `added_at` (the list's sort key) rewritten in sequence.
 */
export async function reorderWorkspaces(
  deps: WorkspaceDeps,
  clock: Clock,
  paths: string[],
): Promise<Workspace[]> {
  const listed = (await listWorkspaces(deps)).map((w) => w.path);
  const def = listed[0];
  const seen = new Set<string>();
  for (const p of paths) {
    if (!listed.includes(p)) throw new NotFoundError(`Workspace "${p}" is not registered`);
    if (seen.has(p)) throw new ValidationError(`Workspace "${p}" is named twice`, "paths");
    seen.add(p);
  }
  const order = [
    ...paths.filter((p) => p !== def),
    ...listed.filter((p) => p !== def && !seen.has(p)),
  ];
  const base = clock();
  await deps.db.transaction(async (tx) => {
    await tx.run(sql`UPDATE workspaces SET added_at = ${base - 1} WHERE path = ${def}`);
    for (const [i, p] of order.entries()) {
      await tx.run(sql`UPDATE workspaces SET added_at = ${base + i} WHERE path = ${p}`);
    }
  });
  return await listWorkspaces(deps);
}
