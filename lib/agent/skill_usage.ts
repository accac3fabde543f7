// How often each skill was used: every `skill` tool call that completed (the agent loading it),
// counted from the tool_calls table, so the numbers need no bookkeeping of their own and survive
// restarts. Invariant: a skill never used is listed with count 0 (GET /api/skills/usage lists
// every installed skill).
import type { Db } from "../storage/db.ts";

export interface SkillUsage {
  name: string;
  count: number;
  /** Epoch seconds of the latest use, or null. */
  last_used_at: number | null;
}

/** Usage of `installed` skills plus any used skill no longer installed, most used first. */
export function skillUsage(db: Db, installed: readonly string[]): SkillUsage[] {
  const rows = db.prepare(
    `SELECT json_extract(args, '$.name') AS name, COUNT(*) AS count, MAX(started_at) AS last
       FROM tool_calls WHERE name = 'skill' AND status = 'completed' AND json_valid(args)
       GROUP BY json_extract(args, '$.name')`,
  ).all() as Array<{ name: string | null; count: number; last: number | null }>;
  const used = new Map(
    rows.filter((r) => typeof r.name === "string").map((r) => [r.name!, r]),
  );
  const names = new Set([...installed, ...used.keys()]);
  return [...names].map((name) => {
    const r = used.get(name);
    return { name, count: r?.count ?? 0, last_used_at: r?.last ?? null };
  }).sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}
