// `deno task build`: bundle the islands runtime for the browser with esbuild. One client entry
// (lib/browser/islands_client.ts) plus one content-hashed chunk per island file, ESM with code
// splitting so preact and shared code load once; written to static/_islands/ with a
// manifest.json the server reads. The `lib/browser/pages/*.ts` modules (page scripts, `scripts` in
// the manifest; lib/server/page_scripts.ts) are bundled together as one entry — every console
// page loads them all, and one response compresses far better than ten small ones — in the same
// build, so they share chunks with the islands; a script another page loads alone (the login
// page's passkeys) stays an entry of its own. Then print, per page, the JavaScript it loads
// before any interaction (gzipped, page scripts included) and fail when a page exceeds the budget.
import * as esbuild from "esbuild";
import { browserKeys } from "./i18n_keys.ts";
import { messagesFor } from "../lib/i18n/catalog.ts";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import type { PageScriptBundle } from "../lib/server/page_scripts.ts";
import { islandNameFromPath } from "../lib/server/islands.ts";
import { routePathFromFile } from "../lib/server/file_router.ts";
import { sourceFiles } from "./source_files.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = "static/_islands";
const BASE = "/static/_islands/";
/** A page that reaches this module through its static imports loads the page scripts. */
const PAGE_SCRIPTS_MODULE = "lib/server/page_scripts.ts";
/** `lib/browser/pages/sidebar.ts` → `sidebar`: the page script's name in the manifest. */
const scriptName = (path: string) => path.split("/").at(-1)!.replace(/\.ts$/, "");
/**
 * Scripts of pages outside the console's shell, each loaded by its own page alone (`standalone`
 * in the manifest): the share page's diagrams. Never page scripts, so no console page pays them.
 */
const STANDALONE_SCRIPTS: Record<string, string> = { share: "lib/browser/share_page.ts" };
/** Page scripts a page loads on its own (routes/login.tsx: passkeys): kept out of the one bundle. */
const SOLO_SCRIPTS = new Set(["passkeys"]);
/** The entry that imports every other page script, in name order (the order their tags had). */
const PAGE_SCRIPTS_ENTRY = "hermes-page-scripts";
const pageScriptsEntry: esbuild.Plugin = {
  name: "page-scripts-entry",
  setup(build) {
    build.onResolve(
      { filter: new RegExp(`^${PAGE_SCRIPTS_ENTRY}$`) },
      (args) => ({ path: args.path, namespace: PAGE_SCRIPTS_ENTRY }),
    );
    build.onLoad({ filter: /.*/, namespace: PAGE_SCRIPTS_ENTRY }, () => ({
      contents: sourceFiles(join(ROOT, "lib/browser/pages"), /\.ts$/).map(rel).sort()
        .filter((f) => !SOLO_SCRIPTS.has(scriptName(f)))
        .map((f) => `import "./${f}";`).join("\n"),
      resolveDir: ROOT,
      loader: "ts",
    }));
  },
};
/** The issue's budget: JS a page loads before interaction, gzipped. */
export const PAGE_BUDGET_GZIP = 60 * 1024;

const rel = (p: string) => relative(ROOT, p).split("\\").join("/");

export interface BuildOptions {
  /** Development builds keep names readable and add source maps. */
  dev?: boolean;
}

export interface PageWeight {
  route: string;
  islands: string[];
  /** Page scripts it loads (all of lib/browser/pages/, or none). */
  scripts: string[];
  files: string[];
  bytes: number;
  gzip: number;
}

export interface BuildResult {
  bundle: PageScriptBundle;
  pages: PageWeight[];
}

/** Static imports of `file` in the metafile, transitively (not including `file`). */
function staticClosure(meta: esbuild.Metafile, file: string): string[] {
  const seen = new Set<string>();
  const visit = (f: string) => {
    for (const imp of meta.outputs[f]?.imports ?? []) {
      if (imp.kind !== "import-statement" || seen.has(imp.path)) continue;
      seen.add(imp.path);
      visit(imp.path);
    }
  };
  visit(file);
  return [...seen];
}

/**
 * Islands each page can render: the island files reachable through its static imports
 * (plus `_app.tsx`'s), found by an esbuild analysis pass that writes nothing; and whether
 * it reaches lib/server/page_scripts.ts (then it loads the page scripts).
 */
