// `deno task build` (before bundling islands): copy KaTeX's stylesheet and fonts from the
// pinned npm package into static/katex/, so rendered math is styled from our own origin
// (CSP: style-src/font-src 'self'). Only WOFF2 fonts are shipped (every browser we support
// reads them) and the stylesheet is rewritten to reference only those. Idempotent: files are
// written only when their bytes change, and stale files are removed.
import katex from "katex";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
/** Where the assets go; lib/markdown/math.ts's KATEX_CSS_HREF points at its stylesheet. */
export const KATEX_OUT = join(ROOT, "static/katex");

/** KaTeX's CSS with every non-WOFF2 font source removed, and the fonts it still names. */
export function woff2Only(css: string): { css: string; fonts: string[] } {
  const out = css.replace(
    /,\s*url\((["']?)fonts\/[^)'"]+\.(?:woff|ttf)\1\)\s*format\((["'])(?:woff|truetype)\2\)/g,
    "",
  );
  const fonts = [...out.matchAll(/url\((["']?)([^)'"]+)\1\)/g)].map((m) => m[2]);
  for (const f of fonts) {
    if (!/^fonts\/[\w-]+\.woff2$/.test(f)) throw new Error(`unexpected url(${f}) in KaTeX's CSS`);
  }
  return { css: out, fonts: [...new Set(fonts)].sort() };
}

async function writeIfChanged(path: string, data: Uint8Array): Promise<boolean> {
  try {
    const old = await Deno.readFile(path);
    if (old.byteLength === data.byteLength && old.every((b, i) => b === data[i])) return false;
  } catch { /* missing */ }
  await Deno.writeFile(path, data);
  return true;
}

/** Where xterm.js's stylesheet goes; lib/browser/workspace/terminal_view.ts links it. */
export const XTERM_OUT = join(ROOT, "static/xterm");

/** Copy xterm.js's stylesheet (the terminal view links it on first use); returns 1 if rewritten. */
export async function copyXtermAssets(out = XTERM_OUT): Promise<number> {
  const css = fileURLToPath(import.meta.resolve("@xterm/xterm/css/xterm.css"));
  await Deno.mkdir(out, { recursive: true });
  return await writeIfChanged(join(out, "xterm.css"), await Deno.readFile(css)) ? 1 : 0;
}

/** Copy the assets; returns how many files were (re)written. */
export async function copyKatexAssets(out = KATEX_OUT): Promise<number> {
  const dist = fileURLToPath(new URL(".", import.meta.resolve("katex")));
  const { css, fonts } = woff2Only(await Deno.readTextFile(join(dist, "katex-swap.min.css")));
  await Deno.mkdir(join(out, "fonts"), { recursive: true });
  let written = 0;
  const keep = new Set(["katex.min.css", ...fonts]);
  if (await writeIfChanged(join(out, "katex.min.css"), new TextEncoder().encode(css))) written++;
  for (const f of fonts) {
    if (await writeIfChanged(join(out, f), await Deno.readFile(join(dist, f)))) written++;
  }
  for (const e of Deno.readDirSync(join(out, "fonts"))) {
    if (!keep.has(`fonts/${e.name}`)) await Deno.remove(join(out, "fonts", e.name));
  }
  for (const e of Deno.readDirSync(out)) {
    if (e.isFile && !keep.has(e.name)) await Deno.remove(join(out, e.name));
  }
  return written;
}

if (import.meta.main) {
  const written = await copyKatexAssets();
  console.log(`KaTeX ${katex.version} stylesheet + fonts → static/katex/ (${written} updated)`);
  console.log(`xterm.js stylesheet → static/xterm/ (${await copyXtermAssets()} updated)`);
}
