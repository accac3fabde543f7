// Sessions: one conversation each, a row in `sessions` plus its messages (lib/sessions/messages.ts).
// Invariants: ids are 12 lowercase hex chars; titles are trimmed, ≤80 chars, never blank
// ("Untitled"); at most 3 sessions are pinned; archive/pin/move never touch updated_at;
// deleting cascades (messages, journal, tool calls, approvals, usage) and is idempotent.
// Duplicates, branches and restores live in lib/sessions/session_copies.ts.
import { join } from "node:path";
import { type AsyncQueries, parseJsonColumn, sql } from "../storage/db.ts";
import { ConflictError, NotFoundError, ValidationError } from "../errors.ts";
import { type Clock, newSessionId } from "../ids.ts";
import { listMessages, type StoredMessage, truncateMessages } from "./messages.ts";
import { publishSessionsChanged, type SessionsChangedReason } from "./session_events.ts";

/** The API's "compact" session row (API.md "Sessions"), plus the branch parent. */
export interface SessionRow {
  session_id: string;
  title: string;
  workspace: string;
  model: string | null;
  model_provider: string | null;
  message_count: number;
  created_at: number;
  updated_at: number;
  last_message_at: number | null;
  pinned: boolean;
  archived: boolean;
  project_id: string | null;
  input_tokens: number;
  output_tokens: number;
  estimated_cost: number | null;
  active_stream_id: string | null;
  is_streaming: boolean;
  parent_session_id: string | null;
  /** The per-session "skip approvals" (/yolo) switch; never lifts the hardline tier. */
  skip_approvals: boolean;
  /** The per-session switch (/network) letting the sandboxed shell reach the network. */
  allow_network: boolean;
  /** The profile the session was created under (lib/agent/profiles.ts); null is `default`. */
  profile: string | null;
  /** The personality preset the session speaks with (lib/agent/personalities.ts), or null. */
  personality: string | null;
}

/** A tool call recorded for a session, as the full session shape lists it. */
export interface SessionToolCall {
  tool_call_id: string;
  turn_id: string | null;
  name: string;
  args: unknown;
  status: string;
  result: string | null;
  started_at: number;
  duration: number | null;
  /** The file change of a write_file/patch call (FileDiff in lib/shared/chat_events.ts). */
  diff?: unknown;
}

/** The full session shape: compact row + messages + tool calls (+ paging markers). */
export interface FullSession extends SessionRow {
  messages: StoredMessage[];
  tool_calls: SessionToolCall[];
  _messages_truncated?: boolean;
  _messages_offset?: number;
}

export interface NewSessionInput {
  /** An already-validated absolute workspace path (see lib/workspace/workspaces.ts). */
  workspace: string;
  model?: string | null;
  model_provider?: string | null;
  project_id?: string | null;
  title?: string;
  parent_session_id?: string | null;
}

export const MAX_PINNED = 3;
export const MAX_TITLE_CHARS = 80;
export const UNTITLED = "Untitled";

/** Columns of the compact row, in API order (one SELECT list for every read). */
export const COMPACT_COLUMNS =
  "session_id, title, workspace, model, model_provider, message_count, created_at, updated_at, " +
  "last_message_at, pinned, archived, project_id, input_tokens, output_tokens, estimated_cost, " +
  "active_stream_id, parent_session_id, skip_approvals, allow_network, profile, personality";

type DbRow =
  & Omit<SessionRow, "pinned" | "archived" | "is_streaming" | "skip_approvals" | "allow_network">
  & { pinned: number; archived: number; skip_approvals: number; allow_network: number };

/** Convert a raw `sessions` row into the API's compact shape. */
export function toCompact(row: Record<string, unknown>): SessionRow {
  const r = row as unknown as DbRow;
  return {
    session_id: r.session_id,
    title: r.title,
    workspace: r.workspace,
    model: r.model ?? null,
    model_provider: r.model_provider ?? null,
    message_count: r.message_count,
    created_at: r.created_at,
    updated_at: r.updated_at,
    last_message_at: r.last_message_at ?? null,
    pinned: !!r.pinned,
    archived: !!r.archived,
    project_id: r.project_id ?? null,
    input_tokens: r.input_tokens,
    output_tokens: r.output_tokens,
    estimated_cost: r.estimated_cost ?? null,
    active_stream_id: r.active_stream_id ?? null,
    is_streaming: r.active_stream_id != null,
    parent_session_id: r.parent_session_id ?? null,
    skip_approvals: !!r.skip_approvals,
    allow_network: !!r.allow_network,
    profile: r.profile ?? null,
    personality: r.personality ?? null,
  };
}

