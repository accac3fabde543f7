// Context compression: when a conversation nears the model's context window, the older turns
// are summarized by the model and the summary is sent in their place. Invariants: the stored
// transcript is never rewritten (only what is SENT changes); the cut is always at a user
// message, so a tool call is never separated from its result; the most recent turns are kept
// verbatim; a summary whose boundary message changed (undo, clear) is ignored.
import { type AsyncQueries, sql } from "../storage/db.ts";
import type { Clock } from "../ids.ts";
import type { StoredMessage } from "../sessions/messages.ts";
import { contentText } from "../sessions/messages.ts";

export interface CompressionState {
  /** Messages with idx < uptoIdx are represented by `summary`. */
  uptoIdx: number;
  summary: string;
}

/** Default share of the context window a prompt may fill before compression kicks in. */
export const DEFAULT_COMPRESSION_THRESHOLD = 0.8;
/** User turns kept verbatim after a compression. */
export const KEEP_RECENT_TURNS = 2;

/** The session's current compression, or null if none or stale. */
export async function getCompression(
  db: AsyncQueries,
  sessionId: string,
  messages: StoredMessage[],
): Promise<CompressionState | null> {
  const row = await db.get<{ upto_idx: number; boundary_ts: number; summary: string }>(
    sql`SELECT upto_idx, boundary_ts, summary FROM compressions WHERE session_id = ${sessionId}`,
  );
  if (!row) return null;
  const uptoIdx = Number(row.upto_idx);
  const boundary = messages.find((m) => m.idx === uptoIdx - 1);
  const next = messages.find((m) => m.idx === uptoIdx);
  if (!boundary || boundary.timestamp !== row.boundary_ts || (next && next.role !== "user")) {
    return null;
  }
  return { uptoIdx, summary: row.summary };
}

/** Store (replace) the session's compression. */
export async function saveCompression(
  db: AsyncQueries,
  clock: Clock,
  sessionId: string,
  state: CompressionState,
  messages: StoredMessage[],
): Promise<void> {
  const boundary = messages.find((m) => m.idx === state.uptoIdx - 1);
  if (!boundary) throw new Error(`compression boundary ${state.uptoIdx} is not in the transcript`);
  await db.run(
    sql`INSERT INTO compressions (session_id, upto_idx, boundary_ts, summary, created_at)
        VALUES (${sessionId}, ${state.uptoIdx}, ${boundary.timestamp}, ${state.summary}, ${clock()})
        ON CONFLICT (session_id) DO UPDATE SET upto_idx = excluded.upto_idx,
          boundary_ts = excluded.boundary_ts, summary = excluded.summary,
          created_at = excluded.created_at`,
  );
}

/**
 * Where to cut: the idx of the user message starting the `keepTurns`-th most recent turn,
 * if that leaves anything new (beyond `current.uptoIdx`) to summarize. Null otherwise.
 */
export function planCut(
  messages: StoredMessage[],
  current: CompressionState | null,
  keepTurns = KEEP_RECENT_TURNS,
): number | null {
  const userIdx = messages.filter((m) => m.role === "user").map((m) => m.idx);
  if (userIdx.length <= keepTurns) return null;
  const cut = userIdx[userIdx.length - keepTurns];
  const from = current?.uptoIdx ?? 0;
  return cut > from ? cut : null;
}

/** The messages that must go into the next summary (after the current one, before `cut`). */
export function messagesToSummarize(
  messages: StoredMessage[],
  current: CompressionState | null,
  cut: number,
): StoredMessage[] {
  const from = current?.uptoIdx ?? 0;
  return messages.filter((m) => m.idx >= from && m.idx < cut);
}

export const SUMMARY_SYSTEM_PROMPT =
  "You compress conversations between a user and an AI assistant that uses tools. Write a " +
  "concise but complete summary that lets the assistant continue the work without the " +
  "original messages: the user's goals and preferences, decisions made, facts learned, files " +
  "and commands touched (with paths), results of tool calls that still matter, open questions " +
  "and next steps. Use short Markdown bullet points. Do not invent anything.";

/** The single user message asking for a summary of `msgs` (plus the previous summary). */
export function summaryRequest(
  previous: string | null,
  msgs: StoredMessage[],
  focus?: string,
): string {
  const lines: string[] = [];
  if (previous) lines.push(`Summary of the conversation before this part:\n${previous}\n`);
  lines.push("Conversation to summarize:");
  for (const m of msgs) {
    const body = contentText(m.content);
    if (m.role === "tool") {
      lines.push(`[tool result${m.name ? ` ${m.name}` : ""}] ${clip(body, 2000)}`);
    } else {
      const calls = (m.tool_calls ?? []).map((c) =>
        `${c.function?.name}(${clip(c.function?.arguments ?? "", 400)})`
      );
      lines.push(
        `[${m.role}] ${clip(body, 8000)}${
          calls.length ? `\n  tool calls: ${calls.join(", ")}` : ""
        }`,
      );
    }
  }
  // The focus is the user's words, quoted as data: it steers emphasis, never the instructions.
  if (focus?.trim()) {
    lines.push(
      `\nFocus: keep everything about ${JSON.stringify(focus.trim().slice(0, 500))} in full ` +
        "detail; other topics may be shortened.",
    );
  }
  lines.push("\nWrite the summary now.");
  return lines.join("\n");
}

/** Room kept in each summary request for the running summary carried into it (at most). */
export const SUMMARY_RESERVE_TOKENS = 2000;

/**
 * Split the messages to summarize into consecutive chunks whose summary request fits in
 * `maxTokens` (with room for the running summary), so a history larger than the model's
 * window is summarized piece by piece instead of overflowing. Every chunk holds at least one
 * message (a single oversized one is clipped by summaryRequest anyway); order is kept.
 */
export function chunksForSummary(msgs: StoredMessage[], maxTokens: number): StoredMessage[][] {
  const budget = Math.max(1, maxTokens - Math.min(SUMMARY_RESERVE_TOKENS, maxTokens / 4));
  const chunks: StoredMessage[][] = [];
  let chunk: StoredMessage[] = [];
  for (const m of msgs) {
    const next = [...chunk, m];
    if (chunk.length > 0 && estimateTokens(summaryRequest(null, next)) > budget) {
      chunks.push(chunk);
      chunk = [m];
    } else {
      chunk = next;
    }
  }
  if (chunk.length) chunks.push(chunk);
  return chunks;
}

function clip(s: string, n: number): string {
  return s.length > n ? s.slice(0, n) + ` […${s.length - n} more chars]` : s;
}

/** The system-prompt section that carries a summary to the model. */
export function summarySection(summary: string): string {
  return `## Summary of the earlier conversation\nOlder messages were compressed to save context. ` +
    `This summary replaces them:\n${summary}`;
}

/** A rough token count for text (≈4 characters per token), used before the provider reports. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
