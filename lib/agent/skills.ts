// Skills: folders holding a SKILL.md (YAML front matter `name`, `description`, `enabled`, then
// Markdown instructions) under `<stateDir>/skills` and, when present, `~/.hermes/skills` (one
// category level deep allowed). Invariants: a skill is addressed only by a validated folder
// name (never a path); the console's own folder wins a name clash; writes are atomic.
import { dirname, join } from "node:path";
import { isMap, parseDocument } from "yaml";
import type { AppConfig } from "../settings/config.ts";
import type { AsyncQueries } from "../storage/db.ts";
import { contentText, listMessages } from "../sessions/messages.ts";
import { NotFoundError, ValidationError } from "../errors.ts";

export const SKILL_NAME_RE = /^[a-z0-9][a-z0-9._-]{0,63}$/;
export const MAX_SKILL_BYTES = 256 * 1024;
const MAX_DESCRIPTION_CHARS = 300;

export interface Skill {
  name: string;
  description: string;
  enabled: boolean;
  /** "state" (the console's skills folder) or "hermes" (~/.hermes/skills). */
  source: "state" | "hermes";
  /** The skill's folder (absolute). */
  dir: string;
  /** Front matter `category`, else the category folder it sits in, else null. */
  category?: string | null;
}

/** The public shape of a skill (its folder path stays on the server). */
export function skillJson(
  s: Skill,
): Pick<Skill, "name" | "description" | "enabled" | "source"> & { category: string | null } {
  return {
    name: s.name,
    description: s.description,
    enabled: s.enabled,
    source: s.source,
    category: s.category ?? null,
  };
}

/** Where skills live, in precedence order; the first is where new skills are created. */
export function skillRoots(config: AppConfig): Array<{ dir: string; source: Skill["source"] }> {
  return [
    { dir: join(config.stateDir, "skills"), source: "state" },
    { dir: join(config.home, ".hermes", "skills"), source: "hermes" },
  ];
}

/** Refuse anything but a plain folder name (no separators, no `..`, lower case). */
export function requireSkillName(name: unknown): string {
  if (typeof name !== "string" || !SKILL_NAME_RE.test(name) || name.includes("..")) {
    throw new ValidationError(
      `Invalid skill name ${JSON.stringify(name)}: use 1-64 lower-case letters, digits, ".", ` +
        `"_" or "-", starting with a letter or digit`,
      "name",
    );
  }
  return name;
}

/** Split SKILL.md into its front matter (raw YAML, or null) and body. */
export function splitFrontMatter(text: string): { front: string | null; body: string } {
  const m = text.match(/^\uFEFF?---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/);
  if (!m) return { front: null, body: text };
  return { front: m[1], body: text.slice(m[0].length) };
}

/** Parse the front matter; a malformed one is reported with the skill's name. */
function frontMatterOf(name: string, front: string | null): Record<string, unknown> {
  if (front === null || front.trim() === "") return {};
  const doc = parseDocument(front);
  if (doc.errors.length > 0) {
    throw new ValidationError(
      `Skill "${name}" has malformed front matter: ${doc.errors[0].message.split("\n")[0]}`,
      "content",
    );
  }
  const value = doc.toJS();
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw new ValidationError(`Skill "${name}" front matter must be a YAML mapping`, "content");
  }
  return value as Record<string, unknown>;
}

