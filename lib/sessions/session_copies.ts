// Copies of a session: a duplicate, a branch (fork with a parent link) and a restore from an
// export. Invariants: a copy never shares rows with its source, gets a fresh 12-hex id, and is
// written in one transaction (row, messages, tool calls) so a half-made copy never shows up.
import { type AsyncQueries, sql } from "../storage/db.ts";
import { ValidationError } from "../errors.ts";
import { publishSessionsChanged } from "./session_events.ts";
import { type Clock, newSessionId } from "../ids.ts";
import {
  insertMessageRows,
  listMessages,
  type StoredMessage,
  syncMessageStats,
} from "./messages.ts";
import {
  createSession,
  getSession,
  MAX_PINNED,
  MAX_TITLE_CHARS,
  normalizeTitle,
  type SessionRow,
  type SessionToolCall,
} from "./sessions.ts";

/** Copy `count` leading messages of `src` into a new session with the given title/parent. */
function copySession(
  db: AsyncQueries,
  clock: Clock,
  src: SessionRow,
  opts: { title: string; count?: number; parent?: string | null },
): Promise<SessionRow> {
  return db.transaction(async (tx) => {
    const copy = await createSession(tx, clock, {
      workspace: src.workspace,
      model: src.model,
      model_provider: src.model_provider,
      project_id: src.project_id,
      title: opts.title,
      parent_session_id: opts.parent ?? null,
    });
    const all = await listMessages(tx, src.session_id);
    const msgs = opts.count === undefined ? all : all.slice(0, opts.count);
    await insertMessageRows(tx, copy.session_id, msgs.map((m, i) => ({ ...m, idx: i })));
    await syncMessageStats(tx, copy.session_id, clock());
    return await getSession(tx, copy.session_id);
  });
}

/** A full copy of a session's transcript under a new id ("<title> (copy)"). */
export async function duplicateSession(
  db: AsyncQueries,
  clock: Clock,
  id: string,
): Promise<SessionRow> {
  const src = await getSession(db, id);
  return await copySession(db, clock, src, { title: suffixTitle(src.title, " (copy)") });
}

/**
 * Fork a session: the new session keeps the first `keepCount` messages (all of them when
 * omitted, none for 0), the same workspace/model/project, and records the source as
 * `parent_session_id`. Title: the given one, else "<title> (fork)".
 */
export async function branchSession(
  db: AsyncQueries,
  clock: Clock,
  id: string,
  opts: { keepCount?: number; title?: string } = {},
): Promise<SessionRow> {
  const src = await getSession(db, id);
  const { keepCount } = opts;
  if (keepCount !== undefined && (keepCount < 0 || keepCount > src.message_count)) {
    throw new ValidationError(
      `keep_count ${keepCount} is out of range (session has ${src.message_count} messages)`,
      "keep_count",
    );
  }
  const title = opts.title?.trim() ? opts.title : suffixTitle(src.title, " (fork)");
  return await copySession(db, clock, src, { title, count: keepCount, parent: src.session_id });
}

function suffixTitle(title: string, suffix: string): string {
  const base = Array.from(title).slice(0, MAX_TITLE_CHARS - suffix.length).join("");
  return base + suffix;
}

/** A session as an export file carries it: every compact field is optional. */
export interface RestoreInput {
  workspace: string;
  title?: string;
  model?: string | null;
  model_provider?: string | null;
  created_at?: number;
  updated_at?: number;
  pinned?: boolean;
  archived?: boolean;
  project_id?: string | null;
  parent_session_id?: string | null;
  input_tokens?: number;
  output_tokens?: number;
  estimated_cost?: number | null;
}

/**
 * Recreate a session from an export under a new id, in ONE transaction: row, messages
 * (positions and timestamps as given) and tool calls. A pin over the cap is dropped.
 */
export function restoreSession(
  db: AsyncQueries,
  clock: Clock,
  input: RestoreInput,
  messages: StoredMessage[],
  toolCalls: SessionToolCall[] = [],
): Promise<SessionRow> {
  return db.transaction(async (tx) => {
    const id = newSessionId();
    const now = clock();
    // Count the pins only when asked to pin: a count over every session per import would
    // slow a bulk import down as the table grows.
    const pinned = input.pinned === true &&
      Number(
          (await tx.get<{ n: number | string }>(
            sql`SELECT count(*) AS n FROM sessions WHERE pinned = 1`,
          ))?.n ?? 0,
        ) < MAX_PINNED;
    await tx.run(sql`INSERT INTO sessions (session_id, title, workspace, model, model_provider,
         created_at, updated_at, pinned, pinned_at, archived, project_id, parent_session_id,
         input_tokens, output_tokens, estimated_cost)
       VALUES (${id}, ${normalizeTitle(input.title)}, ${input.workspace}, ${input.model ?? null},
         ${input.model_provider ?? null}, ${input.created_at ?? now}, ${input.updated_at ?? now},
         ${pinned ? 1 : 0}, ${pinned ? now : null}, ${input.archived ? 1 : 0},
         ${input.project_id ?? null}, ${input.parent_session_id ?? null},
         ${input.input_tokens ?? 0}, ${input.output_tokens ?? 0},
         ${input.estimated_cost ?? null})`);
    await insertMessageRows(tx, id, messages);
    await syncMessageStats(tx, id);
    await insertToolCalls(tx, id, toolCalls);
    await publishSessionsChanged(tx, "create", id);
    return await getSession(tx, id);
  });
}

/** Final tool-call states; anything still in flight when exported can never finish here. */
const FINAL_TOOL_STATUSES = new Set(["completed", "error", "denied"]);

async function insertToolCalls(
  db: AsyncQueries,
  sessionId: string,
  calls: SessionToolCall[],
): Promise<void> {
  for (const c of calls) {
    const status = FINAL_TOOL_STATUSES.has(c.status) ? c.status : "error";
    // Replaces a row with the same id whole (diff back to NULL, as INSERT OR REPLACE did).
    await db.run(sql`INSERT INTO tool_calls (session_id, tool_call_id, turn_id, name, args, status,
         result, started_at, duration)
       VALUES (${sessionId}, ${c.tool_call_id}, ${c.turn_id ?? null}, ${c.name},
         ${JSON.stringify(c.args ?? {})}, ${status}, ${c.result ?? null}, ${c.started_at},
         ${c.duration ?? null})
       ON CONFLICT (session_id, tool_call_id) DO UPDATE SET turn_id = excluded.turn_id,
         name = excluded.name, args = excluded.args, status = excluded.status,
         result = excluded.result, started_at = excluded.started_at,
         duration = excluded.duration, diff = NULL`);
  }
}