/** Trim, drop control characters, cut to 80 characters; blank becomes "Untitled". */
export function normalizeTitle(title: unknown): string {
  const text = typeof title === "string" ? title.replace(/\p{Cc}+/gu, " ") : "";
  const chars = Array.from(text.trim());
  if (chars.length === 0) return UNTITLED;
  return chars.slice(0, MAX_TITLE_CHARS).join("");
}

/** Create a session row (no messages yet) and return it. */
export async function createSession(
  db: AsyncQueries,
  clock: Clock,
  input: NewSessionInput,
): Promise<SessionRow> {
  const id = newSessionId();
  const now = clock();
  await db.run(sql`INSERT INTO sessions (session_id, title, workspace, model, model_provider,
       project_id, parent_session_id, created_at, updated_at)
     VALUES (${id}, ${normalizeTitle(input.title)}, ${input.workspace}, ${input.model ?? null},
       ${input.model_provider ?? null}, ${input.project_id ?? null},
       ${input.parent_session_id ?? null}, ${now}, ${now})`);
  await publishSessionsChanged(db, "create", id);
  return await getSession(db, id);
}

const COLUMNS = sql.raw(COMPACT_COLUMNS);

/** The compact row of a session, or null when the id is unknown. */
export async function findSession(db: AsyncQueries, id: string): Promise<SessionRow | null> {
  const row = await db.get(sql`SELECT ${COLUMNS} FROM sessions WHERE session_id = ${id}`);
  return row ? toCompact(row) : null;
}

/** The compact row of a session; an unknown id is a NotFoundError (404). */
export async function getSession(db: AsyncQueries, id: string): Promise<SessionRow> {
  const row = await findSession(db, id);
  if (!row) throw new NotFoundError(`Session "${id}" not found`);
  return row;
}

/**
 * Let (or stop) the session's sandboxed shell reach the network. Off by default: bubblewrap
 * runs commands with no network unless this, or `terminal.allow_network` in config, says so.
 */
export async function setAllowNetwork(
  db: AsyncQueries,
  id: string,
  enabled: boolean,
): Promise<SessionRow> {
  await getSession(db, id);
  await db.run(
    sql`UPDATE sessions SET allow_network = ${enabled ? 1 : 0} WHERE session_id = ${id}`,
  );
  return await getSession(db, id);
}

/** Sessions that are empty and never named are scratch: hidden from the list. */
const VISIBLE = sql.raw(
  "NOT (message_count = 0 AND title = 'Untitled' AND active_stream_id IS NULL)",
);

/** How many visible sessions are archived (the sidebar's "Archived · N"). */
export async function archivedCount(db: AsyncQueries): Promise<number> {
  // session_counts is kept by triggers (storage migration 8): a lookup at any size.
  const row = await db.get<{ n: number | string }>(
    sql`SELECT coalesce(sum(n), 0) AS n FROM session_counts WHERE archived = 1`,
  );
  return Number(row?.n ?? 0);
}

/**
 * Every session, newest `updated_at` first; archived ones only on request. The unpaged answer
 * of GET /api/sessions (the original's clients); pages come from lib/sessions/session_page.ts.
 */
export async function listSessions(
  db: AsyncQueries,
  opts: { includeArchived?: boolean } = {},
): Promise<{ sessions: SessionRow[]; archived_count: number }> {
  const where = opts.includeArchived ? VISIBLE : sql`archived = 0 AND ${VISIBLE}`;
  const rows = await db.all(
    sql`SELECT ${COLUMNS} FROM sessions WHERE ${where} ORDER BY updated_at DESC`,
  );
  return { sessions: rows.map(toCompact), archived_count: await archivedCount(db) };
}

/** Tool calls recorded for a session, oldest first. */
export async function listSessionToolCalls(
  db: AsyncQueries,
  id: string,
): Promise<SessionToolCall[]> {
  const rows = await db.all<SessionToolCall & { args: string; diff: string | null }>(
    sql`SELECT tool_call_id, turn_id, name, args, status, result, started_at, duration, diff
     FROM tool_calls WHERE session_id = ${id} ORDER BY started_at, rowid`,
  );
  // `diff` (write_file/patch, lib/tools/file_diff.ts) is listed only where there is one.
  return rows.map(({ diff, ...r }) => ({
    ...r,
    args: parseJsonColumn(r.args, {}),
    ...(diff ? { diff: parseJsonColumn(diff, null) } : {}),
  }));
}

export interface MessagePage {
  /** Return only the last N messages (1–500). */
  msgLimit?: number;
  /** Only messages with idx < msgBefore (load older pages). */
  msgBefore?: number;
}

/**
 * The full session: compact row, messages and tool calls. With paging, `_messages_offset`
 * is the idx of the first returned message and `_messages_truncated` says older ones exist.
 */
