// Per-turn figures for the message actions' hover: when each user message was sent and its
// answer last written, and the tokens and cost its runs were metered at (the `usage` rows of
// the turn's streams). Invariants: read-only; a turn is keyed by its user message idx (a
// turn_id may be missing on imported sessions); runs of a regenerated turn all count; a turn
// with no usage row yet (running, imported) says `metered: false`, never "0 tokens"; its speed
// comes only from runs whose counts the provider reported, never from estimated ones.
import { type AsyncQueries, sql } from "../storage/db.ts";
import { listMessages } from "./messages.ts";

export interface TurnMeta {
  user_idx: number;
  turn_id: string | null;
  asked_at: number;
  answered_at: number | null;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  cost: number | null;
  model: string | null;
  /** A usage row exists for the turn (false while it runs, or for an imported turn). */
  metered: boolean;
  /** Some of the counts were estimated (characters ÷ 4): the provider reported no usage. */
  estimated: boolean;
  /** Output tokens per second of the reported runs; null when none could be timed. */
  tokens_per_s: number | null;
}

interface UsageSum {
  turn_id: string;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  cost: number | null;
  model: string | null;
  estimated: number;
  tokens_per_s: number | null;
}

export async function turnMeta(db: AsyncQueries, sessionId: string): Promise<TurnMeta[]> {
  const rows = await db.all<UsageSum>(
    sql`SELECT s.turn_id AS turn_id, sum(u.input_tokens) AS input_tokens,
         sum(u.output_tokens) AS output_tokens, sum(u.cached_tokens) AS cached_tokens,
         sum(u.cost) AS cost, max(u.model) AS model, max(u.estimated) AS estimated,
         avg(CASE WHEN u.estimated = 0 THEN u.tokens_per_s END) AS tokens_per_s
       FROM usage u JOIN streams s ON s.stream_id = u.stream_id
       WHERE u.session_id = ${sessionId} GROUP BY s.turn_id`,
  );
  // Sums come back as strings from some PostgreSQL numeric types: numbers here.
  const sums = new Map(rows.map((r) => [r.turn_id, {
    ...r,
    input_tokens: Number(r.input_tokens ?? 0),
    output_tokens: Number(r.output_tokens ?? 0),
    cached_tokens: Number(r.cached_tokens ?? 0),
    cost: r.cost == null ? null : Number(r.cost),
    estimated: Number(r.estimated ?? 0),
    tokens_per_s: r.tokens_per_s == null ? null : Math.round(Number(r.tokens_per_s) * 10) / 10,
  }]));
  const out: TurnMeta[] = [];
  for (const m of await listMessages(db, sessionId)) {
    if (m.role === "user") {
      const u = m.turn_id ? sums.get(m.turn_id) : undefined;
      out.push({
        user_idx: m.idx,
        turn_id: m.turn_id ?? null,
        asked_at: m.timestamp,
        answered_at: null,
        input_tokens: u?.input_tokens ?? 0,
        output_tokens: u?.output_tokens ?? 0,
        cached_tokens: u?.cached_tokens ?? 0,
        cost: u?.cost ?? null,
        model: u?.model ?? null,
        metered: u !== undefined,
        estimated: (u?.estimated ?? 0) > 0,
        tokens_per_s: u?.tokens_per_s ?? null,
      });
    } else if (m.role === "assistant" && out.length) out.at(-1)!.answered_at = m.timestamp;
  }
  return out;
}
