// Browser-safe: imports nothing from Deno or the database.
// Mermaid diagrams, drawn on demand (the library is ~1 MB: it is never in the first load).
// Invariants: the model's diagram text is hostile — mermaid runs with securityLevel "strict"
// and without HTML labels, its SVG is sanitized (no script, no on* attribute, no foreignObject,
// no javascript: link) and shown only as an <img> (an SVG image can run nothing, even if a
// sanitizer missed something). A diagram that fails to parse stays a code block.
import DOMPurify from "dompurify";
import { t } from "../i18n/t.ts";

type Mermaid = typeof import("mermaid").default;
let loaded: Promise<Mermaid> | undefined;

function mermaid(): Promise<Mermaid> {
  return loaded ??= import("mermaid").then(({ default: m }) => {
    m.initialize({
      startOnLoad: false,
      securityLevel: "strict",
      htmlLabels: false,
      flowchart: { htmlLabels: false },
      theme: document.documentElement.dataset.theme === "dark" ? "dark" : "neutral",
      fontFamily: "system-ui, sans-serif",
    });
    return m;
  });
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

async function renderOne(pre: HTMLElement): Promise<void> {
  const source = pre.querySelector("code")?.textContent ?? "";
  try {
    const m = await mermaid();
    const { svg } = await m.render(`mermaid-${++seq}`, neutralizeSource(source));
    const img = document.createElement("img");
    img.className = "mermaid-diagram";
    img.alt = t("transcript.diagram");
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(sanitizeSvg(svg))}`;
    const figure = document.createElement("figure");
    figure.className = "mermaid-figure";
    figure.append(img);
    pre.after(figure);
    pre.classList.add("mermaid-source");
    pre.dataset.mermaid = "drawn";
  } catch {
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

/** Draw `blocks` (pre.code-block elements) one after another. */
export async function renderBlocks(blocks: HTMLElement[]): Promise<void> {
  for (const pre of blocks) if (pre.isConnected) await renderOne(pre);
}
