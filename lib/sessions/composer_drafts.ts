// The unsent composer draft of a session as the server keeps it (`/api/session/draft`, the
// original's route): `{text, files}`, stored beside the session in `app_state` so typing never
// rewrites the session row or moves its `updated_at`. Invariants: text is at most 50,000
// characters and files at most 50 entries (longer input is clamped, as the original does); a
// draft exists only for a session that exists; drafts of deleted sessions are swept away.
import { type AsyncQueries, parseJsonColumn, sql } from "../storage/db.ts";
import { NotFoundError } from "../errors.ts";
import { findSession } from "./sessions.ts";

export const MAX_DRAFT_TEXT_CHARS = 50_000;
export const MAX_DRAFT_FILES = 50;

export interface ComposerDraft {
  text: string;
  files: unknown[];
}

/** What a client may send: a missing (or null) field keeps the stored value. */
export interface DraftInput {
  text?: unknown;
  files?: unknown;
}

const PREFIX = "composer_draft:";
const EMPTY: ComposerDraft = { text: "", files: [] };

function keyOf(sessionId: string): string {
  return PREFIX + sessionId;
}

function normalize(value: unknown): ComposerDraft {
  if (!value || typeof value !== "object" || Array.isArray(value)) return { ...EMPTY };
  const v = value as Record<string, unknown>;
  return {
    text: typeof v.text === "string" ? v.text.slice(0, MAX_DRAFT_TEXT_CHARS) : "",
    files: Array.isArray(v.files) ? v.files.slice(0, MAX_DRAFT_FILES) : [],
  };
}

async function requireSession(db: AsyncQueries, sessionId: string): Promise<void> {
  if (!(await findSession(db, sessionId))) {
    throw new NotFoundError(`Session "${sessionId}" not found`);
  }
}

async function stored(db: AsyncQueries, sessionId: string): Promise<ComposerDraft | null> {
  const row = await db.get<{ value: string }>(
    sql`SELECT value FROM app_state WHERE key = ${keyOf(sessionId)}`,
  );
  return row ? normalize(parseJsonColumn<unknown>(row.value, null)) : null;
}

/** The session's draft (empty when none was saved). NotFoundError for an unknown session. */
export async function readDraft(db: AsyncQueries, sessionId: string): Promise<ComposerDraft> {
  await requireSession(db, sessionId);
  return (await stored(db, sessionId)) ?? { ...EMPTY };
}

/**
 * Save the draft: a string `text` replaces the text (anything else clears it, as the original
 * coerces), an array `files` replaces the files, an absent or null `files` keeps them. An
 * unchanged draft is not written again (`unchanged: true`).
 */
export async function saveDraft(
  db: AsyncQueries,
  sessionId: string,
  input: DraftInput,
): Promise<{ draft: ComposerDraft; unchanged: boolean }> {
  await requireSession(db, sessionId);
  const current = await stored(db, sessionId);
  const next = normalize({
    text: typeof input.text === "string" ? input.text : "",
    files: input.files === undefined || input.files === null
      ? current?.files ?? []
      : Array.isArray(input.files)
      ? input.files
      : [],
  });
  const encoded = JSON.stringify(next);
  if (current && JSON.stringify(current) === encoded) return { draft: next, unchanged: true };
  await db.run(
    sql`INSERT INTO app_state (key, value) VALUES (${keyOf(sessionId)}, ${encoded})
        ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  );
  return { draft: next, unchanged: false };
}

/** Forget the drafts whose session is gone; returns how many were removed. */
export async function sweepOrphanDrafts(db: AsyncQueries): Promise<number> {
  const rows = await db.all<{ key: string }>(
    sql`SELECT key FROM app_state WHERE key LIKE ${PREFIX + "%"}`,
  );
  let removed = 0;
  for (const { key } of rows) {
    const sessionId = key.slice(PREFIX.length);
    if (await findSession(db, sessionId)) continue;
    removed += (await db.run(sql`DELETE FROM app_state WHERE key = ${key}`)).changes;
  }
  return removed;
}
