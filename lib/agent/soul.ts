// SOUL.md: who the agent is, in the user's words — a persona file in the profile's home (the
// original's `~/.hermes/SOUL.md`), read into the system prompt within a budget. Invariants:
// read from the profile home only (never a workspace path); a missing file is simply no section.
import { join } from "node:path";

export const SOUL_FILE = "SOUL.md";
export const SOUL_BUDGET = 8_000;

export function soulPath(home: string): string {
  return join(home, SOUL_FILE);
}

/** The system prompt's "who you are" section from SOUL.md, or null. */
export async function soulPromptSection(home: string): Promise<string | null> {
  let text: string;
  try {
    text = (await Deno.readTextFile(soulPath(home))).trim();
  } catch {
    return null;
  }
  if (!text) return null;
  if (text.length > SOUL_BUDGET) text = text.slice(0, SOUL_BUDGET) + "\n[… truncated]";
  return `## Who you are (SOUL.md)\n${text}`;
}
