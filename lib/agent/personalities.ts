// Personalities: named presets of the agent's voice, `agent.personalities` in config.yaml (the
// original's shape: a name mapped to a prompt string, or to {description, prompt}). A session
// may pick one (`/personality name`, POST /api/personality/set); its prompt then opens the
// system prompt. Invariants: read from the config on every use (edits apply without restart);
// an unknown name is a clear error, never a silent default.
import { type AsyncQueries, sql } from "../storage/db.ts";
import { NotFoundError } from "../errors.ts";
import { BUILTIN_PERSONALITIES } from "./builtin_personalities.ts";

export interface Personality {
  name: string;
  description: string;
  prompt: string;
}

function section(file: Record<string, unknown>): Record<string, unknown> {
  const agent = file.agent && typeof file.agent === "object"
    ? file.agent as Record<string, unknown>
    : {};
  const raw = agent.personalities ?? file.personalities;
  return raw && typeof raw === "object" && !Array.isArray(raw)
    ? raw as Record<string, unknown>
    : {};
}

/**
 * Every personality configured, in config order; with none configured, the built-in presets
 * (lib/agent/builtin_personalities.ts), so the picker is never empty.
 */
export function listPersonalities(file: Record<string, unknown>): Personality[] {
  if (Object.keys(section(file)).length === 0) {
    return BUILTIN_PERSONALITIES.map(([name, description, prompt]) => ({
      name,
      description,
      prompt,
    }));
  }
  const out: Personality[] = [];
  for (const [name, value] of Object.entries(section(file))) {
    if (typeof value === "string") {
      const prompt = value.trim();
      out.push({
        name,
        prompt,
        description: prompt.length > 80 ? `${prompt.slice(0, 80)}...` : prompt,
      });
    } else if (value && typeof value === "object") {
      const v = value as Record<string, unknown>;
      const prompt = String(v.prompt ?? v.system_prompt ?? "").trim();
      out.push({ name, prompt, description: String(v.description ?? "").trim() });
    }
  }
  return out;
}

/** The personality called `name`; NotFoundError names what exists. */
export function getPersonality(file: Record<string, unknown>, name: string): Personality {
  const all = listPersonalities(file);
  const found = all.find((p) => p.name === name);
  if (!found) {
    const known = all.map((p) => p.name).join(", ") || "none are configured";
    throw new NotFoundError(`No personality "${name}" (known: ${known})`);
  }
  return found;
}

/** The session's personality name, or null. */
export async function sessionPersonality(
  db: AsyncQueries,
  sessionId: string,
): Promise<string | null> {
  const row = await db.get<{ personality: string | null }>(
    sql`SELECT personality FROM sessions WHERE session_id = ${sessionId}`,
  );
  return row?.personality ?? null;
}

/** Set (or with null, clear) the session's personality. */
export async function setSessionPersonality(
  db: AsyncQueries,
  sessionId: string,
  name: string | null,
): Promise<void> {
  const res = await db.run(
    sql`UPDATE sessions SET personality = ${name} WHERE session_id = ${sessionId}`,
  );
  if (res.changes === 0) throw new NotFoundError(`Session "${sessionId}" not found`);
}

/** The system prompt's opening for the session's personality, or null. */
export async function personalityPromptSection(
  db: AsyncQueries,
  file: Record<string, unknown>,
  sessionId: string,
): Promise<string | null> {
  const name = await sessionPersonality(db, sessionId);
  if (!name) return null;
  const p = listPersonalities(file).find((x) => x.name === name);
  return p?.prompt ? `## Personality: ${p.name}\n${p.prompt}` : null;
}
