// The original Hermes WebUI's saved prompts ({id, label, text, created_at}) over ours (a prompt
// is a unique `name` and its `content`), so its clients save, list and delete prompts here.
// Invariants: `id` and `label` are the prompt's name, `text` its content, in every answer; saving
// in the original's shape always makes a new prompt (as the original does) and never replaces one,
// so a label already in use is saved as "label 2", "label 3", …
import type { AsyncQueries } from "../storage/db.ts";
import { ConflictError } from "../errors.ts";
import { addPromptIfFree, type SavedPrompt } from "./saved_prompts.ts";

/** A saved prompt as both APIs read it: ours plus the original's field names. */
export interface PromptJson extends SavedPrompt {
  id: string;
  label: string;
  text: string;
}

export function promptJson(p: SavedPrompt): PromptJson {
  return { ...p, id: p.name, label: p.name, text: p.content };
}

const NAME_MAX = 64;
/** The original labels an unlabelled prompt with its first 60 characters. */
const LABEL_FROM_TEXT = 60;
/** How many "label N" names are tried before giving up (the original keeps 200 prompts). */
const MAX_SUFFIX = 200;

/**
 * A prompt name made from a free-text label: characters our names do not allow become spaces,
 * and it starts with a letter or digit. A label with nothing usable left is "Prompt".
 */
export function nameFromLabel(label: string): string {
  const cleaned = label
    .replace(/[^A-Za-z0-9 ._-]+/g, " ")
    .replace(/\s+/g, " ")
    .replace(/^[^A-Za-z0-9]+/, "")
    .slice(0, NAME_MAX)
    .trim();
  return cleaned || "Prompt";
}

/**
 * Save a prompt given as the original's `{text, label?}`: the text trimmed, the label (or the
 * text's first 60 characters) as its name, made unique with a number when it is taken.
 */
export async function saveOriginalPrompt(
  db: AsyncQueries,
  body: { text: string; label?: string | null },
  now: number,
): Promise<PromptJson> {
  const text = body.text.trim();
  const base = nameFromLabel(body.label?.trim() || text.slice(0, LABEL_FROM_TEXT));
  for (let n = 1; n <= MAX_SUFFIX; n++) {
    const suffix = n === 1 ? "" : ` ${n}`;
    const name = base.slice(0, NAME_MAX - suffix.length).trimEnd() + suffix;
    const saved = await addPromptIfFree(db, name, text, now);
    if (saved) return promptJson(saved);
  }
  throw new ConflictError(`Too many saved prompts are labelled "${base}"; choose another label`);
}
