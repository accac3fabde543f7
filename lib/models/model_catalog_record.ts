// The schema of the model catalog's durable cache record (model_catalog_store.ts
// `DurableCatalog`): a cache file that does not match it reads as no cache. Its own file, loaded
// on the first cache read, so the catalog (built at start) does not pull zod onto the start path.
import { z } from "zod";

const modelSchema = z.object({
  id: z.string(),
  label: z.string(),
  context_window: z.number().optional(),
  supports_tools: z.boolean().optional(),
  supports_vision: z.boolean().optional(),
});
/** A `DurableCatalog` as stored in `<stateDir>/models_cache.json`. */
export const durableSchema = z.object({
  version: z.literal(1),
  generation: z.number(),
  identity: z.object({ profile: z.string(), config: z.string(), providers: z.string() }),
  saved_at_ms: z.number(),
  expires_at_ms: z.number(),
  groups: z.array(z.object({
    provider: z.string(),
    provider_id: z.string(),
    models: z.array(modelSchema),
    unreachable: z.literal(true).optional(),
    error: z.string().optional(),
  })),
});
