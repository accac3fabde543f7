// Browser-safe: imports nothing from Deno or the database.
// Markdown → HTML for model output (marked, GFM), the same bytes on the server (settled
// messages, first paint without JS) and in the Transcript island (streamed). Invariants: raw
// HTML is never markup (it is tokenized as text), every href/src passes the allowlist in
// markdown_urls.ts or the source is shown as text, no attribute we emit can carry script.
// KaTeX and highlight.js grammars load lazily: call ensureRenderers(text) before
// renderMarkdown(text) for final HTML; until then math and code render as escaped source.
import { Lexer, Marked, type Token, type Tokens, type TokensList } from "marked";
import { highlightCode, languageReady, loadAllLanguages, loadLanguage } from "./highlight.ts";
import { resolveLanguage } from "./highlight.ts";
import { loadMath, mathExtensions, mathReady } from "./math.ts";
import { safeUrl, type UrlKind } from "./urls.ts";

export { KATEX_CSS_HREF } from "./math.ts";

/** Rendering choices; the server and the island must pass the same ones. */
export interface RenderOptions {
  /**
   * Remote (http/https) images: `"link"` (default) renders a link to the image instead of
   * loading it, because the page CSP (`img-src 'self' data: blob:`) would block it and
   * auto-loading lets model output beacon data to any host. `"inline"` renders `<img>`.
   */
  remoteImages?: "link" | "inline";
  /**
   * Map an accepted URL before it is emitted (e.g. a workspace-relative image path to the
   * file route). Return `null` to drop the link/image. The result is checked again.
   */
  rewriteUrl?: (url: string, kind: UrlKind) => string | null;
}

/** The lazily loaded renderers a piece of markdown needs. */
export interface RendererNeeds {
  math: boolean;
  /** Canonical highlight.js grammar names of its fenced code. */
  languages: string[];
}

const ESC: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escape text for HTML content and double-quoted attributes. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESC[c]);
}

/** The rendering of the call in progress (renders are synchronous: one at a time). */
let active: RenderOptions = {};

const LINK_ATTRS = ' rel="noopener noreferrer nofollow" target="_blank"';

function acceptUrl(raw: string, kind: UrlKind): { href: string; remote: boolean } | null {
  const first = safeUrl(raw, kind);
  if (!first || !active.rewriteUrl) return first;
  const mapped = active.rewriteUrl(first.href, kind);
  return mapped === null ? null : safeUrl(mapped, kind);
}