async function pageIslands(
  islandFiles: string[],
): Promise<Map<string, { islands: string[]; scripts: boolean }>> {
  const pages = sourceFiles(join(ROOT, "routes"), /\.(tsx|jsx)$/).map(rel)
    .filter((p) => !p.split("/").at(-1)!.startsWith("_"));
  const app = sourceFiles(join(ROOT, "routes"), /^_app\.(tsx|jsx)$/).map(rel);
  const islandSet = new Set([...islandFiles, PAGE_SCRIPTS_MODULE]);
  const reach = async (entry: string): Promise<string[] | null> => {
    try {
      const r = await esbuild.build({
        absWorkingDir: ROOT,
        entryPoints: [entry],
        bundle: true,
        write: false,
        metafile: true,
        outdir: "analysis",
        format: "esm",
        platform: "neutral",
        packages: "external",
        external: ["node:*", "npm:*", "jsr:*"],
        jsx: "automatic",
        jsxImportSource: "preact",
        logLevel: "silent",
      });
      // A route file with no default export is not a page (an API handler, a partial).
      const exportsPage = Object.values(r.metafile.outputs)
        .some((o) => o.entryPoint && o.exports.includes("default"));
      if (!exportsPage) return null;
      return Object.keys(r.metafile.inputs).filter((f) => islandSet.has(f));
    } catch (err) {
      console.warn(`could not analyse ${entry}: ${(err as Error).message.split("\n")[0]}`);
      return [];
    }
  };
  const appIslands = app.length ? (await reach(app[0])) ?? [] : [];
  const out = new Map<string, { islands: string[]; scripts: boolean }>();
  for (const page of pages) {
    const own = await reach(page);
    if (!own) continue;
    const found = new Set([...appIslands, ...own]);
    const scripts = found.delete(PAGE_SCRIPTS_MODULE);
    out.set("./" + page, { islands: [...found].map(islandNameFromPath).sort(), scripts });
  }
  return out;
}

/**
 * The browser gets its catalog's ICU messages already parsed (lib/i18n/catalog.ts), so
 * intl-messageformat ships with formatjs's "no-parser" stub in place of the parser (~7 KB gz).
 */
const withoutIcuParser: esbuild.Plugin = {
  name: "without-icu-parser",
  setup(build) {
    build.onResolve(
      { filter: /^@formatjs\/icu-messageformat-parser$/ },
      (args) =>
        build.resolve("@formatjs/icu-messageformat-parser/no-parser.js", {
          kind: args.kind,
          resolveDir: args.resolveDir,
        }),
    );
  },
};

/** Bundle, write static/_islands/ (new files first, then the manifest, then remove stale). */
export async function buildIslands(opts: BuildOptions = {}): Promise<BuildResult> {
  const islandFiles = sourceFiles(join(ROOT, "islands"), /\.(tsx?|jsx?)$/).map(rel);
  const clientFiles = sourceFiles(join(ROOT, "lib/browser/pages"), /\.ts$/).map(rel);
  const entryPoints = [
    { in: "lib/browser/islands_client.ts", out: "boot" },
    ...islandFiles.map((f) => ({ in: f, out: islandNameFromPath(f) })),
    { in: PAGE_SCRIPTS_ENTRY, out: "pages" },
    ...clientFiles.filter((f) => SOLO_SCRIPTS.has(scriptName(f)))
      .map((f) => ({ in: f, out: "page-" + scriptName(f) })),
    ...Object.entries(STANDALONE_SCRIPTS).map(([name, f]) => ({ in: f, out: name })),
  ];
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: ["es2022"],
    outdir: OUT,
    entryNames: "[name]-[hash]",
    chunkNames: "chunk-[hash]",
    jsx: "automatic",
    jsxImportSource: "preact",
    minify: !opts.dev,
    sourcemap: opts.dev ? "linked" : false,
    legalComments: "none",
    define: { "process.env.NODE_ENV": opts.dev ? '"development"' : '"production"' },
    metafile: true,
    write: false,
    logLevel: "silent",
    plugins: [withoutIcuParser, pageScriptsEntry],
  });
  const meta = result.metafile;
  const base = (p: string) => p.slice(OUT.length + 1);
  const byEntry = new Map<string, string>();
  for (const [file, out] of Object.entries(meta.outputs)) {
    if (out.entryPoint) byEntry.set(out.entryPoint, file);
  }
  const chunkOf = (entry: string) => {
    const file = byEntry.get(entry);
    if (!file) throw new Error(`esbuild produced no output for ${entry}`);
    return { file: base(file), imports: staticClosure(meta, file).map(base) };
  };
  const bundle: PageScriptBundle = {
    version: 1,
    base: BASE,
    entry: chunkOf("lib/browser/islands_client.ts"),
    islands: Object.fromEntries(islandFiles.map((f) => [islandNameFromPath(f), chunkOf(f)])),
    scripts: Object.fromEntries(clientFiles.map((f) => [
      scriptName(f),
      chunkOf(SOLO_SCRIPTS.has(scriptName(f)) ? f : `${PAGE_SCRIPTS_ENTRY}:${PAGE_SCRIPTS_ENTRY}`),
    ])),
    standalone: Object.fromEntries(
      Object.entries(STANDALONE_SCRIPTS).map(([name, f]) => [name, chunkOf(f)]),
    ),
    pages: {},
    inputs: Object.keys(meta.inputs)
      .filter((f) => !f.includes("node_modules/") && !f.startsWith(`${PAGE_SCRIPTS_ENTRY}:`))
      .sort(),
  };
  // The catalog keys a page must ship: those the bundled sources name (tools/i18n_keys.ts).
  bundle.i18nKeys = browserKeys(
    Object.keys(messagesFor("en")),
    bundle.inputs!.map((f) => Deno.readTextFileSync(join(ROOT, f))),
  );

  const contents = new Map<string, Uint8Array>();
  for (const f of result.outputFiles) contents.set(base(rel(f.path)), f.contents);
  const gz = new Map<string, number>();
  const gzipOf = (f: string) => {
    if (!gz.has(f)) gz.set(f, gzipSync(contents.get(f)!, { level: 9 }).byteLength);
    return gz.get(f)!;
  };

  const pages: PageWeight[] = [];
  for (const [file, { islands, scripts: loadsScripts }] of await pageIslands(islandFiles)) {
    const files = new Set<string>();
    const scripts = loadsScripts ? Object.keys(bundle.scripts!).sort() : [];
    for (const name of scripts) {
      files.add(bundle.scripts![name].file);
      for (const f of bundle.scripts![name].imports) files.add(f);
    }
    if (islands.length) {
      for (const f of [bundle.entry.file, ...bundle.entry.imports]) files.add(f);
    }
    for (const name of islands) {
      files.add(bundle.islands[name].file);
      for (const f of bundle.islands[name].imports) files.add(f);
    }
    const list = [...files].filter((f) => f.endsWith(".js"));
    const weight = {
      route: routePathFromFile(file),
      islands,
      scripts,
      files: list,
      bytes: list.reduce((n, f) => n + contents.get(f)!.byteLength, 0),
      gzip: list.reduce((n, f) => n + gzipOf(f), 0),
    };
    pages.push(weight);
    bundle.pages![weight.route] = {
      islands,
      scripts,
      files: list,
      bytes: weight.bytes,
      gzip: weight.gzip,
    };
  }

  const outDir = join(ROOT, OUT);
  await Deno.mkdir(outDir, { recursive: true });
  // Names carry a content hash: an existing file already holds these bytes. Rewriting it
  // anyway would let a page loading it meanwhile (a parallel test, a dev reload) read it torn.
  for (const [name, data] of contents) {
    const path = join(outDir, name);
    const exists = await Deno.stat(path).then((s) => s.size === data.byteLength, () => false);
    if (!exists || name.endsWith(".map")) await Deno.writeFile(path, data);
  }
  const manifestTmp = join(outDir, "manifest.json.tmp");
  await Deno.writeTextFile(manifestTmp, JSON.stringify(bundle, null, 2) + "\n");
  await Deno.rename(manifestTmp, join(outDir, "manifest.json"));
  for (const e of Deno.readDirSync(outDir)) {
    if (e.isFile && e.name !== "manifest.json" && !contents.has(e.name)) {
      await Deno.remove(join(outDir, e.name));
    }
  }
  return { bundle, pages };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/** The build report: one line per page with its pre-interaction JavaScript, gzipped. */