export async function fullSession(
  db: AsyncQueries,
  id: string,
  page: MessagePage = {},
): Promise<FullSession> {
  const row = await getSession(db, id);
  const paged = page.msgLimit !== undefined || page.msgBefore !== undefined;
  const messages = await listMessages(db, id, { limit: page.msgLimit, before: page.msgBefore });
  let toolCalls = await listSessionToolCalls(db, id);
  if (paged) {
    // A page carries the tool calls of its own messages only, so paging back through a
    // tool-heavy session does not re-send every call of the whole session each time.
    const onPage = new Set<string>();
    for (const m of messages) {
      if (m.tool_call_id) onPage.add(m.tool_call_id);
      for (const c of (m.tool_calls ?? []) as Array<{ id?: string }>) if (c.id) onPage.add(c.id);
    }
    toolCalls = toolCalls.filter((c) => onPage.has(c.tool_call_id));
  }
  const full: FullSession = { ...row, messages, tool_calls: toolCalls };
  if (paged) {
    const offset = messages.length > 0
      ? messages[0].idx
      : Math.min(page.msgBefore ?? row.message_count, row.message_count);
    full._messages_offset = offset;
    full._messages_truncated = offset > 0;
  }
  return full;
}

export interface SessionPatch {
  workspace?: string;
  model?: string | null;
  model_provider?: string | null;
  title?: string;
}

/** Change workspace/model/provider/title; bumps updated_at. */
export async function updateSession(
  db: AsyncQueries,
  clock: Clock,
  id: string,
  patch: SessionPatch,
  reason: SessionsChangedReason = patch.title !== undefined ? "rename" : "update",
): Promise<SessionRow> {
  await getSession(db, id);
  const sets = [];
  for (const key of ["workspace", "model", "model_provider"] as const) {
    if (patch[key] !== undefined) sets.push(sql`${sql.ref(key)} = ${patch[key] ?? null}`);
  }
  if (patch.title !== undefined) sets.push(sql`title = ${normalizeTitle(patch.title)}`);
  sets.push(sql`updated_at = ${clock()}`);
  await db.run(sql`UPDATE sessions SET ${sql.join(sets)} WHERE session_id = ${id}`);
  const row = await getSession(db, id);
  await publishSessionsChanged(db, reason, id, patch.title !== undefined ? row.title : undefined);
  return row;
}

/** Rename a session (trimmed, ≤80 chars, blank → "Untitled"). */
export async function renameSession(
  db: AsyncQueries,
  clock: Clock,
  id: string,
  title: string,
): Promise<SessionRow> {
  const row = await updateSession(db, clock, id, { title });
  // A title the person chose is never replaced by a generated one (lib/engine/titles.ts);
  // a reset to "Untitled" (clear) lets the next first message name the chat again.
  await db.run(sql`UPDATE sessions SET title_source = ${row.title === UNTITLED ? null : "user"}
    WHERE session_id = ${id}`);
  return row;
}

/** Mark (or clear) the run streaming into a session. Does not count as activity. */
export async function setActiveStream(
  db: AsyncQueries,
  id: string,
  streamId: string | null,
): Promise<void> {
  await db.run(sql`UPDATE sessions SET active_stream_id = ${streamId} WHERE session_id = ${id}`);
  await publishSessionsChanged(db, streamId ? "run_start" : "run_end", id);
}

/**
 * Claim the session for a new run: set its active stream only if none is set, in one statement.
 * Returns false when another run holds it (the caller answers 409), so two starts can never
 * both win.
 */
export async function claimActiveStream(
  db: AsyncQueries,
  id: string,
  streamId: string,
): Promise<boolean> {
  const res = await db.run(sql`UPDATE sessions SET active_stream_id = ${streamId}
    WHERE session_id = ${id} AND active_stream_id IS NULL`);
  if (res.changes > 0) await publishSessionsChanged(db, "run_start", id);
  return res.changes > 0;
}

/** Forget every active stream (start-up: runs from a previous process are gone). */
export async function clearActiveStreams(db: AsyncQueries): Promise<number> {
  const res = await db.run(
    sql`UPDATE sessions SET active_stream_id = NULL WHERE active_stream_id IS NOT NULL`,
  );
  return res.changes;
}

/** Add a turn's token usage and cost to the session's running totals. */
export async function addUsage(
  db: AsyncQueries,
  id: string,
  usage: { input_tokens?: number; output_tokens?: number; estimated_cost?: number | null },
): Promise<void> {
  const cost = usage.estimated_cost ?? null;
  await db.run(sql`UPDATE sessions SET input_tokens = input_tokens + ${usage.input_tokens ?? 0},
       output_tokens = output_tokens + ${usage.output_tokens ?? 0},
       estimated_cost = CASE WHEN CAST(${cost} AS DOUBLE PRECISION) IS NULL THEN estimated_cost
                             ELSE coalesce(estimated_cost, 0) + CAST(${cost} AS DOUBLE PRECISION) END
     WHERE session_id = ${id}`);
}

