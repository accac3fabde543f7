// A session's transcript: OpenAI-style messages stored one row each, numbered by `idx`
// (0, 1, 2… with no gaps). Invariants: every write runs in one transaction that also keeps
// sessions.message_count equal to the row count and last_message_at/updated_at current.
import { type AsyncQueries, parseJsonColumn, sql } from "../storage/db.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import type { Clock } from "../ids.ts";

export type MessageRole = "system" | "user" | "assistant" | "tool";

/** One OpenAI-style tool call as the model emitted it. */
export interface MessageToolCall {
  id: string;
  type?: "function";
  function: { name: string; arguments: string };
  [key: string]: unknown;
}

/** The fields of a message other than its position and time. */
export interface MessageFields {
  role: MessageRole;
  /** Text, or the original array of content parts for multimodal messages. */
  content: string | unknown[];
  tool_calls?: MessageToolCall[];
  tool_call_id?: string;
  name?: string;
  reasoning?: string;
  attachments?: unknown[];
  turn_id?: string;
  /** Any other field a client attached is kept verbatim (lossless export/import). */
  [key: string]: unknown;
}

/** A stored message, as the API returns it (`idx` is its position in the transcript). */
export interface StoredMessage extends MessageFields {
  idx: number;
  timestamp: number;
}

/** A message about to be appended: no idx yet, timestamp defaults to now. */
export interface NewMessage extends MessageFields {
  timestamp?: number;
}

/** A message with its time but no position yet (replaceMessage). */
export interface TimedMessage extends MessageFields {
  timestamp: number;
}

/** Fields the engine may change in place (e.g. a streaming assistant message). */
export type MessagePatch = { [K in keyof MessageFields]?: MessageFields[K] | null } & {
  timestamp?: number;
};

const ROLES = new Set(["system", "user", "assistant", "tool"]);
/** The stored columns of a message, in the order toColumns() fills them. */
const MESSAGE_COLUMNS = [
  "role",
  "content",
  "tool_calls",
  "tool_call_id",
  "name",
  "reasoning",
  "attachments",
  "turn_id",
  "timestamp",
  "extra",
] as const;
/** Fields with a column of their own; any other field of a message is kept in `extra`. */
const COLUMNS = new Set<string>(["idx", ...MESSAGE_COLUMNS.filter((c) => c !== "extra")]);

interface MessageDbRow {
  idx: number;
  role: MessageRole;
  content: string;
  tool_calls: string | null;
  tool_call_id: string | null;
  name: string | null;
  reasoning: string | null;
  attachments: string | null;
  turn_id: string | null;
  timestamp: number;
  extra: string;
}

/** Plain text of a content value (array parts contribute their `text`), for search. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return content == null ? "" : String(content);
  return content
    .map((p) =>
      (p && typeof p === "object" && typeof (p as { text?: unknown }).text === "string")
        ? (p as { text: string }).text
        : ""
    )
    .filter(Boolean)
    .join("\n");
}

function jsonOrNull(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

/** Split a message into column values plus the `extra` JSON of every other field. */
/** The message's column values, in MESSAGE_COLUMNS order (shared by INSERT and UPDATE). */
function toColumns(msg: TimedMessage): Array<string | number | null> {
  if (!ROLES.has(msg.role)) {
    throw new ValidationError(`Invalid message role "${String(msg.role)}"`, "role");
  }
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(msg)) if (!COLUMNS.has(k) && v !== undefined) extra[k] = v;
  if (Array.isArray(msg.content)) extra._content_parts = msg.content;
  return [
    msg.role,
    contentText(msg.content),
    jsonOrNull(msg.tool_calls),
    msg.tool_call_id ?? null,
    msg.name ?? null,
    msg.reasoning ?? null,
    jsonOrNull(msg.attachments),
    msg.turn_id ?? null,
    msg.timestamp,
    JSON.stringify(extra),
  ];
}

function fromRow(row: MessageDbRow): StoredMessage {
  const extra = parseJsonColumn<Record<string, unknown>>(row.extra, {});
  const { _content_parts, ...rest } = extra;
  const msg: StoredMessage = {
    ...rest,
    idx: row.idx,
    role: row.role,
    content: Array.isArray(_content_parts) ? _content_parts : row.content,
    timestamp: row.timestamp,
  };
  if (row.tool_calls !== null) msg.tool_calls = parseJsonColumn(row.tool_calls, []);
  if (row.tool_call_id !== null) msg.tool_call_id = row.tool_call_id;
  if (row.name !== null) msg.name = row.name;
  if (row.reasoning !== null) msg.reasoning = row.reasoning;
  if (row.attachments !== null) msg.attachments = parseJsonColumn(row.attachments, []);
  if (row.turn_id !== null) msg.turn_id = row.turn_id;
  return msg;
}

/** Recount a session's messages and refresh its activity times (call inside a transaction). */
export async function syncMessageStats(
  db: AsyncQueries,
  sessionId: string,
  now?: number,
): Promise<void> {
  await db.run(sql`UPDATE sessions SET
       message_count = (SELECT count(*) FROM messages WHERE session_id = ${sessionId}),
       last_message_at = (SELECT max(timestamp) FROM messages WHERE session_id = ${sessionId}),
       updated_at = coalesce(CAST(${now ?? null} AS DOUBLE PRECISION), updated_at)
     WHERE session_id = ${sessionId}`);
}

const INSERT_COLUMNS = sql.raw(`session_id, idx, ${MESSAGE_COLUMNS.join(", ")}`);
/** Rows per INSERT: 12 values each, well under SQLite's and PostgreSQL's parameter limits. */
const INSERT_BATCH = 50;