/** A fence's language label as typed (`ts`, `c++`), or null when it is not a plain word. */
function codeLabel(info: string | undefined): string | null {
  const word = (info ?? "").trim().split(/\s+/)[0] ?? "";
  return /^[\w#+.-]{1,32}$/.test(word) ? word : null;
}

// `breaks`: a single newline is a line break, as models (and chat UIs) mean it.
const md = new Marked({ gfm: true, breaks: true, async: false });
md.use({
  extensions: mathExtensions,
  // Raw HTML is not markup here: with its tokenizers off, `<b>` and `<script>` are text.
  tokenizer: {
    html: () => undefined,
    tag: () => undefined,
  },
  renderer: {
    // Unreachable while the tokenizers above are off; kept so HTML can never pass through.
    html: (token: Tokens.HTML | Tokens.Tag) => escapeHtml(token.text),
    code(token: Tokens.Code): string {
      const label = codeLabel(token.lang);
      const lang = label ? resolveLanguage(label) : null;
      const body = (lang ? highlightCode(token.text, lang) : null) ?? escapeHtml(token.text);
      const cls = label ? ` language-${escapeHtml(label.toLowerCase())}` : "";
      return `<pre class="code-block"><div class="code-head"><span class="code-lang">` +
        `${escapeHtml(label ?? "text")}</span><button class="code-copy" type="button">Copy` +
        `</button></div><code class="hljs${cls}">${body}</code></pre>\n`;
    },
    table(token: Tokens.Table): string {
      const cell = (c: Tokens.TableCell) => {
        const tag = c.header ? "th" : "td";
        const align = c.align ? ` align="${c.align}"` : "";
        return `<${tag}${align}>${this.parser.parseInline(c.tokens)}</${tag}>`;
      };
      const head = `<tr>${token.header.map(cell).join("")}</tr>`;
      const body = token.rows.map((r) => `<tr>${r.map(cell).join("")}</tr>`).join("\n");
      return `<div class="table-wrap"><table>\n<thead>\n${head}\n</thead>\n` +
        (body ? `<tbody>\n${body}\n</tbody>\n` : "") + `</table></div>\n`;
    },
    link(token: Tokens.Link): string {
      const url = acceptUrl(token.href, "link");
      if (!url) return escapeHtml(token.raw);
      const inner = token.autolink ? escapeHtml(token.text) : this.parser.parseInline(token.tokens);
      const title = token.title ? ` title="${escapeHtml(token.title)}"` : "";
      return `<a href="${escapeHtml(url.href)}"${title}${LINK_ATTRS}>${inner}</a>`;
    },
    image(token: Tokens.Image): string {
      const url = acceptUrl(token.href, "image");
      if (!url) return escapeHtml(token.raw);
      const alt = token.tokens
        ? this.parser.parseInline(token.tokens, this.parser.textRenderer)
        : token.text;
      const title = token.title ? ` title="${escapeHtml(token.title)}"` : "";
      if (url.remote && active.remoteImages !== "inline") {
        return `<a class="md-image-link" href="${escapeHtml(url.href)}"${title}${LINK_ATTRS}>` +
          `${escapeHtml(alt || url.href)}</a>`;
      }
      return `<img src="${escapeHtml(url.href)}" alt="${escapeHtml(alt)}"${title} loading="lazy">`;
    },
  },
});

/** Link definitions (`[label]: url`) by normalized label, as marked's lexer keeps them. */
export type LinkMap = TokensList["links"];

/**
 * Block and inline tokens of `src`, with reference definitions from elsewhere (`links`,
 * first definition wins) visible to its reference links. For incremental rendering.
 */
export function lexMarkdown(src: string, links?: LinkMap): TokensList {
  const lexer = new Lexer(md.defaults);
  if (links) Object.assign(lexer.tokens.links, links);
  return lexer.lex(src);
}

/**
 * HTML of already lexed tokens (concatenating per-token output equals rendering them all).
 * Never throws: a renderer bug shows the tokens' source as text rather than losing it.
 */
export function renderTokens(tokens: Token[], opts: RenderOptions = {}): string {
  const previous = active;
  active = opts;
  try {
    return md.parser(tokens);
  } catch {
    const source = tokens.map((t) => t.raw).join("");
    return source.trim() ? `<p class="md-fallback">${escapeHtml(source)}</p>\n` : "";
  } finally {
    active = previous;
  }
}

/**
 * Markdown `text` as safe HTML. Synchronous; math and code use KaTeX/highlight.js only if
 * `ensureRenderers(text)` has resolved (or `preloadRenderers()` on the server).
 */
export function renderMarkdown(text: string, opts: RenderOptions = {}): string {
  try {
    return renderTokens(lexMarkdown(text), opts);
  } catch {
    // A renderer bug must not lose the message: show it as plain text.
    return `<p class="md-fallback">${escapeHtml(text)}</p>\n`;
  }
}

/** What `tokens` need loaded before they render in final form. */
export function tokenNeeds(tokens: Token[]): RendererNeeds {
  const needs: RendererNeeds = { math: false, languages: [] };
  md.walkTokens(tokens, (t) => {
    if (t.type === "inlineKatex" || t.type === "blockKatex") needs.math = true;
    else if (t.type === "code") {
      const label = codeLabel((t as Tokens.Code).lang);
      const lang = label ? resolveLanguage(label) : null;
      if (lang && !needs.languages.includes(lang)) needs.languages.push(lang);
    }
  });
  return needs;
}

/** What `text` needs loaded (lexes it; no rendering). */
export function markdownNeeds(text: string): RendererNeeds {
  return tokenNeeds(lexMarkdown(text));
}

/** True when everything in `needs` is loaded. */
export function needsReady(needs: RendererNeeds): boolean {
  return (!needs.math || mathReady()) && needs.languages.every(languageReady);
}

/** Load what `needs` lists (KaTeX, grammars), each chunk at most once, in parallel. */
export function loadNeeds(needs: RendererNeeds): Promise<void> {
  const jobs: Promise<void>[] = needs.languages.map(loadLanguage);
  if (needs.math) jobs.push(loadMath());
  return Promise.all(jobs).then(() => undefined);
}

/**
 * Load the renderers `text` needs, so the next `renderMarkdown(text)` is final. Cheap when
 * they are loaded already; text without math or fenced code loads nothing.
 */
export function ensureRenderers(text: string): Promise<void> {
  const needs = markdownNeeds(text);
  return needsReady(needs) ? Promise.resolve() : loadNeeds(needs);
}

/** Load KaTeX and every grammar: for the server, once at startup. */
export function preloadRenderers(): Promise<void> {
  return Promise.all([loadMath(), loadAllLanguages()]).then(() => undefined);
}