/** Read the metadata of one SKILL.md text. */
export function describeSkill(
  name: string,
  text: string,
): { description: string; enabled: boolean; category?: string } {
  const { front, body } = splitFrontMatter(text);
  const meta = frontMatterOf(name, front);
  let description = typeof meta.description === "string" ? meta.description.trim() : "";
  if (!description) {
    const line = body.split("\n").map((l) => l.replace(/^#+\s*/, "").trim()).find(Boolean);
    description = line ?? "";
  }
  description = description.replace(/\s+/g, " ");
  if (description.length > MAX_DESCRIPTION_CHARS) {
    description = description.slice(0, MAX_DESCRIPTION_CHARS - 1) + "…";
  }
  const category = typeof meta.category === "string" && meta.category.trim()
    ? meta.category.trim().slice(0, 64)
    : undefined;
  return {
    description,
    enabled: meta.enabled !== false && meta.enabled !== "false",
    ...(category ? { category } : {}),
  };
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

async function subdirs(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) if (e.isDirectory) out.push(e.name);
  } catch { /* missing root */ }
  return out.sort();
}

/** Every skill folder, by name (first root wins; a category level is searched too). */
async function skillDirs(
  config: AppConfig,
): Promise<Map<string, Omit<Skill, "description" | "enabled">>> {
  const found = new Map<string, Omit<Skill, "description" | "enabled">>();
  // A skill one level down sits in a category folder (skills/<category>/<skill>/SKILL.md).
  for (const root of skillRoots(config)) {
    for (const entry of await subdirs(root.dir)) {
      const direct = join(root.dir, entry);
      if (await isFile(join(direct, "SKILL.md"))) {
        if (SKILL_NAME_RE.test(entry) && !found.has(entry)) {
          found.set(entry, { name: entry, source: root.source, dir: direct });
        }
        continue;
      }
      for (const inner of await subdirs(direct)) {
        const dir = join(direct, inner);
        if (SKILL_NAME_RE.test(inner) && !found.has(inner) && await isFile(join(dir, "SKILL.md"))) {
          found.set(inner, { name: inner, source: root.source, dir, category: entry });
        }
      }
    }
  }
  return found;
}

/** All skills, sorted by name. A skill whose SKILL.md cannot be parsed is listed, disabled. */
export async function listSkills(config: AppConfig): Promise<Skill[]> {
  const out: Skill[] = [];
  for (const s of (await skillDirs(config)).values()) {
    try {
      const text = await Deno.readTextFile(join(s.dir, "SKILL.md"));
      const meta = describeSkill(s.name, text);
      out.push({ ...s, ...meta, category: meta.category ?? s.category ?? null });
    } catch (err) {
      out.push({ ...s, description: `(unreadable: ${(err as Error).message})`, enabled: false });
    }
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** One skill and its SKILL.md text; unknown → NotFoundError. */
export async function readSkill(
  config: AppConfig,
  name: string,
): Promise<Skill & { content: string }> {
  requireSkillName(name);
  const s = (await skillDirs(config)).get(name);
  if (!s) throw new NotFoundError(`Skill "${name}" not found`);
  const content = await Deno.readTextFile(join(s.dir, "SKILL.md"));
  let meta = { description: "", enabled: false };
  try {
    meta = describeSkill(name, content);
  } catch { /* shown disabled; the editor can fix it */ }
  return { ...s, ...meta, content };
}

async function writeAtomic(path: string, text: string): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    await Deno.writeTextFile(tmp, text);
    await Deno.rename(tmp, path);
  } catch (err) {
    await Deno.remove(tmp).catch(() => {});
    throw err;
  }
}

/**
 * Create or replace a skill's SKILL.md (where it already lives, else in the console's folder).
 * Content without front matter gets one naming the skill, so the list has a description.
 */
export async function saveSkill(config: AppConfig, name: string, content: string): Promise<Skill> {
  requireSkillName(name);
  if (new TextEncoder().encode(content).length > MAX_SKILL_BYTES) {
    throw new ValidationError(`Skill "${name}" is larger than ${MAX_SKILL_BYTES} bytes`, "content");
  }
  if (content.trim() === "") throw new ValidationError("Skill content is empty", "content");
  let text = content.endsWith("\n") ? content : content + "\n";
  const { front } = splitFrontMatter(text);
  if (front === null) {
    const { description } = describeSkill(name, text);
    text = `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n\n${text}`;
  } else frontMatterOf(name, front);
  const existing = (await skillDirs(config)).get(name);
  const dir = existing?.dir ?? join(skillRoots(config)[0].dir, name);
  await writeAtomic(join(dir, "SKILL.md"), text);
  const { description, enabled } = describeSkill(name, text);
  return { name, description, enabled, source: existing?.source ?? "state", dir };
}

/** Delete a skill's folder (supporting files included). Unknown → NotFoundError. */
export async function deleteSkill(config: AppConfig, name: string): Promise<void> {
  requireSkillName(name);
  const s = (await skillDirs(config)).get(name);
  if (!s) throw new NotFoundError(`Skill "${name}" not found`);
  await Deno.remove(s.dir, { recursive: true });
}

/** Set `enabled` in the front matter, keeping its other keys and comments. */
export async function toggleSkill(
  config: AppConfig,
  name: string,
  enabled: boolean,
): Promise<Skill> {
  const skill = await readSkill(config, name);
  const { front, body } = splitFrontMatter(skill.content);
  const doc = parseDocument(front ?? "");
  if (doc.errors.length > 0 || (doc.contents !== null && !isMap(doc.contents))) {
    throw new ValidationError(`Skill "${name}" has malformed front matter; fix it first`, "name");
  }
  if (doc.contents === null) doc.set("name", name);
  if (enabled) doc.delete("enabled");
  else doc.set("enabled", false);
  const text = `---\n${doc.toString({ lineWidth: 0 }).trimEnd()}\n---\n${
    front === null ? "\n" : ""
  }${body}`;
  await writeAtomic(join(skill.dir, "SKILL.md"), text);
  return { ...skill, ...describeSkill(name, text) };
}

/** Supporting files of a skill (relative paths, at most `limit`), for the skill tool. */
export async function skillFiles(dir: string, limit = 50): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string, depth: number) => {
    if (depth > 3 || out.length >= limit) return;
    for await (const e of Deno.readDir(join(dir, rel))) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory) await walk(path, depth + 1);
      else if (e.isFile && path !== "SKILL.md" && out.length < limit) out.push(path);
    }
  };
  await walk("", 0).catch(() => {});
  return out.sort();
}

