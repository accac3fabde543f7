// Browser-safe: imports nothing from Deno or the database.
// The colours a mermaid diagram is drawn in, read from the page's theme roles (static/style.css,
// DESIGN.md's tokens: dark, light and every skin alike) at the moment it is drawn. Invariants:
// the diagram's field is the figure's own background (--panel-subtle, static/markdown.css), lines
// use the accent and text the text colour, both legible on that field; every colour is handed to
// mermaid as opaque hex (its colour maths parses nothing else), translucent roles composited
// over the field.

type Rgb = [number, number, number];

/** What mermaid is configured with, and a key that changes whenever the colours do. */
export interface DiagramPalette {
  key: string;
  dark: boolean;
  variables: Record<string, string | boolean>;
}

const hex = ([r, g, b]: Rgb) =>
  "#" + [r, g, b].map((c) => Math.round(c).toString(16).padStart(2, "0")).join("");

/** `rgb()`/`rgba()` or `color(srgb …)` (what Chromium computes for color-mix) as RGBA 0–255. */
function parseComputed(css: string): [number, number, number, number] {
  const n = (css.match(/-?[\d.]+(?:e-?\d+)?/g) ?? []).map(Number);
  const scale = css.startsWith("color(") ? 255 : 1;
  return [n[0] * scale || 0, n[1] * scale || 0, n[2] * scale || 0, n[3] ?? 1];
}

function luminance([r, g, b]: Rgb): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** Call `fn` with a reader of the page's role colours (`--name`), composited over `under`. */
function withRoles<T>(doc: Document, fn: (read: (role: string, under?: Rgb) => Rgb) => T): T {
  const probe = doc.createElement("span");
  probe.hidden = true;
  probe.style.transition = "none";
  doc.body.append(probe);
  const view = doc.defaultView ?? globalThis;
  try {
    return fn((role, under = [255, 255, 255]) => {
      probe.style.color = `var(${role})`;
      const [r, g, b, a] = parseComputed(view.getComputedStyle(probe).color);
      return [r, g, b].map((c, i) => c * a + under[i] * (1 - a)) as Rgb;
    });
  } finally {
    probe.remove();
  }
}

/** The palette for the page as it looks now (its theme, skin and the OS preference). */
export function diagramPalette(doc: Document = document): DiagramPalette {
  return withRoles(doc, (read) => {
    const field = read("--panel-subtle", read("--bg"));
    const dark = luminance(field) < 0.18;
    // On the dark field the panel colour sets nodes apart; on parchment the lifted panel is the
    // field itself, so nodes take the page's parchment.
    const node = read(dark ? "--panel" : "--bg", field);
    return paletteOf(dark, hex(field), hex(node), {
      text: hex(read("--text", node)),
      line: hex(read("--accent", field)),
      outline: hex(read("--field-border", node)),
    });
  });
}

function paletteOf(
  dark: boolean,
  fieldHex: string,
  nodeHex: string,
  { text, line, outline }: { text: string; line: string; outline: string },
): DiagramPalette {
  const variables: Record<string, string | boolean> = {
    darkMode: dark,
    background: fieldHex,
    fontFamily: "-apple-system, BlinkMacSystemFont, Segoe UI, Inter, system-ui, sans-serif",
    fontSize: "14px",
    // DESIGN.md: no gradients, no shadows inside the transcript.
    useGradient: false,
    dropShadow: "none",
    primaryColor: nodeHex,
    primaryTextColor: text,
    primaryBorderColor: outline,
    secondaryColor: nodeHex,
    secondaryTextColor: text,
    secondaryBorderColor: outline,
    tertiaryColor: fieldHex,
    tertiaryTextColor: text,
    tertiaryBorderColor: outline,
    mainBkg: nodeHex,
    nodeBorder: outline,
    nodeTextColor: text,
    textColor: text,
    titleColor: text,
    lineColor: line,
    arrowheadColor: line,
    defaultLinkColor: line,
    edgeLabelBackground: fieldHex,
    clusterBkg: fieldHex,
    clusterBorder: outline,
    noteBkgColor: nodeHex,
    noteTextColor: text,
    noteBorderColor: line,
    actorBkg: nodeHex,
    actorBorder: outline,
    actorTextColor: text,
    actorLineColor: outline,
    signalColor: line,
    signalTextColor: text,
    labelBoxBkgColor: nodeHex,
    labelBoxBorderColor: outline,
    labelTextColor: text,
    loopTextColor: text,
    sequenceNumberColor: fieldHex,
    transitionColor: line,
    transitionLabelColor: text,
    stateLabelColor: text,
    labelBackgroundColor: fieldHex,
    classText: text,
    relationColor: line,
    relationLabelBackground: fieldHex,
    relationLabelColor: text,
  };
  return { key: JSON.stringify(variables), dark, variables };
}
