// Browser-safe: imports nothing from Deno or the database.
// The streamed prose of live runs: each segment's element is written by an incremental
// markdown renderer (lib/markdown/stream.ts, imported on first use so it never weighs on the
// first paint), fed the text that grew since the last animation frame. Invariants: an element
// is written only from here (Preact never re-renders it); its settled blocks are appended,
// never re-rendered; a finished segment's HTML equals renderMarkdown(text); the text a sink
// reads is the segment object the run model grows in place.
import type { Segment } from "../shared/transcript_model.ts";
import { t } from "../i18n/t.ts";
import { createFadeState, type FadeState, fadeTail } from "./fade_text.ts";

type StreamModule = typeof import("../markdown/stream.ts");
type Renderer = ReturnType<StreamModule["createStreamRenderer"]>;

interface Sink {
  el: HTMLElement;
  seg: Segment;
  renderer: Renderer | null;
  /** Characters of `seg.text` already pushed. */
  consumed: number;
  /** The element still shows server-rendered HTML (replaced on the first write). */
  serverHtml: boolean;
  /** Renderers finished loading: push once more even without new text. */
  kick: boolean;
  finishing: Promise<void> | null;
  done: boolean;
  /** What the fade-in effect has seen arrive (only while `fade_text_effect` is on). */
  fade: FadeState | null;
}

let streamModule: Promise<StreamModule> | null = null;

/** Import the streaming renderer once (its own chunks: marked, and KaTeX/grammars lazily). */
export function loadStreamRenderer(): Promise<StreamModule> {
  streamModule ??= import("../markdown/stream.ts");
  streamModule.catch(() => (streamModule = null));
  return streamModule;
}

/** Render settled segments to final HTML in the browser (older pages, reloaded turns). */
export async function renderSegmentsHtml(segments: Segment[]): Promise<void> {
  if (segments.length === 0) return;
  const md = await import("../markdown/render.ts");
  await md.ensureRenderers(segments.map((s) => s.text).join("\n\n"));
  for (const s of segments) s.html = md.renderMarkdown(s.text);
}

function escapeText(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The registry of streaming segment elements of one Transcript island. */
export class LiveProse {
  private sinks = new Map<string, Sink>();
  private frame = 0;
  private md: StreamModule | null = null;
  private failed = false;

  /**
   * A segment element mounted: stream into it while `live`; otherwise its text is final:
   * keep the HTML it was rendered with, or render it now when it has none (a segment that
   * arrived together with the end of its run).
   */
  attach(key: string, el: HTMLElement, seg: Segment, live: boolean): void {
    this.sinks.set(key, {
      el,
      seg,
      renderer: null,
      consumed: 0,
      serverHtml: !!seg.html,
      kick: false,
      finishing: null,
      done: !live && !!seg.html,
      fade: null,
    });
    // A stable hook for tests and styles: "streaming" until the final render is in place.
    el.dataset.state = !live && seg.html ? "final" : "streaming";
    if (live) this.schedule();
    else if (!seg.html) this.finish(key);
  }

  detach(key: string): void {
    this.sinks.delete(key);
  }

  /** Write what grew at the next animation frame. */
  schedule(): void {
    if (this.frame) return;
    const raf = globalThis.requestAnimationFrame ??
      ((f: FrameRequestCallback) => setTimeout(f, 16));
    this.frame = raf(() => {
      this.frame = 0;
      this.flush();
    }) as unknown as number;
  }

  private ensureModule(): boolean {
    if (this.md) return true;
    if (this.failed) return false;
    loadStreamRenderer().then(
      (m) => {
        this.md = m;
        this.schedule();
      },
      () => {
        this.failed = true; // offline or a stale build: fall back to plain text
        this.schedule();
      },
    );
    return false;
  }

  /** Push what grew since the last write; true when the element changed. */
  private write(s: Sink): boolean {
    if (s.done || s.finishing) return false;
    if (this.failed) {
      s.el.innerHTML = `<p class="md-fallback">${escapeText(s.seg.text)}</p>`;
      return true;
    }
    if (!this.md) return false;
    if (!s.renderer) {
      s.renderer = this.md.createStreamRenderer({
        growingTables: true, // a table being written shows as a table, not raw pipes
        diagramPlaceholder: t("transcript.diagramPending"),
        onRenderersLoaded: () => {
          s.kick = true;
          this.schedule();
        },
      });
    }
    const delta = s.seg.text.slice(s.consumed);
    if (!delta && !s.kick && !s.serverHtml) return false;
    s.consumed = s.seg.text.length;
    s.kick = false;
    const update = s.renderer.push(delta);
    if (s.serverHtml) {
      // The first write replaces the server's render of the same text, in the same frame.
      s.el.textContent = "";
      s.serverHtml = false;
    }
    this.md.applyStreamUpdate(s.el, update);
    if (globalThis.document?.documentElement?.hasAttribute("data-fade-text")) {
      fadeTail(s.el, s.fade ??= createFadeState(), performance.now());
    }
    return true;
  }

  private flush(): void {
    let waiting = false;
    for (const s of this.sinks.values()) {
      if (s.done) continue;
      if (!this.md && !this.failed) {
        waiting = true;
        continue;
      }
      this.write(s);
    }
    if (waiting) this.ensureModule();
  }

  /**
   * The segment's text is final: settle it (loads what its math/code needs; the element
   * ends with exactly renderMarkdown(text)). Resolves when written.
   */
  finish(key: string): Promise<void> {
    const s = this.sinks.get(key);
    if (!s || s.done) return Promise.resolve();
    s.finishing ??= (async () => {
      try {
        const md = this.md ?? await loadStreamRenderer();
        this.md = md;
        s.renderer ??= md.createStreamRenderer();
        const delta = s.seg.text.slice(s.consumed);
        s.consumed = s.seg.text.length;
        if (s.serverHtml) {
          s.el.textContent = "";
          s.serverHtml = false;
        }
        // Every update must be applied: a push may settle blocks of its own.
        if (delta) md.applyStreamUpdate(s.el, s.renderer.push(delta));
        md.applyStreamUpdate(s.el, await s.renderer.finish());
        s.el.querySelector(":scope > .md-tail:empty")?.remove();
      } catch {
        s.el.innerHTML = `<p class="md-fallback">${escapeText(s.seg.text)}</p>`;
      }
      s.done = true;
      s.el.dataset.state = "final";
    })();
    return s.finishing;
  }
}
