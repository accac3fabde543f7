// The server side of the islands runtime (Fresh's conventions on npm parts). Components
// exported by files under islands/ render on the server inside a `<hermes-island>` marker and
// are hydrated in the browser by the one client entry (lib/browser/islands_client.ts). Invariants: an
// island nested in another island is plain code of its parent (one marker, one hydration);
// a page rendering no island gets no island script at all; props cross as JSON + signals.
import { type ComponentType, createContext, h, options, type VNode } from "preact";
import { useContext } from "preact/hooks";
import { renderToString } from "preact-render-to-string";
// Every server render reads the message catalog (lib/i18n/t.ts gets it from here on the server).
import "../i18n/catalog.ts";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { appUrl } from "./app_paths.ts";
import {
  createPropsEncoder,
  ISLAND_TAG,
  type IslandPayload,
  ISLANDS_SCRIPT_ID,
  scriptSafeJson,
} from "../shared/island_props.ts";

/** One hydratable component: a component exported by a file under islands/. */
export interface IslandInfo {
  /** File name without folder prefix and extension, `/` → `_` (`Composer`). */
  name: string;
  /** Export to hydrate: `default`, or the name of a named component export. */
  exportName: string;
}

// deno-lint-ignore no-explicit-any
type AnyComponent = ComponentType<any>;

/** Component function → island identity; built once from the route manifest. */
export type IslandRegistry = Map<AnyComponent, IslandInfo>;