/** The system prompt's skills section: what exists and how to load it (null when none). */
export async function skillsPromptSection(
  config: AppConfig,
  forced: string[] = [],
  opts: { toolOffered?: boolean } = {},
): Promise<string | null> {
  const skills = (await listSkills(config)).filter((s) => s.enabled);
  const parts: string[] = [];
  if (skills.length > 0 && opts.toolOffered !== false) {
    const lines = skills.slice(0, 200).map((s) => `- ${s.name}: ${s.description}`);
    parts.push(
      `## Skills\nSkills are instructions for specific tasks. When a task matches one, load it ` +
        `with the \`skill\` tool (name) before starting, then follow it.\n${lines.join("\n")}`,
    );
  }
  for (const name of forced) {
    const skill = await readSkill(config, name).catch(() => null);
    if (!skill || !skill.enabled) continue;
    parts.push(
      `## Skill "${name}" (the user asked you to use it for this message)\n` +
        splitFrontMatter(skill.content).body.trim(),
    );
  }
  return parts.length ? parts.join("\n\n") : null;
}

/**
 * `/use <name>` handling: the skill names a message asks for. `/use a b rest…` loads `a`; a
 * message that is only `/use a` applies to the next message too (see `forcedSkills`).
 */
export function parseUseCommand(message: string): { skill: string; rest: string } | null {
  const m = message.match(/^\s*\/use\s+([a-z0-9][a-z0-9._-]{0,63})(?:\s+([\s\S]*))?$/);
  if (!m) return null;
  return { skill: m[1], rest: (m[2] ?? "").trim() };
}

/** Skills forced for the turn answering `latest`, given the user message before it. */
export function forcedSkills(latest: string, previous?: string): string[] {
  const now = parseUseCommand(latest);
  if (now) return [now.skill];
  const before = previous ? parseUseCommand(previous) : null;
  return before && before.rest === "" ? [before.skill] : [];
}

/** The skills section for a session's next turn, honouring `/use` in its latest messages. */
export async function sessionSkillsSection(
  app: { config: AppConfig; db: AsyncQueries },
  sessionId: string,
  opts: { toolOffered?: boolean } = {},
): Promise<string | null> {
  const users = (await listMessages(app.db, sessionId, { limit: 50 }))
    .filter((m) => m.role === "user")
    .map((m) => contentText(m.content));
  const forced = users.length ? forcedSkills(users[users.length - 1], users[users.length - 2]) : [];
  return await skillsPromptSection(app.config, forced, opts);
}
