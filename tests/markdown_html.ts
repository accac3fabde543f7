// Test helper: inspect rendered markdown the way a browser would see it (parse5 is a
// spec-compliant HTML parser), and assert that it can run no script.
import { ok } from "node:assert/strict";
import { parseFragment } from "parse5";

export interface ParsedElement {
  tag: string;
  attrs: Record<string, string>;
  /** Names in document order (attributes may repeat in broken HTML; parse5 keeps the first). */
  attrNames: string[];
  text: string;
}

interface P5Node {
  nodeName: string;
  tagName?: string;
  value?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: P5Node[];
  content?: P5Node;
}

function textOf(node: P5Node): string {
  if (node.nodeName === "#text") return node.value ?? "";
  return (node.childNodes ?? []).map(textOf).join("");
}

/** Every element of `html` (parsed as a `<div>`'s content) and the fragment's text. */
export function parseHtml(html: string): { elements: ParsedElement[]; text: string } {
  const root = parseFragment(html) as unknown as P5Node;
  const elements: ParsedElement[] = [];
  const visit = (node: P5Node) => {
    if (node.tagName) {
      const attrs: Record<string, string> = {};
      for (const a of node.attrs ?? []) attrs[a.name] ??= a.value;
      elements.push({
        tag: node.tagName,
        attrs,
        attrNames: (node.attrs ?? []).map((a) => a.name),
        text: textOf(node),
      });
    }
    for (const c of node.childNodes ?? []) visit(c);
    if (node.content) visit(node.content);
  };
  visit(root);
  return { elements, text: textOf(root) };
}

/** Tags markdown + KaTeX (HTML output, SVG for radicals and stretchy arrows) may produce. */
const ALLOWED_TAGS = new Set([
  "p",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "em",
  "strong",
  "del",
  "code",
  "pre",
  "div",
  "span",
  "button",
  "a",
  "img",
  "ul",
  "ol",
  "li",
  "input",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
  "blockquote",
  "hr",
  "br",
  "svg",
  "path",
  "line",
]);

const URL_ATTRS = new Set(["href", "src", "xlink:href", "action", "formaction", "data", "poster"]);

/** Collapse whitespace, for comparing visible text. */
export const squash = (s: string) => s.replace(/\s+/g, " ").trim();

/**
 * Assert `html` cannot run script in a browser: only known tags, no event-handler or
 * other dangerous attribute, every URL http(s)/mailto/relative/raster-data, links carry
 * rel + target, inputs are disabled checkboxes, no script-capable CSS.
 */
export function assertSafeHtml(html: string, context = ""): void {
  const where = context ? ` (input: ${JSON.stringify(context)})` : "";
  ok(!/<script/i.test(html), `<script in output${where}: ${html}`);
  // Every attribute we emit is double-quoted with `"` escaped inside, so blanking quoted
  // values leaves only tag names and attribute names to look at.
  const tags = html.replace(/"[^"]*"/g, '""');
  ok(!/<[^>]*\son[a-z]+\s*=/i.test(tags), `on*= attribute in a tag${where}: ${html}`);
  for (const el of parseHtml(html).elements) {
    ok(ALLOWED_TAGS.has(el.tag), `unexpected <${el.tag}>${where}: ${html}`);
    for (const name of el.attrNames) {
      ok(!/^on/i.test(name), `event handler ${name} on <${el.tag}>${where}`);
      ok(!["srcdoc", "formaction", "action", "srcset"].includes(name), `${name}${where}`);
    }
    for (const [name, value] of Object.entries(el.attrs)) {
      if (URL_ATTRS.has(name)) {
        // Browsers drop whitespace and C0 controls from URLs.
        const v = [...value].filter((c) => c.charCodeAt(0) > 0x20).join("").toLowerCase();
        const scheme = /^([a-z][a-z0-9+.-]*):/.exec(v)?.[1];
        ok(
          scheme === undefined || ["http", "https", "mailto"].includes(scheme) ||
            (el.tag === "img" && /^data:image\/(png|jpe?g|gif|webp);base64,/.test(v)),
          `${name}="${value}" on <${el.tag}>${where}`,
        );
      }
      if (name === "style") {
        ok(!/url\(|expression|javascript|@import|behavior/i.test(value), `style ${value}${where}`);
      }
    }
    if (el.tag === "a") {
      ok(el.attrs.rel === "noopener noreferrer nofollow", `rel on <a>${where}`);
      ok(el.attrs.target === "_blank", `target on <a>${where}`);
    }
    if (el.tag === "input") {
      ok(el.attrs.type === "checkbox" && "disabled" in el.attrs, `input must be inert${where}`);
      ok(el.attrNames.every((n) => ["type", "disabled", "checked"].includes(n)), `input${where}`);
    }
    if (el.tag === "button") {
      ok(el.attrs.type === "button" && el.attrs.class === "code-copy", `button${where}`);
    }
  }
}

/** A deterministic PRNG (mulberry32) in [0, 1), so fuzz tests replay exactly. */
export function seeded(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
