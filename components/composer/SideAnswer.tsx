// A side answer (`/btw`, a background task) rendered like an answer in the transcript: the same
// streaming markdown renderer (lib/markdown/stream.ts: sanitised, math and code loaded on demand,
// a table shown as it grows, a diagram a placeholder until complete), fed as the text grows.
// Invariants: the renderer is fed only what the text grew by (any other text starts afresh);
// once `final`, the HTML is exactly renderMarkdown(text) and `data-state` turns "final",
// so lib/browser/mermaid_watch.ts draws its diagrams then and never half-written.
import { useEffect, useRef, useState } from "preact/hooks";
import { createStreamRenderer, type StreamRenderer } from "../../lib/markdown/stream.ts";
import { t } from "../../lib/i18n/t.ts";

interface Feed {
  renderer: StreamRenderer;
  /** The text pushed so far. */
  fed: string;
  finishing: boolean;
}

export function SideAnswer(
  { text, final, class: extra = "" }: { text: string; final: boolean; class?: string },
) {
  const [view, setView] = useState({ html: "", done: false });
  const feed = useRef<Feed | null>(null);
  useEffect(() => {
    // Another text (not a longer one) starts afresh: a feed only ever grows.
    if (feed.current && !text.startsWith(feed.current.fed)) feed.current = null;
    const f = feed.current ??= {
      renderer: createStreamRenderer({
        growingTables: true,
        diagramPlaceholder: t("transcript.diagramPending"),
        // KaTeX or a grammar arrived: show the text so far with it.
        onRenderersLoaded: () => {
          if (f.finishing || feed.current !== f) return;
          f.renderer.push("");
          setView({ html: f.renderer.html, done: false });
        },
      }),
      fed: "",
      finishing: false,
    };
    if (f.finishing) return;
    f.renderer.push(text.slice(f.fed.length));
    f.fed = text;
    if (!final) {
      setView({ html: f.renderer.html, done: false });
      return;
    }
    f.finishing = true;
    void f.renderer.finish().then(() => {
      if (feed.current === f) setView({ html: f.renderer.html, done: true });
    });
  }, [text, final]);
  return (
    <div
      class={`side-answer prose ${extra}`.trim()}
      data-state={view.done ? "final" : "streaming"}
      // deno-lint-ignore react-no-danger
      dangerouslySetInnerHTML={{ __html: view.html }}
    />
  );
}
