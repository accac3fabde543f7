// Browser-safe: imports nothing from Deno or the database.
// Incremental markdown for a streamed message: the text is split into settled blocks, each
// rendered exactly once and then only appended, and a live tail re-rendered per update.
// Invariants: a block settles only after a blank line that no later text can reach across
// (the next block has started; after a list or indented code, its first line is complete), and only
// once KaTeX/grammars it needs are loaded; when finished, settled + tail HTML equals
// renderMarkdown(fullText) (checked against a full lex, repaired with a reset if not).
import {
  escapeHtml,
  lexMarkdown,
  type LinkMap,
  loadNeeds,
  needsReady,
  type RendererNeeds,
  type RenderOptions,
  renderTokens,
  tokenNeeds,
} from "./render.ts";
import type { Token, Tokens } from "marked";
import { provisionalTable } from "./stream_table.ts";
import { renderWithDiagramPlaceholders } from "./stream_diagram.ts";

/** What changed since the previous update, for the island to apply to its DOM. */
export interface StreamUpdate {
  /**
   * Remove every settled block shown so far before appending `settled`. Rare: a reference
   * definition arrived that earlier blocks use, or the final check found a difference.
   */
  reset: boolean;
  /** HTML of blocks that became final, in order: append; they never change again. */
  settled: string[];
  /** HTML of the unfinished rest: replaces the previous tail. */
  tail: string;
}

/** Work done so far, for tests and benchmarks. */
export interface StreamStats {
  /** Non-space blocks rendered when they settled (each exactly once, resets aside). */
  settledBlocks: number;
  /** Tail renders (one per update). */
  tailRenders: number;
  resets: number;
}

export interface StreamRendererOptions extends RenderOptions {
  /**
   * Called when KaTeX or a grammar the text needs has finished loading (never after
   * `finish()`). Schedule a frame and call `push("")` so math and code render in final form
   * and can settle.
   */
  onRenderersLoaded?: () => void;
  /**
   * Show a table being written as a table from its header row on (the tail only; the live
   * transcript sets it). Off, every update equals a full render of the text so far.
   */
  growingTables?: boolean;
  /**
   * Show a ```mermaid block still in the tail as a placeholder reading this text instead of
   * its half-written source (the live transcript sets it). Unset, it renders as code.
   */
  diagramPlaceholder?: string;
}

export interface StreamRenderer {
  /** Append `delta` (any split, even inside a word or `\r\n`) and render what changed. */
  push(delta: string): StreamUpdate;
  /** The message is complete: load what it needs, settle everything, verify. */
  finish(): Promise<StreamUpdate>;
  /** The text received so far (line endings normalized). */
  readonly text: string;
  /** The whole HTML shown so far (settled blocks + tail). */
  readonly html: string;
  readonly stats: Readonly<StreamStats>;
}

/** `type` + raw of each top-level token: equal shapes render equal HTML. */
const shape = (t: Token) => `${t.type}\u0000${t.raw}`;

/**
 * How many leading tokens of `src` may settle: up to a blank line after which the next
 * block has begun (after a list or indented code: with a complete first line, so it cannot
 * turn out to continue them), never the last non-space token.
 */
function settleableCount(src: string, tokens: Token[]): number {
  let last = tokens.length - 1;
  while (last >= 0 && tokens[last].type === "space") last--;
  let end = 0;
  let count = 0;
  for (let i = 0; i < last; i++) {
    end += tokens[i].raw.length;
    if (tokens[i + 1].type === "space") continue;
    const before = src.slice(Math.max(0, end - 256), end);
    if (!/\n[ \t]*\n[ \t]*$/.test(before)) continue;
    // Only a list or indented code can reach across a blank line, and whether the next
    // line continues it ("2. b" vs "2") is known once that line is complete.
    let j = i;
    while (j > 0 && tokens[j].type === "space") j--;
    const t = tokens[j];
    const reaches = t.type === "list" || (t.type === "code" && !(t as Tokens.Code).lang &&
      (t as Tokens.Code).codeBlockStyle === "indented");
    if (!reaches || src.indexOf("\n", end) !== -1) count = i + 1;
  }
  return count;
}

function definitions(tokens: Token[], into: LinkMap): string[] {
  const added: string[] = [];
  const visit = (list: Token[]) => {
    for (const t of list) {
      if (t.type === "def") {
        const d = t as Tokens.Def;
        if (!(d.tag in into)) {
          into[d.tag] = { href: d.href, title: d.title };
          added.push(d.tag);
        }
      }
      if (t.type === "list") visit((t as Tokens.List).items);
      else if ("tokens" in t && Array.isArray(t.tokens)) visit(t.tokens as Token[]);
    }
  };
  visit(tokens);
  return added;
}

/**
 * A renderer for one streamed message. Feed it the `token` deltas (batched per animation
 * frame by the caller); apply each update with `applyStreamUpdate`.
 */
