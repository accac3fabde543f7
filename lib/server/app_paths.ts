// Where the app's own files (static assets, the file-tool worker) live at run time. One rule
// for every way the console runs: from a checkout, from a foreign working directory, inside a
// `deno compile` binary (files embedded at their source paths via --include), and as a
// single-file bundle (`deno task bundle`: dist/main.js with static/ and the worker beside it).

/**
 * In a bundle every module shares the bundle's URL, which is then also the main module;
 * anywhere else this module's URL is its own source path under lib/.
 */
const bundled = import.meta.url === Deno.mainModule;

/** The app root: the folder holding main.ts (or the bundle's main.js), static/ and lib/. */
export const APP_ROOT: URL = bundled
  ? new URL("./", Deno.mainModule)
  : new URL("../../", import.meta.url);

/** A URL inside the app root, e.g. `appUrl("static/style.css")`. */
export function appUrl(relative: string): URL {
  return new URL(relative, APP_ROOT);
}