export function formatReport({ bundle, pages }: BuildResult): string {
  const lines = [
    `islands: ${Object.keys(bundle.islands).join(", ") || "(none)"} → ${OUT}/`,
    `page scripts (lib/browser/pages/): ${
      Object.keys(bundle.scripts ?? {}).join(", ") || "(none)"
    }`,
    "JavaScript each page loads before any interaction (gzip, budget " +
    `${kb(PAGE_BUDGET_GZIP)}):`,
  ];
  const width = Math.max(...pages.map((p) => p.route.length), 4);
  for (const p of pages.sort((a, b) => a.route.localeCompare(b.route))) {
    const parts = [
      ...p.islands,
      ...(p.scripts.length ? [`${p.scripts.length} page scripts`] : []),
    ];
    const what = parts.length ? `${parts.join(", ")} (${p.files.length} files)` : "no JS";
    const over = p.gzip > PAGE_BUDGET_GZIP ? "  OVER BUDGET" : "";
    lines.push(`  ${p.route.padEnd(width)}  ${kb(p.gzip).padStart(9)} gz  ${what}${over}`);
  }
  return lines.join("\n");
}

if (import.meta.main) {
  try {
    const result = await buildIslands({ dev: Deno.args.includes("--dev") });
    console.log(formatReport(result));
    const over = result.pages.filter((p) => p.gzip > PAGE_BUDGET_GZIP);
    if (over.length) {
      console.error(
        `error: ${over.map((p) => `${p.route} loads ${kb(p.gzip)} gz`).join("; ")}; the budget ` +
          `is ${kb(PAGE_BUDGET_GZIP)} before interaction. Lazy-load what is not needed at once.`,
      );
      Deno.exitCode = 1;
    }
  } catch (err) {
    const errors = (err as { errors?: esbuild.Message[] }).errors;
    if (errors?.length) {
      const text = await esbuild.formatMessages(errors, { kind: "error" });
      console.error(text.join("\n"));
    } else console.error(err);
    Deno.exitCode = 1;
  } finally {
    await esbuild.stop();
  }
}