/**
 * Delete a session and everything hanging off it (FK cascades remove messages, journal,
 * tool calls, approvals, usage) plus its attachments directory. Unknown ids are a no-op.
 */
export async function deleteSession(
  db: AsyncQueries,
  stateDir: string,
  id: string,
): Promise<boolean> {
  const res = await db.run(sql`DELETE FROM sessions WHERE session_id = ${id}`);
  if (/^[0-9a-f]{12}$/.test(id)) {
    await Deno.remove(join(stateDir, "attachments", id), { recursive: true }).catch((err) => {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    });
  }
  if (res.changes > 0) await publishSessionsChanged(db, "delete", id);
  return res.changes > 0;
}

/** Pin or unpin; a pin past `limit` (the pinned_sessions_limit setting) is refused (400). Does not touch updated_at. */
export function pinSession(
  db: AsyncQueries,
  clock: Clock,
  id: string,
  pinned: boolean,
  limit = MAX_PINNED,
): Promise<SessionRow> {
  return db.transaction(async (tx) => {
    const current = await getSession(tx, id);
    if (pinned && !current.pinned) {
      const row = await tx.get<{ n: number | string }>(
        sql`SELECT count(*) AS n FROM sessions WHERE pinned = 1`,
      );
      if (Number(row?.n ?? 0) >= limit) {
        throw new ValidationError(`Up to ${limit} sessions can be pinned`, "pinned");
      }
    }
    await tx.run(sql`UPDATE sessions SET pinned = ${pinned ? 1 : 0},
      pinned_at = ${pinned ? clock() : null} WHERE session_id = ${id}`);
    await publishSessionsChanged(tx, "pin", id);
    return await getSession(tx, id);
  });
}

/** Archive or restore; keeps updated_at so the session keeps its place in time. */
export async function archiveSession(
  db: AsyncQueries,
  id: string,
  archived: boolean,
): Promise<SessionRow> {
  await getSession(db, id);
  await db.run(sql`UPDATE sessions SET archived = ${archived ? 1 : 0} WHERE session_id = ${id}`);
  await publishSessionsChanged(db, "archive", id);
  return await getSession(db, id);
}

/** File a session under a project (or none). The caller checks the project exists. */
export async function moveSession(
  db: AsyncQueries,
  id: string,
  projectId: string | null,
): Promise<SessionRow> {
  await getSession(db, id);
  await db.run(sql`UPDATE sessions SET project_id = ${projectId} WHERE session_id = ${id}`);
  await publishSessionsChanged(db, "move", id);
  return await getSession(db, id);
}

function refuseWhileStreaming(row: SessionRow, action: string): void {
  if (row.active_stream_id) {
    throw new ConflictError(`Cannot ${action} session "${row.session_id}" while it is streaming`, {
      active_stream_id: row.active_stream_id,
    });
  }
}

/** Empty a session's transcript (messages and tool calls), keeping its settings and title. */
export function clearSession(db: AsyncQueries, clock: Clock, id: string): Promise<SessionRow> {
  return db.transaction(async (tx) => {
    refuseWhileStreaming(await getSession(tx, id), "clear");
    await tx.run(sql`DELETE FROM tool_calls WHERE session_id = ${id}`);
    await truncateMessages(tx, id, 0, clock());
    await publishSessionsChanged(tx, "clear", id);
    return await getSession(tx, id);
  });
}

/**
 * Drop the last turn: the last user message and everything after it. Returns the session and
 * how many messages were removed (0 when there is no user message).
 */
export function undoLastTurn(
  db: AsyncQueries,
  clock: Clock,
  id: string,
): Promise<{ session: SessionRow; removed: number; text: string | null }> {
  return db.transaction(async (tx) => {
    // Read, then cut: on PostgreSQL the row lock makes a concurrent undo (or a run's claim) wait
    // for this commit and then see what it left (SQLite's one connection runs one transaction at
    // a time already). Two undos at once remove two turns, as two clicks would one after another.
    if (tx.backend === "postgres") {
      await tx.run(sql`SELECT 1 FROM sessions WHERE session_id = ${id} FOR UPDATE`);
    }
    refuseWhileStreaming(await getSession(tx, id), "undo the last turn of");
    const last = await tx.get<{ idx: number; content: string }>(
      sql`SELECT idx, content FROM messages WHERE session_id = ${id} AND role = 'user'
       ORDER BY idx DESC LIMIT 1`,
    );
    if (!last) return { session: await getSession(tx, id), removed: 0, text: null };
    const removed = await truncateMessages(tx, id, last.idx, clock());
    return { session: await getSession(tx, id), removed, text: last.content };
  });
}
