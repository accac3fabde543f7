// Browser-safe: imports nothing from Deno or the database.
// The one client entry of the islands runtime (built by tools/build_islands.ts): read the
// page's JSON payload, import each island's chunk and hydrate it into its `<hermes-island>`
// marker. @preact/signals is imported only when the payload holds signals.
import { type ComponentType, h, hydrate } from "preact";
import {
  decodeIslandProps,
  ISLAND_TAG,
  type IslandPayload,
  ISLANDS_SCRIPT_ID,
  payloadHasSignals,
  type SignalLike,
} from "../shared/island_props.ts";

/** Module loader, injectable so tests can hydrate without a network (defaults to import()). */
export type ChunkLoader = (url: string) => Promise<Record<string, unknown>>;

/**
 * Hydrate every island described by the payload in `doc`. Islands load in parallel; one
 * that fails is reported (console.error, so browser tests catch it) without stopping the
 * others. Resolves once every island has been attempted.
 */
export async function hydrateIslands(
  doc: Document,
  load: ChunkLoader = (url) => import(url),
): Promise<void> {
  const script = doc.getElementById(ISLANDS_SCRIPT_ID);
  if (!script?.textContent) return;
  const payload = JSON.parse(script.textContent) as IslandPayload;
  let createSignal: ((v: unknown) => SignalLike) | undefined;
  if (payloadHasSignals(payload)) createSignal = (await import("@preact/signals")).signal;
  const props = decodeIslandProps(payload, createSignal);
  await Promise.all(payload.islands.map(async (island, i) => {
    try {
      const el = doc.querySelector(`${ISLAND_TAG}[data-id="${island.id}"]`);
      if (!el) throw new Error(`no <${ISLAND_TAG} data-id="${island.id}"> marker on the page`);
      const mod = await load(island.url);
      const component = mod[island.export];
      if (typeof component !== "function") {
        throw new Error(`${island.url} has no component export "${island.export}"`);
      }
      hydrate(h(component as ComponentType, props[i]), el);
      el.setAttribute("data-hydrated", "");
    } catch (err) {
      console.error(`Island "${island.name}" failed to hydrate:`, err);
    }
  }));
}

if (typeof document !== "undefined" && typeof window !== "undefined") {
  hydrateIslands(document).catch((err) => console.error("Islands failed to start:", err));
}
