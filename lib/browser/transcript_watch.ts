// Browser-safe: imports nothing from Deno or the database.
// One way for the transcript's display features to follow what the conversation shows: turns
// rendered by the server, streamed live, settled, or loaded above as older pages. The callback
// runs at most once per animation frame, after the changes of that frame.

/** Call `fn` whenever the transcript's content changes; returns the function that stops it. */
export function watchTranscript(fn: () => void): () => void {
  const s = document.querySelector(".transcript");
  if (!s) return () => {};
  let frame = 0;
  const mo = new MutationObserver(() => {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      fn();
    });
  });
  mo.observe(s, { childList: true, subtree: true });
  return () => {
    mo.disconnect();
    if (frame) cancelAnimationFrame(frame);
  };
}

/** The open conversation's session id (the transcript carries it), or null on a new chat. */
export function openSessionId(): string | null {
  return document.querySelector<HTMLElement>(".transcript")?.dataset.sessionId ?? null;
}
