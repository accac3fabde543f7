// Browser-safe: imports nothing from Deno or the database.
// Math in markdown: `$…$` / `\(…\)` inline, `$$…$$` / `\[…\]` display, tokenized by marked
// extensions that follow marked-katex-extension's rules (same token names and output) and
// rendered by KaTeX, which is imported only once a message contains math (it is ~270 KB).
// Invariants: KaTeX never trusts input (no \href, \url, \html*), errors render as text, a
// display block never spans a blank line (so streaming can settle at blank lines).
import type { KatexOptions } from "katex";
import type { TokenizerAndRendererExtension, Tokens } from "marked";

/** The stylesheet KaTeX's HTML needs (copied by tools/copy_vendor_assets.ts). */
export const KATEX_CSS_HREF = "/static/katex/katex.min.css";

/** A math token, as marked-katex-extension names them. */
export interface MathToken extends Tokens.Generic {
  type: "inlineKatex" | "blockKatex";
  raw: string;
  text: string;
  displayMode: boolean;
}

/**
 * Fixed KaTeX options. `trust: false` refuses \href, \url, \includegraphics and \html*;
 * `maxSize`/`maxExpand` bound what a hostile formula can cost; `strict: "ignore"` keeps the
 * console quiet about harmless non-LaTeX input.
 */
export const KATEX_OPTIONS: Readonly<KatexOptions> = Object.freeze({
  throwOnError: false,
  output: "html",
  trust: false,
  strict: "ignore",
  maxSize: 50,
  maxExpand: 1000,
});

