// The shape of the model picker's catalog (`GET /api/models`): one group per configured
// provider, the active one first, merging live probe results, the models named in config and
// the static table; a provider the config chose without an api key comes last, marked
// `needs_key`. Invariants: a group always lists the models its config names (so a dead
// endpoint's models stay pickable); a group is `unreachable` only when the endpoint really
// failed, never when a probe was merely cut short (`pending`).
import type { ProviderEndpoint, ResolvedProviders } from "../providers/provider_config.ts";
import type { ProbeOutcome } from "./probe_schedule.ts";
import { lookupModelInfo, type ModelInfo, staticModelsFor } from "./known_models.ts";

export interface ModelGroup {
  /** Display name of the provider ("OpenAI", "LM Studio", a custom provider's name). */
  provider: string;
  provider_id: string;
  models: ModelInfo[];
  /** The endpoint did not answer (refused, timed out at the full cap, DNS failure). */
  unreachable?: true;
  /** Why live discovery failed, in words a person can act on. */
  error?: string;
  /** Live discovery for this group is still running; these models are a fallback. */
  pending?: true;
  /** The config chose this provider but gave it no api key: its models cannot run yet. */
  needs_key?: true;
}

/**
 * Where a response's groups came from: a complete live rebuild, a live rebuild with some
 * probes still running, the last durable cache, or the network-free static catalog.
 */
export type CatalogSource = "live" | "partial" | "cache" | "static";

export interface ModelsResponse {
  active_provider: string | null;
  default_model: string | null;
  groups: ModelGroup[];
  source: CatalogSource;
  /** A rebuild continues in the background: asking again shortly gives a fresher catalog. */
  refreshing?: true;
}

/** Endpoints in picker order: the active provider first, then config order. */
export function orderedEndpoints(resolved: ResolvedProviders): ProviderEndpoint[] {
  const active = resolved.active;
  return active
    ? [active, ...resolved.endpoints.filter((e) => e !== active)]
    : [...resolved.endpoints];
}

function infoFor(id: string): ModelInfo {
  return lookupModelInfo(id) ?? { id, label: id };
}

/** Configured ids first (their live entry when there is one), then the rest, without repeats. */
function mergeModels(configured: string[], found: readonly ModelInfo[]): ModelInfo[] {
  const byId = new Map(found.map((m) => [m.id, m]));
  const out: ModelInfo[] = [];
  const seen = new Set<string>();
  for (const id of configured) {
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(byId.get(id) ?? infoFor(id));
  }
  for (const m of found) {
    if (!seen.has(m.id)) (seen.add(m.id), out.push(m));
  }
  return out;
}

/** The network-free group of an endpoint: its configured models plus the static table's. */
export function staticGroup(e: ProviderEndpoint): ModelGroup {
  return {
    provider: e.label,
    provider_id: e.id,
    models: mergeModels(e.models, staticModelsFor(e.id)),
  };
}

/** The network-free catalog of the current config. */
export function staticCatalog(resolved: ResolvedProviders): ModelGroup[] {
  return orderedEndpoints(resolved).map(staticGroup);
}

/**
 * Build groups from a rebuild's probe outcomes. A truncated or missing probe takes its group
 * from `fallback` (the last durable cache) or the static table, marked `pending`.
 */
export function assembleGroups(
  resolved: ResolvedProviders,
  outcomes: ReadonlyMap<string, ProbeOutcome>,
  fallback: ReadonlyMap<string, ModelGroup> = new Map(),
): ModelGroup[] {
  return orderedEndpoints(resolved).map((e): ModelGroup => {
    const outcome = outcomes.get(e.id);
    const base = { provider: e.label, provider_id: e.id };
    if (outcome?.status === "ok") return { ...base, models: mergeModels(e.models, outcome.models) };
    const prior = fallback.get(e.id);
    const models = mergeModels(e.models, prior?.models ?? staticModelsFor(e.id));
    if (outcome?.status === "error") {
      return {
        ...base,
        models,
        ...(outcome.unreachable ? { unreachable: true } : {}),
        error: outcome.error,
      };
    }
    return { ...base, models, pending: true };
  });
}

/**
 * Re-fit cached groups to the current config: groups of endpoints no longer configured drop
 * out, new endpoints get their static group, and configured models are always present.
 */
export function fitGroups(
  resolved: ResolvedProviders,
  cached: readonly ModelGroup[],
): ModelGroup[] {
  const byId = new Map(cached.map((g) => [g.provider_id, g]));
  return orderedEndpoints(resolved).map((e) => {
    const g = byId.get(e.id);
    return g
      ? { ...g, provider: e.label, models: mergeModels(e.models, g.models) }
      : staticGroup(e);
  });
}

/**
 * Groups for the providers the config chose without an api key: their known models, marked
 * `needs_key` with the error saying which key to set (nothing is probed, nothing can run).
 */
export function unkeyedGroups(resolved: ResolvedProviders): ModelGroup[] {
  return (resolved.unkeyed ?? []).map((u) => ({
    provider: u.label,
    provider_id: u.id,
    models: mergeModels(u.models, staticModelsFor(u.id)),
    error: `No api key: set ${u.keyEnv} (or the provider's api_key in the config)`,
    needs_key: true,
  }));
}

/** The `/api/models` body: the usable providers' groups, then those still waiting for a key. */
export function modelsResponse(
  resolved: ResolvedProviders,
  groups: ModelGroup[],
  source: CatalogSource,
  refreshing = false,
): ModelsResponse {
  const known = new Set(groups.map((g) => g.provider_id));
  return {
    active_provider: resolved.activeProviderId,
    default_model: resolved.defaultModel,
    groups: [...groups, ...unkeyedGroups(resolved).filter((g) => !known.has(g.provider_id))],
    source,
    ...(refreshing ? { refreshing: true } : {}),
  };
}
