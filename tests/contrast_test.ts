// WCAG 2.2 AA contrast of the colour tokens (issue 19 §4): every text/background pair the UI
// paints, in every theme (dark, light, "system" on a light and a dark OS) and every skin,
// computed from the custom properties of static/style.css and static/skins.css as the browser
// would cascade them on <html data-theme data-skin>; then every text colour a rule in static/
// sets, on its own background or on the surfaces. Text needs 4.5:1 (the UI's text is 11–15px),
// UI parts (focus ring, field borders) 3:1. A failure names the theme, skin, pair and ratio.
// The colour maths is here (hex, rgb(), color-mix() in srgb, alpha over the layer beneath):
// the small npm colour packages neither parse color-mix() nor composite a translucent layer.
import { deepStrictEqual, ok } from "node:assert/strict";
import { SKINS } from "../lib/shared/appearance.ts";

const read = (name: string) =>
  Deno.readTextFileSync(new URL(`../static/${name}`, import.meta.url)).replace(
    /\/\*[\s\S]*?\*\//g,
    "",
  );

// ---- The cascade of custom properties on <html> ------------------------------------------

interface Rule {
  selectors: string[];
  media: string[];
  decls: [string, string][];
  order: number;
}

/** Top-level and @media-nested rules with their custom-property declarations, in order. */
function rulesOf(css: string, order: { n: number }): Rule[] {
  const rules: Rule[] = [];
  const walk = (text: string, media: string[]) => {
    let i = 0;
    while (i < text.length) {
      const open = text.indexOf("{", i);
      if (open < 0) break;
      const head = text.slice(i, open).trim();
      let depth = 1, j = open + 1;
      for (; j < text.length && depth; j++) {
        if (text[j] === "{") depth++;
        else if (text[j] === "}") depth--;
      }
      const body = text.slice(open + 1, j - 1);
      if (head.startsWith("@media")) walk(body, [...media, head.slice(6).trim()]);
      else if (!head.startsWith("@")) {
        const decls = [...body.matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)].map((
          m,
        ) => [m[1], m[2].trim()] as [string, string]);
        if (decls.length) {
          rules.push({
            selectors: head.split(",").map((s) => s.trim()),
            media,
            decls,
            order: order.n++,
          });
        }
      }
      i = j;
    }
  };
  walk(css, []);
  return rules;
}

interface Env {
  theme: "dark" | "light" | "system";
  skin: string;
  scheme: "light" | "dark";
}

/** Specificity of a selector matching <html> (":root" and attribute tests only), else -1. */
function matchRoot(sel: string, env: Env): number {
  if (!/^(:root|html)?(\[[^\]]+\])*$/.test(sel) || sel === "") return -1;
  let spec = sel.startsWith(":root") ? 10 : sel.startsWith("html") ? 1 : 0;
  for (const [, name, value] of sel.matchAll(/\[([\w-]+)(?:="([^"]*)")?\]/g)) {
    const attrs: Record<string, string> = { "data-theme": env.theme, "data-skin": env.skin };
    if (!(name in attrs) || (value !== undefined && attrs[name] !== value)) return -1;
    spec += 10;
  }
  return spec;
}

function mediaMatches(query: string, env: Env): boolean {
  const m = /^\(prefers-color-scheme:\s*(light|dark)\)$/.exec(query);
  return m ? m[1] === env.scheme : false; // widths, motion…: no colour token lives there
}

/** The custom properties of <html> for one theme and skin (style.css, then skins.css). */
function tokensFor(env: Env): Map<string, string> {
  const order = { n: 0 };
  const rules = [...rulesOf(read("style.css"), order), ...rulesOf(read("skins.css"), order)];
  const applied: { spec: number; order: number; decls: [string, string][] }[] = [];
  for (const r of rules) {
    if (!r.media.every((q) => mediaMatches(q, env))) continue;
    const spec = Math.max(...r.selectors.map((s) => matchRoot(s, env)));
    if (spec >= 0) applied.push({ spec, order: r.order, decls: r.decls });
  }
  applied.sort((a, b) => a.spec - b.spec || a.order - b.order);
  const tokens = new Map<string, string>();
  for (const a of applied) for (const [k, v] of a.decls) tokens.set(k, v);
  return tokens;
}

// ---- Colours -------------------------------------------------------------------------------

/** sRGB 0–255 channels and alpha 0–1. */
type Rgba = [number, number, number, number];

