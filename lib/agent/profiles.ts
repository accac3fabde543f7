// Profiles: named bundles of how the agent works — default model and provider, a personality,
// the default workspace, which MCP servers it uses, and its own MEMORY.md/USER.md/SOUL.md and
// skills folder (its "home": the state dir for `default`, `<stateDir>/profiles/<name>` for the
// others). Profiles live in config.yaml's `profiles:` section (comment-keeping writer); which
// one is active is console state (`app_state`). Invariants: `default` always exists and cannot
// be deleted; a session keeps the profile it was created under; switching the active profile
// only changes new chats; a profile's files never leave its home.
import { join } from "node:path";
import { type Document, isMap } from "yaml";
import { type AsyncQueries, sql } from "../storage/db.ts";
import type { AppConfig } from "../settings/config.ts";
import { type ConfigHost, detachAliases, editConfig } from "../settings/config_writer.ts";
import { ConflictError, NotFoundError, ValidationError } from "../errors.ts";

export const DEFAULT_PROFILE = "default";
const NAME_RE = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export interface ProfileSettings {
  model: string | null;
  provider: string | null;
  personality: string | null;
  workspace: string | null;
  /** Names of configured MCP servers this profile uses; null = all of them. */
  mcp_servers: string[] | null;
}

export interface Profile extends ProfileSettings {
  name: string;
  /** Where its MEMORY.md, USER.md, SOUL.md and skills/ live. */
  path: string;
  is_default: boolean;
  is_active: boolean;
  skill_count: number;
  session_count: number;
}

export function requireProfileName(name: unknown): string {
  const n = typeof name === "string" ? name.trim() : "";
  if (!NAME_RE.test(n)) {
    throw new ValidationError(
      `Invalid profile name ${JSON.stringify(name)}: 1-64 lower-case letters, digits, "_" or "-"`,
      "name",
    );
  }
  return n;
}

function section(file: Record<string, unknown>): Record<string, Record<string, unknown>> {
  const raw = file.profiles;
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return {};
  const out: Record<string, Record<string, unknown>> = {};
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    if (NAME_RE.test(k)) out[k] = v && typeof v === "object" ? v as Record<string, unknown> : {};
  }
  return out;
}

const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);

function settingsOf(raw: Record<string, unknown>): ProfileSettings {
  const mcp = Array.isArray(raw.mcp_servers)
    ? raw.mcp_servers.filter((s): s is string => typeof s === "string")
    : null;
  return {
    model: str(raw.model),
    provider: str(raw.provider),
    personality: str(raw.personality),
    workspace: str(raw.workspace),
    mcp_servers: mcp,
  };
}

/** The folder holding a profile's memory files and skills. */
export function profileHome(config: Pick<AppConfig, "stateDir">, name: string): string {
  return name === DEFAULT_PROFILE ? config.stateDir : join(config.stateDir, "profiles", name);
}

/**
 * The config as seen by a profile's files: its home stands in for the state dir, so memory and
 * skills (which take the state dir) read and write the profile's own.
 */
export function configForProfile(config: AppConfig, name: string | null | undefined): AppConfig {
  const n = name || DEFAULT_PROFILE;
  return n === DEFAULT_PROFILE ? config : { ...config, stateDir: profileHome(config, n) };
}

/** Every profile's name, `default` first (for filters and pickers). */
export function profileNames(config: AppConfig): string[] {
  return [
    DEFAULT_PROFILE,
    ...Object.keys(section(config.file)).filter((n) => n !== DEFAULT_PROFILE),
  ];
}

export async function activeProfileName(db: AsyncQueries, config: AppConfig): Promise<string> {
  const row = await db.get<{ value: string }>(
    sql`SELECT value FROM app_state WHERE key = 'active_profile'`,
  );
  const name = row?.value ?? DEFAULT_PROFILE;
  return name === DEFAULT_PROFILE || name in section(config.file) ? name : DEFAULT_PROFILE;
}

