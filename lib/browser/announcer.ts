// Browser-safe: imports nothing from Deno or the database.
// What a screen reader hears of the conversation: the app shell's two visually hidden live
// regions ([data-announce="polite"|"assertive"]), written once per thing worth saying — a
// settled answer (never token by token: the transcript itself is a log with aria-live off), a
// stopped or failed run, an approval waiting, a queued message. One write, one mutation.
import { type HermesEvents, onHermesEvent } from "../shared/ui_events.ts";
import { t } from "../i18n/t.ts";

/** How much of a settled answer is read out; the rest is in the transcript. */
export const ANNOUNCE_CHARS = 200;

/** Plain text of an answer in markdown, cut to `ANNOUNCE_CHARS` at a word when it can be. */
export function answerSummary(answer: string): string {
  const plain = answer.replace(/```[\s\S]*?(```|$)/g, " ").replace(/[*_`#>|~[\]]+/g, "")
    .replace(/\s+/g, " ").trim();
  if (plain.length <= ANNOUNCE_CHARS) return plain;
  const cut = plain.slice(0, ANNOUNCE_CHARS);
  const space = cut.lastIndexOf(" ");
  return `${space > ANNOUNCE_CHARS / 2 ? cut.slice(0, space) : cut}…`;
}

let last = "";

/** Say `text` through the polite region, or the assertive one when `urgent`. */
export function announce(text: string, urgent = false): void {
  const region = document.querySelector(`[data-announce="${urgent ? "assertive" : "polite"}"]`);
  if (!region || !text) return;
  // The same words twice in a row would not be read again: vary them invisibly.
  const said = text === last ? `${text}\u00a0` : text;
  last = said;
  region.textContent = said;
}

/** Say how the run of `sessionId` ended (`hermes:chat-ended` of another chat says nothing). */
export function announceChatEnded(
  sessionId: string,
  { session_id, reason, answer, error }: HermesEvents["hermes:chat-ended"],
): void {
  if (session_id !== sessionId) return;
  if (reason === "error") return announce(t("a11y_sr.runFailed", { error: error ?? "" }), true);
  if (reason === "cancel") return announce(t("a11y_sr.runStopped"));
  const summary = answerSummary(answer ?? "");
  announce(summary ? t("a11y_sr.answerFinished", { summary }) : t("a11y_sr.runFinished"));
}

/** Follow the page's run and composer events; returns the function that stops following. */
export function installAnnouncer(sessionId: string): () => void {
  const offs = [
    onHermesEvent("hermes:announce", ({ text, urgent }) => announce(text, urgent)),
    onHermesEvent("hermes:chat-ended", (d) => announceChatEnded(sessionId, d)),
  ];
  return () => offs.forEach((off) => off());
}