export function createStreamRenderer(opts: StreamRendererOptions = {}): StreamRenderer {
  const { onRenderersLoaded, growingTables, diagramPlaceholder, ...renderOpts } = opts;
  let text = "";
  let pendingCR = false;
  /** Start of the unsettled tail in `text`. */
  let offset = 0;
  const blocks: string[] = [];
  const shapes: string[] = [];
  /** Definitions found in settled blocks (final; the tail's may still be half-written). */
  const links: LinkMap = Object.create(null);
  let tailHtml = "";
  const stats: StreamStats = { settledBlocks: 0, tailRenders: 0, resets: 0 };
  const requested = new Set<string>();
  let finished = false;

  function request(needs: RendererNeeds) {
    const keys = [...(needs.math ? ["math"] : []), ...needs.languages.map((l) => `lang:${l}`)];
    const fresh = keys.filter((k) => !requested.has(k));
    if (fresh.length === 0 || needsReady(needs)) return;
    for (const k of fresh) requested.add(k);
    loadNeeds(needs).then(
      () => finished || onRenderersLoaded?.(),
      () => fresh.forEach((k) => requested.delete(k)), // retried by a later update
    );
  }

  /** Re-render the settled prefix with the definitions known now (one block). */
  function rerenderSettled(): string {
    stats.resets++;
    const html = renderTokens(lexMarkdown(text.slice(0, offset), links), renderOpts);
    blocks.length = 0;
    blocks.push(html);
    return html;
  }

  function update(final: boolean): StreamUpdate {
    const src = text.slice(offset);
    const tokens = lexMarkdown(src, links);
    const needs = tokenNeeds(tokens);
    if (!needsReady(needs)) request(needs);

    let count = final ? tokens.length : settleableCount(src, tokens);
    for (let i = 0; i < count; i++) {
      if (!needsReady(tokenNeeds([tokens[i]]))) count = i;
    }
    let settling = tokens.slice(0, count);
    const raw = settling.map((t) => t.raw).join("");
    // A token whose raw is not its exact source (marked trims some) cannot give the offset
    // of what follows: keep everything live then (finish() settles it all regardless).
    if (!final && !src.startsWith(raw)) settling = [];

    const tailDefines = Object.keys(tokens.links).length > Object.keys(links).length;
    if (settling.length > 0 && count < tokens.length && tailDefines) {
      // The tail defines links that may be half-written: lex the settling part without them.
      const relexed = lexMarkdown(raw, links);
      const same = relexed.length === settling.length &&
        relexed.every((t, i) => shape(t) === shape(settling[i]));
      settling = same ? relexed : [];
    }

    const out: StreamUpdate = { reset: false, settled: [], tail: "" };
    if (settling.length > 0) {
      const hadBlocks = offset > 0;
      const added = definitions(settling, links);
      if (added.length && hadBlocks && text.slice(0, offset).includes("[")) {
        out.reset = true;
        out.settled.push(rerenderSettled());
      }
      for (const t of settling) {
        shapes.push(shape(t));
        if (t.type === "space") continue;
        const html = renderTokens([t], renderOpts);
        stats.settledBlocks++;
        blocks.push(html);
        if (html) out.settled.push(html);
      }
      offset += settling.reduce((n, t) => n + t.raw.length, 0);
    }
    // A table still being written renders as a growing table, not a paragraph of pipes.
    const tailSrc = src.slice(settling.reduce((n, t) => n + t.raw.length, 0));
    const patched = final || !growingTables ? tailSrc : provisionalTable(tailSrc);
    const tailTokens = patched === tailSrc
      ? tokens.slice(settling.length)
      : lexMarkdown(patched, links);
    tailHtml = final || diagramPlaceholder === undefined
      ? renderTokens(tailTokens, renderOpts)
      : renderWithDiagramPlaceholders(
        tailTokens,
        diagramPlaceholder,
        (list) => renderTokens(list, renderOpts),
      );
    stats.tailRenders++;
    out.tail = tailHtml;
    return out;
  }

  function normalize(delta: string): string {
    let d = (pendingCR ? "\r" : "") + delta;
    pendingCR = d.endsWith("\r");
    if (pendingCR) d = d.slice(0, -1);
    return d.replace(/\r\n?/g, "\n");
  }

  return {
    push(delta: string): StreamUpdate {
      if (finished) throw new Error("push() after finish(): this message is complete");
      text += normalize(delta);
      try {
        return update(false);
      } catch {
        // The lexer gave up on this text (a marked bug): show the tail as text, try again
        // on the next push.
        tailHtml = `<p class="md-fallback">${escapeHtml(text.slice(offset))}</p>\n`;
        return { reset: false, settled: [], tail: tailHtml };
      }
    },
    async finish(): Promise<StreamUpdate> {
      if (finished) throw new Error("finish() called twice");
      finished = true;
      if (pendingCR) {
        text += "\n";
        pendingCR = false;
      }
      const needs = tokenNeeds(lexMarkdown(text.slice(offset), links));
      if (!needsReady(needs)) await loadNeeds(needs).catch(() => {});
      const out = update(true);
      // The settled blocks must be exactly the top-level blocks of the whole message.
      const full = lexMarkdown(text);
      if (full.length !== shapes.length || full.some((t, i) => shape(t) !== shapes[i])) {
        stats.resets++;
        const html = renderTokens(full, renderOpts);
        blocks.length = 0;
        blocks.push(html);
        shapes.length = 0;
        shapes.push(...full.map(shape));
        return { reset: true, settled: [html], tail: "" };
      }
      return out;
    },
    get text() {
      return text;
    },
    get html() {
      return blocks.join("") + tailHtml;
    },
    get stats() {
      return stats;
    },
  };
}

const lastTail = new WeakMap<Element, string>();

/**
 * Apply `update` to `root`, whose settled blocks are its children before a trailing
 * `<div class="md-tail">` (created on first use; style it `display: contents`). Settled
 * nodes are never touched again, so selections and copy buttons in them keep working.
 */
export function applyStreamUpdate(root: Element, update: StreamUpdate): void {
  let tail = root.lastElementChild;
  if (!tail || !tail.classList.contains("md-tail")) {
    tail = root.ownerDocument.createElement("div");
    tail.className = "md-tail";
    root.append(tail);
  }
  if (update.reset) {
    while (root.firstChild && root.firstChild !== tail) root.firstChild.remove();
  }
  for (const html of update.settled) tail.insertAdjacentHTML("beforebegin", html);
  if (lastTail.get(tail) !== update.tail) {
    tail.innerHTML = update.tail;
    lastTail.set(tail, update.tail);
  }
}
