// Saved prompts: a library of prompts the composer offers (`/prompt name`), each with
// `{{variables}}` the user fills in before sending. Stored in the `saved_prompts` table by name.
// Invariants: names are unique (saving a name again replaces it); variables are derived from the
// text, never stored apart from it.
import { type AsyncQueries, sql } from "../storage/db.ts";
import { NotFoundError, ValidationError } from "../errors.ts";

export interface SavedPrompt {
  name: string;
  content: string;
  /** `{{name}}` placeholders in order of first appearance. */
  variables: string[];
  created_at: number;
  updated_at: number;
}

const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/;
const VAR_RE = /\{\{\s*([A-Za-z_][A-Za-z0-9_.-]{0,63})\s*\}\}/g;

/** The `{{variables}}` of a prompt, each once. */
export function promptVariables(content: string): string[] {
  return [...new Set([...content.matchAll(VAR_RE)].map((m) => m[1]))];
}

/** Fill `{{variables}}` from `values`; a missing value is a ValidationError naming it. */
export function fillPrompt(content: string, values: Record<string, string>): string {
  const missing = promptVariables(content).filter((v) => values[v] === undefined);
  if (missing.length) {
    throw new ValidationError(`Fill in ${missing.map((m) => `{{${m}}}`).join(", ")}`);
  }
  return content.replace(VAR_RE, (_, v: string) => values[v]);
}

interface PromptRow {
  name: string;
  content: string;
  created_at: number;
  updated_at: number;
}

/** The columns a prompt is read from (named: PostgreSQL tables carry an extra rowid). */
const COLUMNS = sql`name, content, created_at, updated_at`;

function fromRow(r: PromptRow): SavedPrompt {
  const content = String(r.content);
  return {
    name: String(r.name),
    content,
    variables: promptVariables(content),
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  };
}

export async function listPrompts(db: AsyncQueries): Promise<SavedPrompt[]> {
  // lower() rather than COLLATE NOCASE, which PostgreSQL does not have (both fold ASCII only).
  return (await db.all<PromptRow>(
    sql`SELECT ${COLUMNS} FROM saved_prompts ORDER BY lower(name), name`,
  )).map(fromRow);
}

export async function getPrompt(db: AsyncQueries, name: string): Promise<SavedPrompt> {
  const r = await db.get<PromptRow>(sql`SELECT ${COLUMNS} FROM saved_prompts WHERE name = ${name}`);
  if (!r) throw new NotFoundError(`No saved prompt "${name}"`);
  return fromRow(r);
}

/** The trimmed name, once name and text are valid; else a ValidationError naming the field. */
function checkedName(name: string, content: string): string {
  const n = name.trim();
  if (!NAME_RE.test(n)) {
    throw new ValidationError(
      `Invalid prompt name "${name}": 1-64 letters, digits, spaces, ".", "_" or "-"`,
      "name",
    );
  }
  if (!content.trim()) throw new ValidationError("A saved prompt needs some text", "content");
  if (content.length > 100_000) {
    throw new ValidationError("A saved prompt is at most 100,000 characters", "content");
  }
  return n;
}

/** Create or replace the prompt called `name`. */
export async function savePrompt(
  db: AsyncQueries,
  name: string,
  content: string,
  now: number,
): Promise<SavedPrompt> {
  const n = checkedName(name, content);
  await db.run(
    sql`INSERT INTO saved_prompts (name, content, created_at, updated_at)
        VALUES (${n}, ${content}, ${now}, ${now})
        ON CONFLICT (name) DO UPDATE
        SET content = excluded.content, updated_at = excluded.updated_at`,
  );
  return await getPrompt(db, n);
}

/**
 * Create the prompt called `name` only while that name is free: null when it is taken (the
 * existing prompt is left as it is). One statement, so two callers never both get the name.
 */
export async function addPromptIfFree(
  db: AsyncQueries,
  name: string,
  content: string,
  now: number,
): Promise<SavedPrompt | null> {
  const n = checkedName(name, content);
  const res = await db.run(
    sql`INSERT INTO saved_prompts (name, content, created_at, updated_at)
        VALUES (${n}, ${content}, ${now}, ${now})
        ON CONFLICT (name) DO NOTHING`,
  );
  return res.changes === 1 ? await getPrompt(db, n) : null;
}

export async function deletePrompt(db: AsyncQueries, name: string): Promise<void> {
  const res = await db.run(sql`DELETE FROM saved_prompts WHERE name = ${name}`);
  if (res.changes === 0) throw new NotFoundError(`No saved prompt "${name}"`);
}
