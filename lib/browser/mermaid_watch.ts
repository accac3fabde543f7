// Browser-safe: imports nothing from Deno or the database.
// Finds ```mermaid blocks in finished prose (server-rendered or a live answer once final) and
// hands them to lib/browser/mermaid_render.ts, which (with the mermaid library) loads on the
// first diagram only. Invariant: a streaming answer is never drawn half-written.

const SELECTOR = "pre.code-block > code.language-mermaid";

function pending(root: ParentNode): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(SELECTOR)].filter((code) => {
    const pre = code.parentElement!;
    return !pre.dataset.mermaid && !pre.closest("[data-state='streaming']");
  });
}

let renderer: Promise<typeof import("./mermaid_render.ts")> | undefined;

function drawAll(doc: Document): void {
  const blocks = pending(doc);
  if (!blocks.length) return;
  for (const code of blocks) code.parentElement!.dataset.mermaid = "queued";
  renderer ??= import("./mermaid_render.ts");
  void renderer.then((m) => m.renderBlocks(blocks.map((c) => c.parentElement!)));
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
