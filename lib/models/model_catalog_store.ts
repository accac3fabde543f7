// The model catalog's source identity and its durable cache `<stateDir>/models_cache.json`.
// Invariants: an identity that cannot be read is null and matches nothing (fail closed); the
// cache file is only ever replaced by renaming a complete temp file from the same directory, so
// a reader sees the old catalog or the new one, whole, never a torn write.
import { createHash } from "node:crypto";
import { dirname, join } from "node:path";
import type { AppConfig } from "../settings/config.ts";
import { randomHex } from "../ids.ts";
import type { ModelGroup } from "./model_groups.ts";
import { resolveProviders } from "../providers/provider_config.ts";

/**
 * What a catalog was built from: the profile (config path), the config file's bytes and the
 * resolved provider set with its keys (env-sourced keys change the outcome too). Hashes only.
 */
export interface SourceIdentity {
  profile: string;
  config: string;
  providers: string;
}

const sha256 = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

/** Read the identity of `config`'s sources now. Null when the config file cannot be read. */
export async function readSourceIdentity(config: AppConfig): Promise<SourceIdentity | null> {
  let fileHash: string;
  try {
    fileHash = sha256(await Deno.readFile(config.configPath));
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) return null;
    fileHash = "absent";
  }
  try {
    const r = resolveProviders(config);
    const providers = sha256(JSON.stringify({
      active: r.activeProviderId,
      default: r.defaultModel,
      endpoints: r.endpoints.map((
        e,
      ) => [e.id, e.protocol, e.baseUrl, e.apiKey, e.models, e.userConfigured]),
    }));
    return { profile: config.configPath, config: fileHash, providers };
  } catch {
    return null;
  }
}

/** Same sources? False when either side could not be read. */
export function sameIdentity(a: SourceIdentity | null, b: SourceIdentity | null): boolean {
  return !!a && !!b && a.profile === b.profile && a.config === b.config &&
    a.providers === b.providers;
}

/** The durable cache record: the groups plus the identity the build READ. */
export interface DurableCatalog {
  version: 1;
  generation: number;
  identity: SourceIdentity;
  /** `timers.now()` ms at save and expiry. */
  saved_at_ms: number;
  expires_at_ms: number;
  groups: ModelGroup[];
}

/** The cache file and its same-directory temp files. */
export class CatalogCacheFile {
  constructor(readonly path: string) {}

  /** The cached catalog, or null when absent, unreadable or not a valid record. */
  async read(): Promise<DurableCatalog | null> {
    try {
      const text = await Deno.readTextFile(this.path);
      // The record's schema (zod) loads with the first read, not at start.
      const { durableSchema } = await import("./model_catalog_record.ts");
      const parsed = durableSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data as DurableCatalog : null;
    } catch {
      return null;
    }
  }

  /** Write `record` to a temp file unique to this build, next to the destination. */
  async writeTemp(record: DurableCatalog): Promise<string> {
    const dir = dirname(this.path);
    await Deno.mkdir(dir, { recursive: true });
    const temp = join(dir, `.models_cache.${record.generation}.${randomHex(12)}.tmp`);
    await Deno.writeTextFile(temp, JSON.stringify(record), { mode: 0o600 });
    return temp;
  }

  /** Atomically replace the cache with `temp` (same filesystem, so rename is atomic). */
  async commit(temp: string): Promise<void> {
    await Deno.rename(temp, this.path);
  }

  /** Throw away a temp file that lost its race. */
  async discard(temp: string): Promise<void> {
    await Deno.remove(temp).catch(() => {});
  }

  /** Delete the cache (invalidation). */
  async remove(): Promise<void> {
    await Deno.remove(this.path).catch((err) => {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    });
  }
}
