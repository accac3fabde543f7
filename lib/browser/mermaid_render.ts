// Browser-safe: imports nothing from Deno or the database.
// Mermaid diagrams, drawn on demand (the library is ~1 MB: it is never in the first load).
// Invariants: the model's diagram text is hostile — mermaid runs with securityLevel "strict"
// and without HTML labels, its SVG is sanitized (no script, no on* attribute, no foreignObject,
// no javascript: link) and shown only as an <img> (an SVG image can run nothing, even if a
// sanitizer missed something). A diagram that fails to parse stays a code block. Diagrams are
// drawn in the page's colours (lib/browser/mermaid_theme.ts), one at a time, and drawn again
// when the theme, the skin or the OS preference changes them.
import DOMPurify from "dompurify";
import { t } from "../i18n/t.ts";
import { type DiagramPalette, diagramPalette } from "./mermaid_theme.ts";

type Mermaid = typeof import("mermaid").default;
let loaded: Promise<Mermaid> | undefined;
/** The palette mermaid is configured with now (its config is global). */
let configured = "";

function mermaid(): Promise<Mermaid> {
  return loaded ??= import("mermaid").then(({ default: m }) => {
    followTheme();
    return m;
  });
}

function configure(m: Mermaid, palette: DiagramPalette): void {
  if (configured === palette.key) return;
  m.initialize({
    startOnLoad: false,
    securityLevel: "strict",
    htmlLabels: false,
    flowchart: { htmlLabels: false },
    // Flat shapes: mermaid's default "neo" look draws drop shadows (DESIGN.md: none in chat).
    look: "classic",
    theme: "base",
    themeVariables: palette.variables,
  });
  configured = palette.key;
}

const LINK_ATTRS = ["href", "xlink:href", "src", "action", "formaction"];

/** The SVG without anything that could run or fetch: scripts, handlers, HTML islands, links. */
export function sanitizeSvg(svg: string): string {
  // A node with a `click` link is wrapped in <a>: keep the node, drop the link (as a plain <g>).
  const unlinked = svg.replace(/<a\b[^>]*>/g, "<g>").replace(/<\/a>/g, "</g>");
  const clean = DOMPurify.sanitize(unlinked, {
    USE_PROFILES: { svg: true, svgFilters: true },
    FORBID_TAGS: ["script", "foreignObject", "iframe", "object", "embed", "a", "use", "image"],
    FORBID_ATTR: LINK_ATTRS,
    RETURN_DOM: true,
  }) as HTMLElement;
  // Belt and braces over DOMPurify: drop every on* attribute and any script-bearing link left.
  for (const node of [clean, ...clean.querySelectorAll("*")]) {
    for (const attr of [...node.attributes]) {
      const name = attr.name.toLowerCase();
      // Browsers ignore whitespace and control characters inside a `javascript:` scheme.
      // deno-lint-ignore no-control-regex
      const value = attr.value.replace(/[\s\u0000-\u001f]+/g, "").toLowerCase();
      if (
        name.startsWith("on") || LINK_ATTRS.includes(name) || value.includes("javascript:")
      ) {
        node.removeAttribute(attr.name);
      }
    }
  }
  const svgEl = clean.querySelector("svg") ?? clean;
  // As an image the SVG needs its own size (mermaid writes width="100%"): take the viewBox's.
  const box = svgEl.getAttribute("viewBox")?.split(/[\s,]+/).map(Number);
  if (box?.length === 4 && box.every(Number.isFinite)) {
    svgEl.setAttribute("width", String(Math.ceil(box[2])));
    svgEl.setAttribute("height", String(Math.ceil(box[3])));
    svgEl.removeAttribute("style");
  }
  return new XMLSerializer().serializeToString(svgEl);
}

/**
 * Tag-like text (`<img onerror=…>`, `<script>`) in the diagram becomes mermaid's entity codes,
 * so it is shown as text: mermaid measures labels in the live page, where markup would be
 * parsed (the CSP blocks its handlers, but nothing should reach the parser). Arrows such as
 * `-->` or `->>` are not tags and are kept.
 */
export function neutralizeSource(source: string): string {
  return source.replace(/<(\/?[a-z!?][^<>]*)>/gi, "#lt;$1#gt;").replace(/<(?=[a-z!?\/])/gi, "#lt;");
}

let seq = 0;

/** Draw `pre`'s diagram in `palette`: a new figure after it, or its figure's image replaced. */
async function renderOne(pre: HTMLElement, palette: DiagramPalette): Promise<void> {
  const source = pre.querySelector("code")?.textContent ?? "";
  const drawn = pre.dataset.mermaid === "drawn";
  try {
    const m = await mermaid();
    configure(m, palette);
    const { svg } = await m.render(`mermaid-${++seq}`, neutralizeSource(source));
    const src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(sanitizeSvg(svg))}`;
    const next = pre.nextElementSibling;
    let figure = drawn && next?.classList.contains("mermaid-figure") ? next as HTMLElement : null;
    if (!figure) {
      figure = document.createElement("figure");
      figure.className = "mermaid-figure";
      const img = document.createElement("img");
      img.className = "mermaid-diagram";
      img.alt = t("transcript.diagram");
      figure.append(img);
      pre.after(figure);
    }
    figure.querySelector("img")!.src = src;
    figure.dataset.palette = palette.dark ? "dark" : "light";
    pre.classList.add("mermaid-source");
    pre.dataset.mermaid = "drawn";
    pre.dataset.palette = palette.key;
  } catch {
    if (drawn) return; // drawn before: keep that image rather than lose the diagram
    pre.dataset.mermaid = "failed";
    const note = document.createElement("p");
    note.className = "mermaid-error";
    note.textContent = t("transcript.diagramFailed");
    pre.after(note);
  } finally {
    // Mermaid leaves a measuring node behind when a render throws.
    document.getElementById(`dmermaid-${seq}`)?.remove();
  }
}

/** Renders run one after another: mermaid's configuration (the palette) is global. */
let queue: Promise<void> = Promise.resolve();

function enqueue(job: () => Promise<void>): Promise<void> {
  queue = queue.then(job, job);
  return queue;
}

/** Draw `blocks` (pre.code-block elements) one after another; a placeholder until drawn. */
export function renderBlocks(blocks: HTMLElement[]): Promise<void> {
  for (const pre of blocks) {
    pre.dataset.mermaid = "queued";
    pre.dataset.pending = t("transcript.diagramPending");
  }
  return enqueue(async () => {
    const palette = diagramPalette();
    for (const pre of blocks) if (pre.isConnected) await renderOne(pre, palette);
  });
}

/** Draw again every diagram whose colours are not the page's any more. */
function redrawStale(): void {
  void enqueue(async () => {
    const palette = diagramPalette();
    const stale = document.querySelectorAll<HTMLElement>("pre[data-mermaid='drawn']");
    for (const pre of stale) {
      if (pre.isConnected && pre.dataset.palette !== palette.key) await renderOne(pre, palette);
    }
  });
}

/** The theme (data-theme), the skin (data-skin) and, for "system", the OS preference. */
function followTheme(): void {
  new MutationObserver(redrawStale).observe(document.documentElement, {
    attributes: true,
    attributeFilter: ["data-theme", "data-skin"],
  });
  matchMedia("(prefers-color-scheme: light)").addEventListener("change", redrawStale);
}