/** `./islands/chat/Composer.tsx` → `chat_Composer`. Also the bundle's entry-point name. */
export function islandNameFromPath(path: string): string {
  return path.replace(/^\.?\/?islands\//, "").replace(/\.(tsx?|jsx?)$/, "").split("/").join("_");
}

/**
 * The registry for `manifest.islands` (routes.gen.ts): every default export, and every
 * named export that is a capitalised function, of every island file.
 */
export function createIslandRegistry(
  islands: Record<string, Record<string, unknown>>,
): IslandRegistry {
  const registry: IslandRegistry = new Map();
  for (const [path, mod] of Object.entries(islands)) {
    const name = islandNameFromPath(path);
    for (const [exportName, value] of Object.entries(mod)) {
      if (typeof value !== "function") continue;
      if (exportName !== "default" && !/^[A-Z]/.test(exportName)) continue;
      if (registry.has(value as AnyComponent)) continue; // `export default X; export { X }`
      registry.set(value as AnyComponent, { name, exportName });
    }
  }
  return registry;
}

/** An island instance met while rendering a page, with its raw (unencoded) props. */
export interface RenderedIsland extends IslandInfo {
  id: number;
  props: Record<string, unknown>;
}

const InsideIsland = createContext(false);

/** The island instances of the render in progress (renders are synchronous: one at a time). */
let current: RenderedIsland[] | null = null;
/** Island vnodes created by a boundary: rendered as they are, never wrapped again. */
const innerVNodes = new WeakSet<object>();
/** One stable boundary component per island component. */
const boundaries = new WeakMap<AnyComponent, AnyComponent>();

function boundaryFor(component: AnyComponent, info: IslandInfo): AnyComponent {
  let boundary = boundaries.get(component);
  if (!boundary) {
    boundary = (props: Record<string, unknown>) => {
      const inner = h(component, props);
      innerVNodes.add(inner);
      if (useContext(InsideIsland) || !current) return inner;
      const id = current.length;
      current.push({ ...info, id, props });
      return h(
        InsideIsland.Provider,
        { value: true },
        h(ISLAND_TAG, { "data-island": info.name, "data-id": String(id) }, inner),
      );
    };
    boundaries.set(component, boundary);
  }
  return boundary;
}

type DiffHook = (vnode: VNode) => void;
/**
 * preact's "diff begin" hook, called for every vnode right before it renders (the mangled
 * name of `options._diff`, the same in preact 10 and 11; Fresh hooks islands in here too).
 * Unlike `options.vnode` it also sees vnodes created before the render started.
 */
const hooks = options as unknown as { __b?: DiffHook };

/**
 * Render `vnode` to HTML, wrapping each outermost island in its marker and collecting its
 * props. The hook that swaps island components for their boundary is installed only for
 * this synchronous render, so nothing leaks into other renders or the client.
 */
export function renderWithIslands(
  // deno-lint-ignore no-explicit-any
  vnode: VNode<any>,
  registry: IslandRegistry,
): { html: string; islands: RenderedIsland[] } {
  const islands: RenderedIsland[] = [];
  const previous = hooks.__b;
  const outer = current;
  hooks.__b = (v: VNode) => {
    if (typeof v.type === "function" && !innerVNodes.has(v)) {
      const info = registry.get(v.type as AnyComponent);
      if (info) v.type = boundaryFor(v.type as AnyComponent, info);
    }
    previous?.(v);
  };
  current = islands;
  try {
    return { html: renderToString(vnode), islands };
  } finally {
    hooks.__b = previous;
    current = outer;
  }
}

/** static/_islands/manifest.json, written by tools/build_islands.ts. */
export interface IslandBundle {
  version: 1;
  /** URL prefix of every file below (`/static/_islands/`). */
  base: string;
  /** The client entry and the chunks it imports statically (transitively). */
  entry: { file: string; imports: string[] };
  /** Island name → its chunk and the chunks that chunk imports statically. */
  islands: Record<string, { file: string; imports: string[] }>;
  /** What each page loads before interaction, as measured by the build. */
  pages?: Record<string, { islands: string[]; files: string[]; bytes: number; gzip: number }>;
  /** Project files the bundles were built from (tests rebuild when one is newer). */
  inputs?: string[];
  /** The message-catalog keys the browser code names (tools/i18n_keys.ts): what a page ships. */
  i18nKeys?: string[];
}

/** Where `deno task build` writes bundles (lib/server/app_paths.ts: works compiled and bundled). */
export const ISLANDS_OUT_DIR = fileURLToPath(appUrl("static/_islands/"));

/**
 * Reads the bundle manifest, re-reading it only when its modification time changes (so a
 * dev rebuild is picked up without restarting). `undefined` when nothing was built yet.
 */
export function createBundleReader(dir = ISLANDS_OUT_DIR): () => IslandBundle | undefined {
  let cached: { mtime: number; bundle: IslandBundle } | undefined;
  const path = join(dir, "manifest.json");
  return () => {
    let mtime: number;
    try {
      mtime = Deno.statSync(path).mtime?.getTime() ?? 0;
    } catch {
      cached = undefined;
      return undefined;
    }
    if (cached?.mtime !== mtime) {
      cached = { mtime, bundle: JSON.parse(Deno.readTextFileSync(path)) as IslandBundle };
    }
    return cached.bundle;
  };
}

/** The tags a page with islands needs: preloads for `<head>`, payload + entry for `<body>`. */
export interface IslandTags {
  head: string;
  body: string;
  /** Islands the bundle does not know (built before they were added): rendered, not hydrated. */
  missing: string[];
}

const attr = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;");

/**
 * Build the script tags for `islands` against `bundle` (undefined: nothing built yet, so
 * every island is `missing`). Props are encoded even then, so a prop that cannot cross to
 * the browser fails the render in every environment. Every chunk the page imports before
 * interaction is preloaded: hydration costs one round trip, not a waterfall.
 */
export function islandTags(
  islands: RenderedIsland[],
  bundle: IslandBundle | undefined,
): IslandTags {
  const missing: string[] = [];
  const encoder = createPropsEncoder();
  const payload: IslandPayload = { signals: encoder.signals, islands: [] };
  const files = new Set<string>();
  for (const island of islands) {
    const props = encoder.encode(island.name, island.props);
    const chunk = bundle?.islands[island.name];
    if (!bundle || !chunk) {
      if (!missing.includes(island.name)) missing.push(island.name);
      continue;
    }
    if (files.size === 0) {
      for (const f of [bundle.entry.file, ...bundle.entry.imports]) files.add(f);
    }
    files.add(chunk.file);
    for (const f of chunk.imports) files.add(f);
    payload.islands.push({
      id: island.id,
      name: island.name,
      export: island.exportName,
      url: bundle.base + chunk.file,
      props,
    });
  }
  if (!bundle || payload.islands.length === 0) return { head: "", body: "", missing };
  const head = [...files].map((f) => `<link rel="modulepreload" href="${attr(bundle.base + f)}">`)
    .join("");
  const body = `<script type="application/json" id="${ISLANDS_SCRIPT_ID}">` +
    scriptSafeJson(payload) + "</script>" +
    `<script type="module" src="${attr(bundle.base + bundle.entry.file)}"></script>`;
  return { head, body, missing };
}
