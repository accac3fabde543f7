// Browser-safe: imports nothing from Deno or the database.
// Finds ```mermaid blocks in finished prose (server-rendered, a settled block of a live answer, a
// side answer once complete) and hands them to lib/browser/mermaid_render.ts, which (with the
// mermaid library) loads on the first diagram only. Invariant: a diagram is never drawn
// half-written: a streaming element's blocks are drawn only once settled (outside its live
// `.md-tail`), and only when the stream renderer wrote them; until drawn a block reads as a
// quiet placeholder (static/markdown.css, `data-mermaid="queued"`).
import { t } from "../i18n/t.ts";

const SELECTOR = "pre.code-block > code.language-mermaid";

function complete(pre: HTMLElement): boolean {
  const live = pre.closest<HTMLElement>("[data-state='streaming']");
  if (!live) return true;
  const tail = live.querySelector(":scope > .md-tail");
  return !!tail && !tail.contains(pre);
}

function pending(root: ParentNode): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(SELECTOR)]
    .map((code) => code.parentElement!)
    .filter((pre) => !pre.dataset.mermaid && complete(pre));
}

let renderer: Promise<typeof import("./mermaid_render.ts")> | undefined;

function drawAll(doc: Document): void {
  const blocks = pending(doc);
  if (!blocks.length) return;
  for (const pre of blocks) {
    pre.dataset.mermaid = "queued";
    pre.dataset.pending = t("transcript.diagramPending");
  }
  renderer ??= import("./mermaid_render.ts");
  renderer.then((m) => m.renderBlocks(blocks), () => {
    // Offline or a stale build: show the sources; the next change to the page tries again.
    renderer = undefined;
    for (const pre of blocks) delete pre.dataset.mermaid;
  });
}

/** Watch the page for diagrams; returns the function that stops watching. */
export function installMermaid(doc: Document = document): () => void {
  let scheduled = false;
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      drawAll(doc);
    });
  };
  const observer = new MutationObserver(schedule);
  observer.observe(doc.body, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ["data-state"],
  });
  schedule();
  return () => observer.disconnect();
}
