// How often each skill was used: every `skill` tool call that completed (the agent loading it),
// counted from the tool_calls table, so the numbers need no bookkeeping of their own and survive
// restarts. Invariant: a skill never used is listed with count 0 (GET /api/skills/usage lists
// every installed skill).
import { type AsyncQueries, sql } from "../storage/db.ts";

export interface SkillUsage {
  name: string;
  count: number;
  /** Epoch seconds of the latest use, or null. */
  last_used_at: number | null;
}

/** Usage of `installed` skills plus any used skill no longer installed, most used first. */
export async function skillUsage(
  db: AsyncQueries,
  installed: readonly string[],
): Promise<SkillUsage[]> {
  // The skill name is read from the JSON here, not with json_extract (PostgreSQL lacks it): the
  // rows are the completed `skill` calls only, a small set.
  const rows = await db.all<{ args: string; started_at: number }>(
    sql`SELECT args, started_at FROM tool_calls WHERE name = 'skill' AND status = 'completed'`,
  );
  const used = new Map<string, { count: number; last: number }>();
  for (const row of rows) {
    const name = skillName(row.args);
    if (name === null) continue;
    const r = used.get(name);
    if (r) {
      r.count++;
      r.last = Math.max(r.last, row.started_at);
    } else used.set(name, { count: 1, last: row.started_at });
  }
  const names = new Set([...installed, ...used.keys()]);
  return [...names].map((name) => {
    const r = used.get(name);
    return { name, count: r?.count ?? 0, last_used_at: r?.last ?? null };
  }).sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}

/** The `name` argument of a skill call's JSON arguments; null when absent or not a string. */
function skillName(args: string): string | null {
  try {
    const parsed: unknown = JSON.parse(args);
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return null;
    const name = (parsed as { name?: unknown }).name;
    return typeof name === "string" ? name : null;
  } catch {
    return null;
  }
}
