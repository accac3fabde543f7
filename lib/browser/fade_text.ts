// Browser-safe: imports nothing from Deno or the database.
// The `fade_text_effect` preference: text that streams into a live answer fades in instead of
// appearing at once. The streamed tail is rewritten on every frame (lib/markdown/stream.ts), so
// each write wraps the characters that arrived in the last FADE_MS in spans again, each with
// its animation already under way (a negative delay): a character fades once, however many
// frames rewrite it. Settled blocks and finished answers carry no spans. CSS:
// static/transcript_display.css (`.fade-in`; reduced motion stills it with every animation).

/** How long a character takes to fade in (static/transcript_display.css says the same). */
export const FADE_MS = 400;

/** One element's recent arrivals: `[start, end)` character ranges of its tail's text. */
export interface FadeState {
  text: string;
  ranges: Array<{ start: number; end: number; at: number }>;
}

export function createFadeState(): FadeState {
  return { text: "", ranges: [] };
}

/** Wrap `[start, end)` of `root`'s text in a span that is `age` ms into its fade. */
function wrapRange(root: Element, start: number, end: number, age: number): void {
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n as Text);
  let offset = 0;
  for (const node of nodes) {
    const len = node.data.length;
    const from = Math.max(start, offset);
    const to = Math.min(end, offset + len);
    offset += len;
    if (from >= to) continue;
    let piece = node;
    if (from > offset - len) piece = piece.splitText(from - (offset - len));
    if (to - from < piece.data.length) piece.splitText(to - from);
    const span = root.ownerDocument.createElement("span");
    span.className = "fade-in";
    // Set through the CSSOM, which the strict CSP allows (a style attribute it would refuse).
    span.style.animationDelay = `-${Math.round(age)}ms`;
    piece.replaceWith(span);
    span.append(piece);
  }
}

/**
 * After a write of `el`'s tail: remember what arrived now and fade everything that arrived
 * within the last FADE_MS. A tail that no longer starts with the old text began a new block.
 */
export function fadeTail(el: Element, state: FadeState, now: number): void {
  const tail = el.lastElementChild?.classList.contains("md-tail") ? el.lastElementChild : null;
  if (!tail) return;
  // A tail the renderer left as it was still holds the last write's spans: start from its text.
  for (const span of tail.querySelectorAll(".fade-in")) span.replaceWith(...span.childNodes);
  const text = tail.textContent ?? "";
  if (!text.startsWith(state.text)) state.ranges = [];
  const from = text.startsWith(state.text) ? state.text.length : 0;
  if (text.length > from) state.ranges.push({ start: from, end: text.length, at: now });
  state.text = text;
  state.ranges = state.ranges.filter((r) => now - r.at < FADE_MS);
  // From the last range back: wrapping splits text nodes after the ranges still to do.
  for (const r of [...state.ranges].reverse()) wrapRange(tail, r.start, r.end, now - r.at);
}
