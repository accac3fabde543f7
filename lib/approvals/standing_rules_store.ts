// Standing approvals in the database, so replicas sharing one (PostgreSQL) agree: a rule made by
// "Always allow" on one is enforced and listed by every other at once, and a removal on one ends it
// everywhere. Each rule is a row keyed by its grant key (a category key, or commandGrantKey() of an
// exact command); a removal keeps the row with `removed_at`, so a replica that read the rule from
// its own config.yaml at start (lib/approvals/approvals.ts's hub) is overruled. Invariants: a row
// says active (removed_at null) or removed, never both; making a rule again revives its row.
import { type AsyncQueries, sql } from "../storage/db.ts";

/** A rule as stored: what it allows, and when it was made. */
export interface StoredRule {
  rule_key: string;
  kind: "category" | "command";
  workspace: string | null;
  command: string | null;
  created_at: number | null;
}

/** Record (or revive) a standing rule made at `at`. */
export async function recordStandingRule(
  db: AsyncQueries,
  rule: Omit<StoredRule, "created_at">,
  at: number,
): Promise<void> {
  await db.run(
    sql`INSERT INTO standing_rules (rule_key, kind, workspace, command, created_at, removed_at)
        VALUES (${rule.rule_key}, ${rule.kind}, ${rule.workspace}, ${rule.command}, ${at}, NULL)
        ON CONFLICT (rule_key) DO UPDATE SET kind = excluded.kind, workspace = excluded.workspace,
          command = excluded.command, created_at = excluded.created_at, removed_at = NULL`,
  );
}

/** Mark a standing rule removed at `at` (kept as a row: every replica reads the removal). */
export async function revokeStandingRule(
  db: AsyncQueries,
  rule: Omit<StoredRule, "created_at">,
  at: number,
): Promise<void> {
  await db.run(
    sql`INSERT INTO standing_rules (rule_key, kind, workspace, command, created_at, removed_at)
        VALUES (${rule.rule_key}, ${rule.kind}, ${rule.workspace}, ${rule.command}, NULL, ${at})
        ON CONFLICT (rule_key) DO UPDATE SET removed_at = excluded.removed_at`,
  );
}

/**
 * What the database says of each of `keys`: true (a rule in force), false (removed), absent
 * (the database knows nothing of it: what this replica's config says stands).
 */
export async function standingRuleStates(
  db: AsyncQueries,
  keys: readonly string[],
): Promise<Map<string, boolean>> {
  const out = new Map<string, boolean>();
  if (keys.length === 0) return out;
  const rows = await db.all<{ rule_key: string; removed_at: number | null }>(
    sql`SELECT rule_key, removed_at FROM standing_rules
        WHERE rule_key IN (${sql.join(keys.map((k) => sql`${k}`))})`,
  );
  for (const r of rows) out.set(r.rule_key, r.removed_at === null);
  return out;
}

/** Every rule in force, and the keys of every removed one. */
export async function storedStandingRules(
  db: AsyncQueries,
): Promise<{ active: StoredRule[]; removed: Set<string> }> {
  const rows = await db.all<StoredRule & { removed_at: number | null }>(
    sql`SELECT rule_key, kind, workspace, command, created_at, removed_at FROM standing_rules`,
  );
  return {
    active: rows.filter((r) => r.removed_at === null),
    removed: new Set(rows.filter((r) => r.removed_at !== null).map((r) => r.rule_key)),
  };
}