// marked-katex-extension 5's inline rule, tightened against prices ("$5 and $10") the way
// Pandoc does: no unescaped `$` inside, and `$x$` has no space just inside its dollars. In
// exchange the closing `$` may also be followed by `;`, `)`, `]`, `}` or a quote ("($x$)"),
// and math may open after any whitespace or opening bracket, not only after a space.
const CLOSE = String.raw`(?=[\s?!.,:;)\]}'"”’？！。，：；）]|$)`;
const INLINE_DOLLAR = new RegExp(
  String.raw`^\$(?![\s$])((?:\\.|[^\\\n$])*?(?:\\.|[^\\\n$\s]))\$` + CLOSE,
);
const INLINE_DISPLAY = new RegExp(
  String.raw`^\$\$(?!\$)((?:\\.|[^\\\n$])*?(?:\\.|[^\\\n$]))\$\$` + CLOSE,
);
const INLINE_PAREN = /^\\\(((?:[^\\\n]|\\[^)\n])+?)\\\)/;
const OPENS_INLINE = /[\s([{'"“‘]/;
// A line of `$$` (or marked-katex-extension's `$`), the formula, a closing line; no blank line.
const BODY = String.raw`((?![ \t]*(?:\n|$))[^\n](?:[^\n]|\n(?![ \t]*(?:\n|$)))*?)`;
const BLOCK_DOLLAR = new RegExp(String.raw`^(\${1,2})\n` + BODY + String.raw`\n\1(?:\n|$)`);
const BLOCK_BRACKET = new RegExp(
  String.raw`^ {0,3}\\\[[ \t]*\n?` + BODY + String.raw`\n?[ \t]*\\\][ \t]*(?:\n|$)`,
);

function matchBlock(src: string): MathToken | undefined {
  let m = BLOCK_DOLLAR.exec(src);
  if (m) {
    return {
      type: "blockKatex",
      raw: m[0],
      text: m[2].trim(),
      displayMode: m[1].length === 2,
    };
  }
  m = BLOCK_BRACKET.exec(src);
  if (m) return { type: "blockKatex", raw: m[0], text: m[1].trim(), displayMode: true };
  return undefined;
}

function matchInline(src: string): MathToken | undefined {
  let m = INLINE_DISPLAY.exec(src);
  if (m) return { type: "inlineKatex", raw: m[0], text: m[1].trim(), displayMode: true };
  m = INLINE_DOLLAR.exec(src);
  if (m) return { type: "inlineKatex", raw: m[0], text: m[1], displayMode: false };
  m = INLINE_PAREN.exec(src);
  if (m) return { type: "inlineKatex", raw: m[0], text: m[1].trim(), displayMode: false };
  return undefined;
}

let katex: { renderToString(tex: string, opts: KatexOptions): string } | undefined;
let katexPromise: Promise<void> | undefined;
const cache = new Map<string, string>();
const CACHE_MAX = 500;

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");

/** True once KaTeX is loaded: math renders as math, not as its source. */
export function mathReady(): boolean {
  return katex !== undefined;
}

/** In a browser, add KaTeX's stylesheet unless the page already links it; resolve when loaded. */
function ensureStylesheet(): Promise<void> {
  if (typeof document === "undefined") return Promise.resolve();
  const existing = document.querySelector(`link[rel="stylesheet"][href="${KATEX_CSS_HREF}"]`);
  if (existing) return Promise.resolve();
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = KATEX_CSS_HREF;
  const loaded = new Promise<void>((resolve) => {
    link.onload = () => resolve();
    link.onerror = () => resolve(); // formulas still render; only their layout suffers
  });
  document.head.appendChild(link);
  return loaded;
}

/** Import KaTeX (its own chunk) and, in a browser, its stylesheet. Idempotent. */
export function loadMath(): Promise<void> {
  katexPromise ??= Promise.all([import("katex"), ensureStylesheet()]).then(([mod]) => {
    katex = mod.default;
  });
  katexPromise.catch(() => (katexPromise = undefined));
  return katexPromise;
}

/** KaTeX HTML for `tex`; while KaTeX is not loaded, the escaped source in a placeholder. */
export function renderMath(token: MathToken): string {
  const nl = token.type === "blockKatex" ? "\n" : "";
  if (!katex) {
    const cls = token.displayMode ? "math-pending math-display" : "math-pending";
    return `<span class="${cls}">${escapeHtml(token.raw.trim())}</span>${nl}`;
  }
  const key = (token.displayMode ? "D" : "I") + token.text;
  let html = cache.get(key);
  if (html === undefined) {
    try {
      html = katex.renderToString(token.text, { ...KATEX_OPTIONS, displayMode: token.displayMode });
    } catch {
      // Parse errors render as text already (throwOnError: false); anything else lands here.
      html = `<span class="katex-error">${escapeHtml(token.raw.trim())}</span>`;
    }
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(key, html);
  }
  return html + nl;
}

/**
 * Where a display block may start inside `src` (a paragraph being lexed), so "text\n$$\n…"
 * needs no blank line before the formula. Only the current paragraph (up to the next blank
 * line) is scanned, keeping lexing linear.
 */
function blockStart(src: string): number | undefined {
  const end = src.search(/\n[ \t]*(?:\n|$)/);
  const para = end === -1 ? src : src.slice(0, end + 1);
  const re = /\n(?= {0,3}(?:\$|\\\[))/g;
  for (let m = re.exec(para); m; m = re.exec(para)) {
    if (matchBlock(src.slice(m.index + 1))) return m.index + 1;
  }
  return undefined;
}

function inlineStart(src: string): number | undefined {
  let from = 0;
  while (from < src.length) {
    const i = src.slice(from).search(/\$|\\\(/) + from;
    if (i < from) return undefined;
    const rest = src.slice(i);
    if ((i === 0 || OPENS_INLINE.test(src[i - 1])) && matchInline(rest)) return i;
    if (rest.startsWith("\\(") && matchInline(rest)) return i;
    from = i + (rest[0] === "$" ? rest.match(/^\$+/)![0].length : 2);
  }
  return undefined;
}

/** The marked extensions: block math first, then inline math. */
export const mathExtensions: TokenizerAndRendererExtension[] = [
  {
    name: "blockKatex",
    level: "block",
    start: blockStart,
    tokenizer: (src: string) => matchBlock(src),
    renderer: (token) => renderMath(token as MathToken),
  },
  {
    name: "inlineKatex",
    level: "inline",
    start: inlineStart,
    tokenizer: (src: string) => matchInline(src),
    renderer: (token) => renderMath(token as MathToken),
  },
];
