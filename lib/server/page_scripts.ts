// Page scripts: the small vanilla modules under lib/browser/pages/ (menus, panel toggles, refresh
// without reload) that give server-rendered chrome its behaviour. The build bundles each one
// as a content-hashed ESM entry (tools/build_islands.ts); a page loads ALL of them when, and
// only when, something it rendered called usePageScripts() (the app shell does; /login does not).
import type { IslandBundle } from "./islands.ts";

/** One bundled page script: its chunk and the chunks it imports statically (transitively). */
export interface PageScriptChunk {
  file: string;
  imports: string[];
}

/** The bundle manifest with the page scripts the build added (`lib/browser/pages/<name>.ts`). */
export type PageScriptBundle = Omit<IslandBundle, "pages"> & {
  scripts?: Record<string, PageScriptChunk>;
  /** Scripts a page outside the shell loads alone, by name (the share page's `share`). */
  standalone?: Record<string, PageScriptChunk>;
  /** What each page loads before interaction, as measured by the build. */
  pages?: Record<string, {
    islands: string[];
    /** Page scripts it loads: every one, or none (lib/server/page_scripts.ts not reached). */
    scripts?: string[];
    files: string[];
    bytes: number;
    gzip: number;
  }>;
};

/** The collection of the render in progress (renders are synchronous: one at a time). */
let current: { wanted: boolean } | null = null;

/**
 * Called by a component while it renders on the server (the app shell) to ask for the page
 * scripts. Outside a collecting render it does nothing, so components stay pure in tests.
 */
export function usePageScripts(): void {
  if (current) current.wanted = true;
}

/** Run the synchronous render `fn`, reporting whether anything it rendered wants page scripts. */
export function collectPageScripts<T>(fn: () => T): { result: T; wanted: boolean } {
  const outer = current;
  const mine = { wanted: false };
  current = mine;
  try {
    return { result: fn(), wanted: mine.wanted };
  } finally {
    current = outer;
  }
}

const attr = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;");

/**
 * The tags that load every page script: modulepreloads (for `<head>`) of the chunks they
 * import, skipping those already preloaded by the islands, and one module script each (for
 * the end of `<body>`, after the islands entry). Empty when the build made none.
 */
export function pageScriptTags(
  bundle: PageScriptBundle | undefined,
  alreadyPreloaded: ReadonlySet<string> = new Set(),
): { head: string; body: string } {
  const scripts = Object.entries(bundle?.scripts ?? {}).sort(([a], [b]) => a.localeCompare(b));
  if (!bundle || scripts.length === 0) return { head: "", body: "" };
  const preload = new Set<string>();
  for (const [, chunk] of scripts) {
    for (const f of chunk.imports) if (!alreadyPreloaded.has(f)) preload.add(f);
  }
  const head = [...preload]
    .map((f) => `<link rel="modulepreload" href="${attr(bundle.base + f)}">`).join("");
  // Page scripts bundled together share one file: one tag for it.
  const body = [...new Set(scripts.map(([, chunk]) => chunk.file))]
    .map((file) => `<script type="module" src="${attr(bundle.base + file)}"></script>`)
    .join("");
  return { head, body };
}