export async function setActiveProfile(
  db: AsyncQueries,
  config: AppConfig,
  name: string,
): Promise<void> {
  getProfileSettings(config, name);
  await db.run(
    sql`INSERT INTO app_state (key, value) VALUES ('active_profile', ${name})
        ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  );
}

/** The settings of `name` (`default` has its own section too, or none). NotFound if unknown. */
export function getProfileSettings(config: AppConfig, name: string): ProfileSettings {
  const all = section(config.file);
  if (name !== DEFAULT_PROFILE && !(name in all)) {
    throw new NotFoundError(`No profile "${name}"`);
  }
  return settingsOf(all[name] ?? {});
}

export async function sessionProfile(db: AsyncQueries, sessionId: string): Promise<string> {
  const row = await db.get<{ profile: string | null }>(
    sql`SELECT profile FROM sessions WHERE session_id = ${sessionId}`,
  );
  return row?.profile || DEFAULT_PROFILE;
}

async function countSkills(home: string): Promise<number> {
  let n = 0;
  try {
    for await (const e of Deno.readDir(join(home, "skills"))) if (e.isDirectory) n++;
  } catch { /* no skills folder */ }
  return n;
}

export async function listProfiles(db: AsyncQueries, config: AppConfig): Promise<Profile[]> {
  const active = await activeProfileName(db, config);
  const counts = new Map(
    (await db.all<{ p: string; n: number }>(
      sql`SELECT COALESCE(profile, 'default') AS p, count(*) AS n FROM sessions GROUP BY 1`,
    )).map((r) => [r.p, Number(r.n)]),
  );
  const names = [
    DEFAULT_PROFILE,
    ...Object.keys(section(config.file)).filter((n) => n !== DEFAULT_PROFILE),
  ];
  return await Promise.all(names.map(async (name) => {
    const path = profileHome(config, name);
    return {
      name,
      path,
      is_default: name === DEFAULT_PROFILE,
      is_active: name === active,
      skill_count: await countSkills(path),
      session_count: counts.get(name) ?? 0,
      ...getProfileSettings(config, name),
    };
  }));
}

function writeSettings(doc: Document, name: string, s: Partial<ProfileSettings>): void {
  detachAliases(doc, ["profiles", name]);
  if (!isMap(doc.get("profiles", true))) doc.set("profiles", doc.createNode({}));
  if (!isMap(doc.getIn(["profiles", name], true))) {
    doc.setIn(["profiles", name], doc.createNode({}));
  }
  for (const [k, v] of Object.entries(s)) {
    if (v === undefined) continue;
    if (v === null) doc.deleteIn(["profiles", name, k]);
    else doc.setIn(["profiles", name, k], doc.createNode(v));
  }
}

/** Create a profile (its section and its home); `clone_from` copies settings and files. */
export async function createProfile(
  host: ConfigHost,
  name: string,
  settings: Partial<ProfileSettings>,
  cloneFrom?: string | null,
): Promise<void> {
  const n = requireProfileName(name);
  if (n === DEFAULT_PROFILE || n in section(host.config.file)) {
    throw new ConflictError(`A profile named "${n}" exists already`);
  }
  const base = cloneFrom ? getProfileSettings(host.config, requireProfileName(cloneFrom)) : null;
  const home = profileHome(host.config, n);
  await Deno.mkdir(join(home, "skills"), { recursive: true, mode: 0o700 });
  if (cloneFrom) {
    const from = profileHome(host.config, cloneFrom);
    for (const file of ["MEMORY.md", "USER.md", "SOUL.md"]) {
      try {
        await Deno.copyFile(join(from, file), join(home, file));
      } catch { /* not there */ }
    }
  }
  await editConfig(host, (doc) => writeSettings(doc, n, { ...(base ?? {}), ...settings }));
}

/** Change a profile's settings (any profile, `default` included). */
export async function updateProfile(
  host: ConfigHost,
  name: string,
  settings: Partial<ProfileSettings>,
): Promise<void> {
  getProfileSettings(host.config, name);
  await editConfig(host, (doc) => writeSettings(doc, name, settings));
}

/**
 * Delete a profile. Its sessions are kept, as the original keeps them: by default ("move") they
 * go on under `default`, so each still opens, lists and runs (a session naming a profile that no
 * longer exists would have no settings to run with); "delete" removes them instead. Its home
 * folder is kept on disk (memories are not thrown away by a click); only its settings go.
 */
export async function deleteProfile(
  host: ConfigHost & { db: AsyncQueries },
  name: string,
  sessions: "move" | "delete" = "move",
): Promise<{ moved: number; deleted: number }> {
  const n = requireProfileName(name);
  if (n === DEFAULT_PROFILE) throw new ValidationError("The default profile cannot be deleted");
  getProfileSettings(host.config, n);
  let moved = 0, deleted = 0;
  if (sessions === "delete") {
    deleted = (await host.db.run(sql`DELETE FROM sessions WHERE profile = ${n}`)).changes;
  } else {
    moved = (await host.db.run(sql`UPDATE sessions SET profile = NULL WHERE profile = ${n}`))
      .changes;
  }
  await editConfig(host, (doc) => {
    detachAliases(doc, ["profiles", n]);
    doc.deleteIn(["profiles", n]);
  });
  await host.db.run(
    sql`DELETE FROM app_state WHERE key = 'active_profile' AND value = ${n}`,
  );
  return { moved, deleted };
}

/** The active profile and its defaults, for a chat being created now. */
export async function newSessionProfile(
  db: AsyncQueries,
  config: AppConfig,
): Promise<ProfileSettings & { name: string }> {
  const name = await activeProfileName(db, config);
  return { name, ...getProfileSettings(config, name) };
}

/** Record a new session's profile (NULL for default) and its personality preset. */
export async function tagSessionProfile(
  db: AsyncQueries,
  sessionId: string,
  profile: { name: string; personality: string | null },
): Promise<void> {
  const name = profile.name === DEFAULT_PROFILE ? null : profile.name;
  await db.run(
    sql`UPDATE sessions SET profile = ${name},
          personality = COALESCE(CAST(${profile.personality} AS TEXT), personality)
        WHERE session_id = ${sessionId}`,
  );
}

/** The public shape of one profile (the original's fields plus ours). */
export function profileJson(p: Profile) {
  return {
    name: p.name,
    path: p.path,
    is_default: p.is_default,
    is_active: p.is_active,
    has_env: false,
    skill_count: p.skill_count,
    session_count: p.session_count,
    model: p.model,
    provider: p.provider,
    personality: p.personality,
    workspace: p.workspace,
    mcp_servers: p.mcp_servers,
  };
}
