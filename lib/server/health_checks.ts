// The deep health check (GET /health?deep=1): each path a request depends on is exercised for
// real and timed — the database (its integrity check, lib/storage/integrity.ts), the session and project
// stores (their list readers), the state dir (a write and a remove). Invariants: read-only
// against user data; a failing check reports its error and never throws.
import { join } from "node:path";
import type { Db } from "../storage/db.ts";
import { listSessions } from "../sessions/sessions.ts";
import { listProjects } from "../sessions/projects.ts";
import { randomHex } from "../ids.ts";
import { checkIntegrity } from "../storage/integrity.ts";

export interface HealthCheck {
  ok: boolean;
  ms: number;
  error?: string;
  [detail: string]: unknown;
}

async function timed(
  fn: () => Record<string, unknown> | Promise<Record<string, unknown>>,
): Promise<HealthCheck> {
  const t0 = performance.now();
  try {
    const detail = await fn();
    return { ok: true, ms: Math.round((performance.now() - t0) * 10) / 10, ...detail };
  } catch (err) {
    return {
      ok: false,
      ms: Math.round((performance.now() - t0) * 10) / 10,
      error: err instanceof Error ? err.message : String(err),
    };
  }
}

/** Run every deep check; `ok` is true when all passed. */
export async function deepHealthChecks(
  deps: { db: Db; stateDir: string },
): Promise<{ ok: boolean; checks: Record<string, HealthCheck> }> {
  const checks: Record<string, HealthCheck> = {
    database: await timed(async () => {
      const verdict = await checkIntegrity(deps.db);
      // PostgreSQL without amcheck cannot check its indexes: said so, not passed as "ok".
      if (verdict.startsWith("not_applicable")) {
        return { integrity: "not_applicable", note: verdict.replace(/^not_applicable:\s*/, "") };
      }
      if (verdict !== "ok") throw new Error(`quick_check: ${verdict}`);
      return { integrity: verdict };
    }),
    sessions: await timed(async () => {
      const { sessions, archived_count } = await listSessions(deps.db, { includeArchived: true });
      return { count: sessions.length, archived_count };
    }),
    projects: await timed(async () => ({ count: (await listProjects(deps.db)).length })),
    state_dir: await timed(async () => {
      const probe = join(deps.stateDir, `.health-${randomHex(8)}`);
      await Deno.writeTextFile(probe, "ok");
      await Deno.remove(probe);
      return { path: deps.stateDir };
    }),
  };
  return { ok: Object.values(checks).every((c) => c.ok), checks };
}
