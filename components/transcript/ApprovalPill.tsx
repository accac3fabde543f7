// Keeps a pending approval from hiding under the composer: when the card appears it scrolls
// into view; while the reader has scrolled it out of view, a "Needs your approval" pill just
// above the composer jumps back to it. The card is found by its data-approval-id, once it has
// loaded.
import { useEffect, useState } from "preact/hooks";
import { t } from "../../lib/i18n/t.ts";
import { scrollBehavior } from "../../lib/browser/motion.ts";

function cardOf(id: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(
    `.approval-card[data-approval-id="${CSS.escape(id)}"]`,
  );
}

/**
 * Scroll the transcript (only it: scrollIntoView would also shift the page's own layout on
 * phones) so the card's top is in view and as much of it as fits above the composer.
 */
function reveal(el: HTMLElement, smooth: boolean): void {
  const s = el.closest<HTMLElement>(".transcript");
  if (!s) return;
  const a = el.getBoundingClientRect();
  const b = s.getBoundingClientRect();
  const margin = 12;
  let delta = 0;
  if (a.bottom > b.bottom - margin) delta = a.bottom - b.bottom + margin;
  if (a.top - delta < b.top + margin) delta = a.top - b.top - margin;
  if (delta) s.scrollBy({ top: delta, behavior: scrollBehavior(smooth) });
}

export function ApprovalPill({ approvalId }: { approvalId: string }) {
  const [offscreen, setOffscreen] = useState(false);
  const [bottom, setBottom] = useState(96);

  useEffect(() => {
    const root = document.querySelector<HTMLElement>(".transcript");
    const el = cardOf(approvalId);
    if (el) return watch(el, root);
    // The card loads on its first use (components/ApprovalCard.tsx): wait for it to show.
    let stop: (() => void) | undefined;
    const mo = new MutationObserver(() => {
      const found = cardOf(approvalId);
      if (!found) return;
      mo.disconnect();
      stop = watch(found, root);
    });
    mo.observe(root ?? document.body, { childList: true, subtree: true });
    return () => {
      mo.disconnect();
      stop?.();
    };
  }, [approvalId]);

  /** Bring the card into view, then follow whether it stays there. */
  function watch(el: HTMLElement, root: HTMLElement | null): () => void {
    requestAnimationFrame(() => reveal(el, false));
    // In view: 40% of the card, or of the transcript when the card is taller than that allows
    // (200% zoom, large text), else the pill would cover the card it points to for good.
    const io = new IntersectionObserver(([entry]) => {
      const seen = entry.intersectionRect.height;
      const room = entry.rootBounds?.height ?? innerHeight;
      setOffscreen(
        !entry.isIntersecting || (entry.intersectionRatio < 0.4 && seen < 0.4 * room),
      );
      if (root) setBottom(Math.max(16, innerHeight - root.getBoundingClientRect().bottom + 12));
    }, { root, threshold: [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4] });
    io.observe(el);
    return () => io.disconnect();
  }

  if (!offscreen) return null;
  return (
    <button
      type="button"
      class="approval-pill"
      style={{ bottom: `${bottom}px` }}
      onClick={() => {
        const el = cardOf(approvalId);
        if (el) reveal(el, true);
        el?.querySelector<HTMLButtonElement>("[data-choice='once']")?.focus({
          preventScroll: true,
        });
      }}
    >
      {t("approvals.pill")}
    </button>
  );
}