/** Insert messages at explicit positions without touching the session row. */
export async function insertMessageRows(
  db: AsyncQueries,
  sessionId: string,
  msgs: StoredMessage[],
): Promise<void> {
  for (let i = 0; i < msgs.length; i += INSERT_BATCH) {
    const rows = msgs.slice(i, i + INSERT_BATCH).map((m) =>
      sql`(${sql.join([sessionId, m.idx, ...toColumns(m)])})`
    );
    await db.run(sql`INSERT INTO messages (${INSERT_COLUMNS}) VALUES ${sql.join(rows)}`);
  }
}

/**
 * Append messages to a session in ONE transaction, so a crash never leaves a half-written
 * turn or a message_count that disagrees with the rows. Returns them with their idx.
 */
export function appendMessages(
  db: AsyncQueries,
  clock: Clock,
  sessionId: string,
  msgs: NewMessage[],
): Promise<StoredMessage[]> {
  return db.transaction(async (tx) => {
    const exists = await tx.get(sql`SELECT 1 AS one FROM sessions WHERE session_id = ${sessionId}`);
    if (!exists) throw new NotFoundError(`Session "${sessionId}" not found`);
    const row = await tx.get<{ next: number | string }>(
      sql`SELECT coalesce(max(idx) + 1, 0) AS next FROM messages WHERE session_id = ${sessionId}`,
    );
    const next = Number(row?.next ?? 0);
    const now = clock();
    const stored = msgs.map((m, i) => ({ ...m, idx: next + i, timestamp: m.timestamp ?? now }));
    await insertMessageRows(tx, sessionId, stored as StoredMessage[]);
    await syncMessageStats(tx, sessionId, now);
    return stored as StoredMessage[];
  });
}

/** Number of messages in a session. */
export async function countMessages(db: AsyncQueries, sessionId: string): Promise<number> {
  const row = await db.get<{ n: number | string }>(
    sql`SELECT count(*) AS n FROM messages WHERE session_id = ${sessionId}`,
  );
  return Number(row?.n ?? 0);
}

const READ_COLUMNS = sql.raw(
  "idx, role, content, tool_calls, tool_call_id, name, reasoning, attachments, turn_id, timestamp, extra",
);

/**
 * A session's messages in order. `before` keeps only idx < before; `limit` keeps the LAST
 * `limit` of those (the transcript loads from its end, older pages on scroll).
 */
export async function listMessages(
  db: AsyncQueries,
  sessionId: string,
  opts: { limit?: number; before?: number } = {},
): Promise<StoredMessage[]> {
  const before = opts.before ?? Number.MAX_SAFE_INTEGER;
  const rows = opts.limit === undefined
    ? await db.all<MessageDbRow>(
      sql`SELECT ${READ_COLUMNS} FROM messages WHERE session_id = ${sessionId} AND idx < ${before}
        ORDER BY idx`,
    )
    : await db.all<MessageDbRow>(
      sql`SELECT * FROM (SELECT ${READ_COLUMNS} FROM messages
         WHERE session_id = ${sessionId} AND idx < ${before}
         ORDER BY idx DESC LIMIT ${opts.limit}) AS newest ORDER BY idx`,
    );
  return rows.map(fromRow);
}

/** One message by position, or null. */
export async function getMessage(
  db: AsyncQueries,
  sessionId: string,
  idx: number,
): Promise<StoredMessage | null> {
  const row = await db.get<MessageDbRow>(
    sql`SELECT ${READ_COLUMNS} FROM messages WHERE session_id = ${sessionId} AND idx = ${idx}`,
  );
  return row ? fromRow(row) : null;
}

/** Replace the message at `idx` entirely (role included). Throws NotFoundError if absent. */
export async function replaceMessage(
  db: AsyncQueries,
  sessionId: string,
  idx: number,
  msg: TimedMessage,
): Promise<StoredMessage> {
  const values = toColumns(msg);
  const sets = MESSAGE_COLUMNS.map((c, i) => sql`${sql.ref(c)} = ${values[i]}`);
  const res = await db.run(
    sql`UPDATE messages SET ${sql.join(sets)} WHERE session_id = ${sessionId} AND idx = ${idx}`,
  );
  if (res.changes === 0) {
    throw new NotFoundError(`Message ${idx} of session "${sessionId}" not found`);
  }
  return { ...msg, idx } as StoredMessage;
}

/**
 * Merge `patch` into the message at `idx` (the engine grows a streaming assistant message in
 * place). A field set to `undefined` is left alone; `null` removes it.
 */
export function updateMessage(
  db: AsyncQueries,
  sessionId: string,
  idx: number,
  patch: MessagePatch,
): Promise<StoredMessage> {
  return db.transaction(async (tx) => {
    const current = await getMessage(tx, sessionId, idx);
    if (!current) throw new NotFoundError(`Message ${idx} of session "${sessionId}" not found`);
    const merged: Record<string, unknown> = { ...current };
    for (const [k, v] of Object.entries(patch)) {
      if (v === null) delete merged[k];
      else if (v !== undefined) merged[k] = v;
    }
    if (merged.content === undefined) merged.content = "";
    const { idx: _idx, ...rest } = merged;
    return await replaceMessage(tx, sessionId, idx, rest as TimedMessage);
  });
}

/**
 * Drop every message with idx >= fromIdx (undo, retry, branch-in-place), keeping
 * message_count and last_message_at in step. Returns how many were removed.
 */
export function truncateMessages(
  db: AsyncQueries,
  sessionId: string,
  fromIdx: number,
  now?: number,
): Promise<number> {
  return db.transaction(async (tx) => {
    const res = await tx.run(
      sql`DELETE FROM messages WHERE session_id = ${sessionId} AND idx >= ${fromIdx}`,
    );
    await syncMessageStats(tx, sessionId, now);
    return res.changes;
  });
}
