// Browser-safe: imports nothing from Deno or the database.
// Rendering a workspace file for the panel's preview: what kind of preview a path gets
// (image, markdown, text), its language, and the views: code highlighted with lib/markdown/highlight.ts,
// markdown rendered with lib/markdown/render.ts. Both renderers are imported dynamically, so they
// load (as their own chunks) only when a preview needs them. Text always enters the DOM as
// textContent or as the renderers' escaped HTML.
import { el } from "./ui_menu.ts";
import { t } from "../i18n/t.ts";

/** Larger text is shown plain: highlighting it would stall the page. */
export const MAX_HIGHLIGHT_CHARS = 200_000;
const IMAGE_EXT = new Set(["png", "jpg", "jpeg", "gif", "webp", "avif", "bmp", "ico", "svg"]);
const MARKDOWN_EXT = new Set(["md", "markdown", "mdown", "mkd", "mdx"]);
/** File names whose language is not in an extension. */
const NAMED_LANGUAGES: Record<string, string> = {
  dockerfile: "dockerfile",
  makefile: "makefile",
  gnumakefile: "makefile",
  "cmakelists.txt": "cmake",
  gemfile: "ruby",
  rakefile: "ruby",
  ".bashrc": "bash",
  ".zshrc": "bash",
  ".profile": "bash",
};

/** Bytes for people, the one format used everywhere (lib/shared/byte_size.ts). */
export { formatBytes } from "../shared/byte_size.ts";

/** How a file is previewed. */
export type PreviewKind = "image" | "markdown" | "text";

/** The preview a path gets, by its extension. */
export function kindOf(path: string): PreviewKind {
  const ext = path.split("/").at(-1)!.split(".").at(-1)!.toLowerCase();
  if (IMAGE_EXT.has(ext)) return "image";
  if (MARKDOWN_EXT.has(ext)) return "markdown";
  return "text";
}

/** A sentence in place of a preview, with a download link when there is a file. */
export function message(text: string, download?: string): HTMLElement {
  return el(
    "div",
    { class: "preview-message" },
    el("p", {}, text),
    download
      ? el("a", { class: "btn btn-secondary", href: download, download: "" }, t("common.download"))
      : null,
  );
}

/** Resolve a markdown-relative URL against the previewed file's folder (null: not relative). */
export function resolveRelative(base: string, url: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:|^\/|^#/i.test(url)) return null;
  const clean = url.split(/[?#]/)[0];
  const parts = base.split("/").slice(0, -1);
  for (const seg of decodeURIComponent(clean).split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join("/") || null;
}

/** The highlight.js grammar for a file name (by known names, then by extension). */
export async function languageFor(path: string): Promise<string | null> {
  const name = path.split("/").at(-1)!.toLowerCase();
  const { resolveLanguage } = await import("../markdown/highlight.ts");
  if (NAMED_LANGUAGES[name]) return NAMED_LANGUAGES[name];
  const ext = name.includes(".") ? name.split(".").at(-1)! : "";
  return ext ? resolveLanguage(ext) : null;
}

/** The stylesheet of rendered markdown and highlighted code, added once when first needed. */
const MARKDOWN_CSS = "/static/markdown.css";

export function ensureMarkdownCss(): void {
  if (document.querySelector(`link[rel="stylesheet"][href="${MARKDOWN_CSS}"]`)) return;
  document.head.append(el("link", { rel: "stylesheet", href: MARKDOWN_CSS }));
}

/** A code view of `content`, highlighted when the grammar exists and the text is not huge. */
export async function codeView(content: string, lang: string | null): Promise<HTMLElement> {
  ensureMarkdownCss();
  const code = el("code", { class: lang ? `hljs language-${lang}` : "hljs" });
  const pre = el("pre", { class: "code-view", "data-language": lang ?? "text" }, code);
  if (lang && content.length <= MAX_HIGHLIGHT_CHARS) {
    const hl = await import("../markdown/highlight.ts");
    await hl.loadLanguage(lang);
    const html = hl.highlightCode(content, lang);
    // highlight.js escapes the text it wraps in its spans.
    if (html !== null) {
      code.innerHTML = html;
      return pre;
    }
  }
  code.textContent = content;
  return pre;
}

/**
 * `content` rendered as markdown; relative links and images resolve against `path` and are
 * served by `fileUrl` (the raw file route of the session's workspace).
 */
export async function markdownView(
  content: string,
  path: string,
  fileUrl: (path: string) => string,
): Promise<HTMLElement> {
  ensureMarkdownCss();
  const md = await import("../markdown/render.ts");
  await md.ensureRenderers(content);
  const html = md.renderMarkdown(content, {
    rewriteUrl: (url) => {
      const rel = resolveRelative(path, url);
      return rel ? fileUrl(rel) : url;
    },
  });
  const div = el("div", { class: "prose preview-markdown" });
  // renderMarkdown's output is safe HTML by contract (raw HTML is text, URLs allowlisted).
  div.innerHTML = html;
  return div;
}
