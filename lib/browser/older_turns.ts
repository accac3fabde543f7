// Browser-safe: imports nothing from Deno or the database.
// Older turns of a long conversation, loaded above the server-rendered history when the reader
// clicks the loader, or, with `session_endless_scroll` on (<html data-endless-scroll>), as they
// near its top. Invariants: each page holds whole turns (alignedPage); one page loads at a time;
// the loader marker disappears once nothing older exists.
import { api } from "./api_client.ts";
import { alignedPage, foldMessages } from "../shared/transcript_fold.ts";
import type { ToolCallRecord, TurnModel } from "../shared/transcript_turns.ts";
import type { SessionAnswer } from "./live_transcript.ts";
import { renderSegmentsHtml } from "./live_prose.ts";
import { onHermesEvent } from "../shared/ui_events.ts";

/** Rows asked for per older page (whole turns are completed by alignedPage). */
const OLDER_ROWS = 30;

/**
 * Watch the `#transcript-older` marker (carrying `data-before`) inside `scroller`; each page
 * of turns is handed to `renderTurns` with a fresh container placed right after the marker.
 * Returns the function that stops watching (nothing to stop without a marker).
 */
export function watchOlderTurns(
  sessionId: string,
  scroller: HTMLElement | null,
  renderTurns: (turns: TurnModel[], container: HTMLElement) => void,
): () => void {
  const marker = document.getElementById("transcript-older");
  if (!marker) return () => {};
  let before = Number(marker.dataset.before);
  let busy = false;
  const load = async () => {
    if (busy || !marker.isConnected) return;
    busy = true;
    marker.dataset.state = "loading";
    try {
      let records: ToolCallRecord[] = [];
      const page = await alignedPage(
        async (b, limit) => {
          const { session } = await api<SessionAnswer>(
            "GET",
            `/api/session?session_id=${encodeURIComponent(sessionId)}&msg_limit=${limit}` +
              (b === undefined ? "" : `&msg_before=${b}`),
          );
          records = session.tool_calls ?? [];
          return session.messages;
        },
        before,
        OLDER_ROWS,
      );
      const turns = foldMessages(page.messages, records);
      await renderSegmentsHtml(turns.flatMap((t) => t.segments));
      const container = document.createElement("div");
      container.className = "turns-page";
      marker.after(container);
      renderTurns(turns, container);
      before = page.offset;
      delete marker.dataset.state;
      if (before <= 0) {
        io.disconnect();
        marker.remove();
      } else {
        marker.dataset.before = String(before);
        // Still in view (a short page): observe afresh so the next page follows.
        io.unobserve(marker);
        io.observe(marker);
      }
    } catch {
      marker.dataset.state = "error";
    } finally {
      busy = false;
    }
  };
  // Read as it fires, so turning the setting on or off applies from the next scroll on.
  const endless = () => document.documentElement.hasAttribute("data-endless-scroll");
  const io = new IntersectionObserver(
    (entries) => endless() && entries.some((e) => e.isIntersecting) && load(),
    { root: scroller, rootMargin: "600px 0px 0px 0px" },
  );
  io.observe(marker);
  const button = marker.querySelector("button");
  button?.addEventListener("click", load);
  // Turned on while the marker is already near: the observer will not fire again by itself.
  const offSettings = onHermesEvent("hermes:settings-changed", ({ changed }) => {
    if (!changed.includes("session_endless_scroll") || !marker.isConnected) return;
    io.unobserve(marker);
    io.observe(marker);
  });
  return () => {
    io.disconnect();
    offSettings();
    button?.removeEventListener("click", load);
  };
}
