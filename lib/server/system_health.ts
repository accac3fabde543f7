// The deep health report behind GET /api/system/health: the database answers a write-free
// query and passes a quick check, the state dir's disk has room, what sandbox protects the host,
// which providers are configured (never their keys) and each MCP server's state. Invariants:
// nothing here calls out to a provider or starts a program (it is cheap and safe to poll);
// a check that throws becomes `ok: false` with its reason, never a 500.
import { statfsSync } from "node:fs";
import type { AppContext } from "./app_context.ts";
import { publicEndpoint, resolveProviders } from "../providers/provider_config.ts";
import { sql } from "../storage/db.ts";
import { checkIntegrity } from "../storage/integrity.ts";

/** Below this much free space in the state dir, the disk check fails. */
export const MIN_FREE_BYTES = 200 * 1024 * 1024;

export interface HealthCheck {
  ok: boolean;
  detail: string;
  [extra: string]: unknown;
}

async function check(fn: () => HealthCheck | Promise<HealthCheck>): Promise<HealthCheck> {
  try {
    return await fn();
  } catch (err) {
    return { ok: false, detail: err instanceof Error ? err.message : String(err) };
  }
}

export async function systemHealth(app: AppContext) {
  const database = await check(async () => {
    const verdict = await checkIntegrity(app.db);
    const counted = await app.db.get<{ n: number }>(sql`SELECT count(*) AS n FROM sessions`);
    const n = Number(counted?.n ?? 0);
    const checked = !verdict.startsWith("not_applicable");
    return {
      ok: verdict === "ok" || !checked,
      detail: `quick_check: ${verdict}`,
      integrity: checked ? (verdict === "ok" ? "ok" : "failed") : "not_applicable",
      sessions: n,
    };
  });
  const disk = await check(() => {
    const s = statfsSync(app.config.stateDir);
    const free = Number(s.bavail) * Number(s.bsize);
    const total = Number(s.blocks) * Number(s.bsize);
    return {
      ok: free >= MIN_FREE_BYTES,
      detail: `${Math.round(free / 1024 / 1024)} MiB free of ${
        Math.round(total / 1024 / 1024)
      } MiB`,
      free_bytes: free,
      total_bytes: total,
    };
  });
  const sandbox = await check(async () => {
    const s = await app.tools.commands.status();
    return { ok: s.bubblewrap, detail: s.message, ...s };
  });
  const providers = await check(() => {
    const resolved = resolveProviders(app.config);
    const list = resolved.endpoints.map((e) => {
      const p = publicEndpoint(e);
      return { id: p.id, base_url: p.baseUrl, has_api_key: p.has_api_key };
    });
    return {
      ok: resolved.active !== null,
      detail: resolved.active
        ? `active: ${resolved.active.id}`
        : "no provider is configured: the agent cannot answer",
      active: resolved.active?.id ?? null,
      endpoints: list,
    };
  });
  const mcp = await check(() => {
    const servers = app.mcp.status().filter((s) => s.enabled).map((s) => ({
      name: s.name,
      status: s.status,
      tool_count: s.tool_count,
      last_error: s.last_error,
    }));
    const failing = servers.filter((s) => s.status === "error");
    return {
      ok: failing.length === 0,
      detail: servers.length === 0
        ? "no MCP servers enabled"
        : `${servers.length - failing.length} of ${servers.length} servers without errors`,
      servers,
    };
  });
  const checks = { database, disk, sandbox, providers, mcp };
  // The sandbox and providers describe capability, not liveness: a console without bubblewrap
  // or a provider still serves. Only the database and the disk decide `ok`.
  return {
    ok: database.ok && disk.ok,
    uptime_seconds: Math.max(0, app.clock() - app.startedAt),
    active_runs: app.runs.activeCount,
    checks,
  };
}