/** Replace every var(--x[, fallback]) by its value, innermost first. */
function resolve(value: string, tokens: Map<string, string>, depth = 0): string {
  if (depth > 20) throw new Error(`var() cycle in ${value}`);
  const m = /var\(\s*(--[\w-]+)\s*(?:,\s*([^()]*(?:\([^()]*\))?[^()]*))?\)/.exec(value);
  if (!m) return value;
  const sub = tokens.get(m[1]) ?? m[2];
  if (sub === undefined) throw new Error(`undefined ${m[1]}`);
  return resolve(value.replace(m[0], resolve(sub.trim(), tokens, depth + 1)), tokens, depth + 1);
}

/** Split at top-level commas. */
function args(s: string): string[] {
  const out: string[] = [];
  let depth = 0, start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "(") depth++;
    else if (s[i] === ")") depth--;
    else if (s[i] === "," && !depth) {
      out.push(s.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(s.slice(start).trim());
  return out;
}

function parseColor(raw: string): Rgba {
  const s = raw.trim().toLowerCase();
  if (s === "transparent") return [0, 0, 0, 0];
  let m = /^#([0-9a-f]{3,8})$/.exec(s);
  if (m) {
    const h = m[1].length <= 4 ? [...m[1]].map((c) => c + c).join("") : m[1];
    const n = (i: number) => parseInt(h.slice(i, i + 2), 16);
    return [n(0), n(2), n(4), h.length === 8 ? n(6) / 255 : 1];
  }
  m = /^rgba?\((.*)\)$/.exec(s);
  if (m) {
    const parts = m[1].split(/[\s,/]+/).filter(Boolean);
    const ch = (p: string) => p.endsWith("%") ? parseFloat(p) * 2.55 : parseFloat(p);
    const a = parts[3] === undefined
      ? 1
      : parts[3].endsWith("%")
      ? parseFloat(parts[3]) / 100
      : parseFloat(parts[3]);
    return [ch(parts[0]), ch(parts[1]), ch(parts[2]), a];
  }
  m = /^color-mix\(in srgb,(.*)\)$/.exec(s);
  if (m) {
    const [a, b] = args(m[1]).map((p) => {
      const pm = /^(.*?)(?:\s+([\d.]+)%)?$/.exec(p)!;
      return { c: parseColor(pm[1]), p: pm[2] === undefined ? undefined : +pm[2] / 100 };
    });
    const pa = a.p ?? (b.p === undefined ? 0.5 : 1 - b.p);
    const pb = b.p ?? 1 - pa;
    // CSS Color 5: premultiplied interpolation, then un-premultiply.
    const alpha = a.c[3] * pa + b.c[3] * pb;
    const mix = (i: number) => alpha ? (a.c[i] * a.c[3] * pa + b.c[i] * b.c[3] * pb) / alpha : 0;
    return [mix(0), mix(1), mix(2), alpha];
  }
  throw new Error(`cannot parse colour "${raw}"`);
}

/** `top` painted over the opaque `under`. */
const over = (top: Rgba, under: Rgba): Rgba => {
  const a = top[3];
  return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat(1) as Rgba;
};

/** WCAG 2.2 relative luminance. */
function luminance([r, g, b]: Rgba): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

function contrast(a: Rgba, b: Rgba): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

// ---- The pairs the UI paints (read from the CSS rules that use them) -----------------------

/** A background: layers painted bottom-up (the page itself under them). */
type Layers = string[];

const PAGE: Layers = ["--bg"];
const PANEL: Layers = ["--panel"];
const SUBTLE: Layers = ["--panel-subtle"];
const SIDEBAR: Layers = ["--sidebar-bg"];
/** Where people read: the transcript, panels, tool cards, the sidebar and its rows. */
const READING: Record<string, Layers> = {
  page: PAGE,
  panel: PANEL,
  "panel-subtle": SUBTLE,
  sidebar: SIDEBAR,
  "sidebar field": ["--sidebar-bg", "--sidebar-field"],
  "hovered row": ["--bg", "--hover"],
  "hovered panel row": ["--panel", "--hover"],
  "selected session": ["--sidebar-bg", "--selected"],
};

/** The declarations of the first rule for exactly `selector` in a static/ file. */
function ruleBody(file: string, selector: string): string {
  const css = read(file);
  const at = css.indexOf(`\n${selector} {`);
  if (at < 0) throw new Error(`${file}: no rule ${selector}`);
  return css.slice(at, css.indexOf("}", at));
}

/** `opacity` of a rule (placeholders dim their muted colour with it). */
const opacityOf = (file: string, selector: string) =>
  parseFloat(/opacity:\s*([\d.]+)/.exec(ruleBody(file, selector))?.[1] ?? "1");

/** The fields whose outline is checked as a UI part, with the fill inside it. */
const FIELDS: [string, string, Layers][] = [
  ["style.css", ".composer", SUBTLE],
  ["control.css", ".cc-input", SUBTLE],
  ["sidebar.css", ".sidebar-search input", ["--sidebar-bg", "--sidebar-field"]],
  ["sidebar.css", '.dialog-field input[type="text"]', PAGE],
  ["sidebar.css", ".field-input", SUBTLE],
  ["sidebar.css", ".quick-switcher-input", SUBTLE],
  ["transcript.css", ".clarify-input", PAGE],
  ["login.css", ".login-input", SUBTLE],
  ["composer.css", ".pop-filter", SUBTLE],
  ["composer.css", ".send-mode", SUBTLE],
  ["approval_inbox.css", ".approval-inbox-command", SUBTLE],
];

interface Pair {
  name: string;
  fg: string;
  bg: Layers;
  min: number;
  /** The element's own opacity over its background (placeholders). */
  opacity?: number;
}

const TEXT = 4.5;
const UI = 3;

function pairs(): Pair[] {
  const list: Pair[] = [];
  const on = (label: string, fg: string, bgs: Record<string, Layers>, min = TEXT) => {
    for (const [where, bg] of Object.entries(bgs)) {
      list.push({ name: `${label} on ${where}`, fg, bg, min });
    }
  };
  on("text", "--text", READING);
  on("muted text", "--text-muted", READING);
  on("accent text and links", "--accent", {
    page: PAGE,
    panel: PANEL,
    "panel-subtle": SUBTLE,
    sidebar: SIDEBAR,
  });
  on("error text", "--error-text", { page: PAGE, panel: PANEL, "panel-subtle": SUBTLE });
  on("warning text", "--warning-text", { page: PAGE, panel: PANEL, "panel-subtle": SUBTLE });
  on("success text", "--success-text", { page: PAGE, panel: PANEL, "panel-subtle": SUBTLE });
  on("code string", "--code-string", { "code block": SUBTLE, page: PAGE });
  on("code literal", "--code-literal", { "code block": SUBTLE, page: PAGE });
  on("primary button label", "--accent-ink", { "accent button": ["--accent"] });
  on("user bubble text", "--bubble-ink", { bubble: ["--bubble"] });
  on("state label", "--color-ink", {
    "success badge": ["--color-success"],
    "warning badge": ["--color-warning"],
    "error badge": ["--color-error"],
  });
  // Placeholders: muted text at the rule's own opacity, on the field's background.
  for (
    const [file, sel, bg] of [
      ["style.css", ".composer-input::placeholder", SUBTLE],
      ["control.css", ".cc-input::placeholder", SUBTLE],
      ["sidebar.css", ".sidebar-search input::placeholder", ["--sidebar-bg", "--sidebar-field"]],
    ] as [string, string, Layers][]
  ) {
    list.push({
      name: `placeholder ${sel}`,
      fg: "--text-muted",
      bg,
      min: TEXT,
      opacity: opacityOf(file, sel),
    });
  }
  // UI parts: the focus ring (outline in --accent) and the borders that outline a field.
  on("focus ring", "--accent", {
    page: PAGE,
    panel: PANEL,
    "panel-subtle": SUBTLE,
    sidebar: SIDEBAR,
  }, UI);
  for (const [, sel, bg] of FIELDS) {
    list.push({ name: `field border of ${sel} on its fill`, fg: "--field-border", bg, min: UI });
  }
  return list;
}

// ---- The test -----------------------------------------------------------------------------

const THEMES: Env["theme"][] = ["dark", "light", "system"];

/** Every failing pair of one theme and skin, as readable lines. */
function failures(env: Env): string[] {
  const tokens = tokensFor(env);
  const color = (v: string) => parseColor(resolve(`var(${v})`, tokens));
  const out: string[] = [];
  for (const p of pairs()) {
    let bg = color("--bg");
    bg = over(bg, [0, 0, 0, 1]);
    for (const layer of p.bg) bg = over(color(layer), bg);
    const fgColor = color(p.fg);
    const fg = over([fgColor[0], fgColor[1], fgColor[2], fgColor[3] * (p.opacity ?? 1)], bg);
    const ratio = contrast(fg, bg);
    if (ratio < p.min) {
      out.push(
        `${env.theme}${env.theme === "system" ? `(${env.scheme} OS)` : ""} / ${env.skin}: ` +
          `${p.name} (${p.fg}) is ${ratio.toFixed(2)}:1, needs ${p.min}:1`,
      );
    }
  }
  return out;
}

/** Text colours painted on their own fill, checked as pairs above (or not text at all). */
const PAIRED =
  /--(accent-ink|bubble-ink|color-ink|border|sw-[\w-]+)\b|^(transparent|inherit|currentcolor)$/i;

/**
 * Every `color:` a rule in static/*.css sets, by file and selector. A rule that paints its own
 * background too is checked on that; any other colour (those above excepted) is text that sits
 * on the page, a panel or a tool card, and is checked on all three.
 */
function ruleColors(): { where: string; value: string; background?: string }[] {
  const out: { where: string; value: string; background?: string }[] = [];
  for (const e of Deno.readDirSync(new URL("../static/", import.meta.url))) {
    if (!e.isFile || !e.name.endsWith(".css")) continue;
    for (const m of read(e.name).matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
      const bg = /(?:^|[;\s])background(?:-color)?:\s*([^;]+);/.exec(m[2])?.[1].trim();
      const background = bg && /^(var\(|#|rgba?\(|color-mix\()/.test(bg) ? bg : undefined;
      for (const d of m[2].matchAll(/(?:^|[;\s])color:\s*([^;]+);/g)) {
        const value = d[1].trim();
        if (/^(transparent|inherit|currentcolor)$/i.test(value)) continue;
        if (!background && (PAIRED.test(value) || !/var\(|#[0-9a-f]{3}/i.test(value))) continue;
        out.push({ where: `${e.name} ${m[1].trim().replace(/\s+/g, " ")}`, value, background });
      }
    }
  }
  return out;
}

Deno.test("the checked fields draw their outline with --field-border", () => {
  for (const [file, sel] of FIELDS) {
    ok(/border:[^;]*var\(--field-border[,)]/.test(ruleBody(file, sel)), `${file} ${sel}`);
  }
});

Deno.test("the checked skins are ours and the original's by its names", () => {
  deepStrictEqual(
    [...SKINS].sort(),
    [
      "default",
      "slate",
      "sepia",
      "contrast",
      "ares",
      "mono",
      "poseidon",
      "sisyphus",
      "charizard",
      "catppuccin",
      "nous",
    ].sort(),
  );
});

Deno.test("contrast() matches WCAG's reference values", () => {
  ok(Math.abs(contrast([0, 0, 0, 1], [255, 255, 255, 1]) - 21) < 1e-9);
  ok(Math.abs(contrast(parseColor("#777777"), parseColor("#ffffff")) - 4.48) < 0.01);
  const mixed = parseColor("color-mix(in srgb, #ff0000 50%, transparent)");
  ok(mixed[0] === 255 && mixed[3] === 0.5, `${mixed}`);
});

for (const theme of THEMES) {
  for (const scheme of theme === "system" ? ["light", "dark"] as const : [theme] as const) {
    for (const skin of SKINS) {
      const env: Env = { theme, skin, scheme };
      Deno.test(`text colours set by rules read on every surface: theme ${theme}${theme === "system" ? ` on a ${scheme} OS` : ""}, skin ${skin}`, () => {
        const tokens = tokensFor(env);
        const bad: string[] = [];
        const page = over(parseColor(resolve("var(--bg)", tokens)), [0, 0, 0, 1]);
        for (const { where, value, background } of ruleColors()) {
          const fg0 = parseColor(resolve(value, tokens));
          const layers = background ? [background] : ["--bg", "--panel", "--panel-subtle"];
          for (const layer of layers) {
            const bg = over(
              parseColor(resolve(layer.startsWith("--") ? `var(${layer})` : layer, tokens)),
              page,
            );
            const ratio = contrast(over(fg0, bg), bg);
            if (ratio < TEXT) bad.push(`${where}: ${value} on ${layer} is ${ratio.toFixed(2)}:1`);
          }
        }
        ok(bad.length === 0, `Below WCAG 2.2 AA (${theme}/${scheme}/${skin}):\n${bad.join("\n")}`);
      });
      Deno.test(`colour tokens meet WCAG AA: theme ${theme}${theme === "system" ? ` on a ${scheme} OS` : ""}, skin ${skin}`, () => {
        const bad = failures(env);
        ok(bad.length === 0, `Below WCAG 2.2 AA:\n${bad.join("\n")}`);
      });
    }
  }
}
