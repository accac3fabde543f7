// Browser-safe: imports nothing from Deno or the database.
// "Read aloud" on an answer (components/transcript/MessageActions.tsx; loaded on its first
// press by lib/browser/message_actions.ts, and by the voice page script to read a new answer
// when `tts_auto_read` is on). The engine is the `tts_engine` preference: "browser" speaks with
// speechSynthesis (the chosen voice, rate and pitch); "agent" asks the server (POST /api/tts)
// for audio, a piece at a time, and plays it. One reading at a time: a second press of the
// same button stops it, a press on another answer moves to that one.
import { csrfToken } from "../api_client.ts";
import { currentLocale, t } from "../../i18n/t.ts";
import { type VoicePrefs, voicePrefs } from "./voice_prefs.ts";

/** The reading in progress: its button and how to stop it. */
let active: { btn: HTMLElement | null; stop(): void } | null = null;

/** Elements of an answer that are not read: code, hidden math markup, controls. */
const SKIP = "pre, .katex-mathml, button, .visually-hidden, script, style";

/** The text of an answer's prose elements, as a person would read it. */
export function proseText(parts: Iterable<Element>): string {
  const out: string[] = [];
  for (const part of parts) {
    const copy = part.cloneNode(true) as Element;
    for (const el of copy.querySelectorAll(SKIP)) el.remove();
    for (const el of copy.querySelectorAll("p, li, h1, h2, h3, h4, h5, h6, tr, blockquote, br")) {
      el.append("\n");
    }
    out.push(copy.textContent ?? "");
  }
  return out.join("\n").replace(/[ \t]+/g, " ").replace(/\s*\n\s*/g, "\n").trim();
}

/** Split `text` into pieces of at most `max` characters, at sentence or word ends when it can. */
export function speechPieces(text: string, max: number): string[] {
  const pieces: string[] = [];
  let rest = text.trim();
  while (rest.length > max) {
    let cut = -1;
    for (let i = max - 1; i > max * 0.4 && cut < 0; i--) {
      const c = rest[i];
      if ("。！？\n".includes(c) || (".!?;".includes(c) && /\s/.test(rest[i + 1]))) cut = i + 1;
    }
    if (cut < 0) {
      const space = rest.lastIndexOf(" ", max);
      cut = space > max * 0.4 ? space : max;
    }
    pieces.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) pieces.push(rest);
  return pieces;
}

function mark(btn: HTMLElement | null, reading: boolean): void {
  if (!btn) return;
  btn.dataset.state = reading ? "reading" : "";
  btn.setAttribute("aria-pressed", reading ? "true" : "false");
  const label = btn.querySelector("span");
  if (label) label.textContent = reading ? t("voice.stopReading") : t("voice.readAloud");
  btn.title = reading ? t("voice.stopReadingTitle") : t("voice.readAloudTitle");
}

/** Stop whatever is being read. */
export function stopReading(): void {
  const was = active;
  active = null;
  was?.stop();
  mark(was?.btn ?? null, false);
}

/** What one reading shares with its stop(). */
interface Own {
  stopped: boolean;
  audio?: HTMLAudioElement;
  /** Ends the wait for the browser's speech (its events may not come after cancel()). */
  release?: () => void;
}

/** Speak with the browser's speechSynthesis; resolves when it has finished or was stopped. */
function speakInBrowser(text: string, prefs: VoicePrefs, own: Own): Promise<void> {
  const synth = globalThis.speechSynthesis;
  const Utterance = (globalThis as { SpeechSynthesisUtterance?: typeof SpeechSynthesisUtterance })
    .SpeechSynthesisUtterance;
  if (!synth || !Utterance) throw new Error(t("voice.speechUnavailable"));
  synth.cancel();
  const voice = prefs.voice ? synth.getVoices().find((v) => v.name === prefs.voice) : undefined;
  // Short utterances: Chromium stops a long one after about fifteen seconds.
  const pieces = speechPieces(text, 220);
  return new Promise((resolve) => {
    own.release = resolve;
    pieces.forEach((piece, i) => {
      const u = new Utterance(piece);
      u.lang = voice?.lang ?? currentLocale();
      if (voice) u.voice = voice;
      u.rate = Math.min(10, Math.max(0.1, prefs.rate));
      u.pitch = Math.min(2, Math.max(0, prefs.pitch));
      if (i === pieces.length - 1) u.onend = u.onerror = () => resolve();
      synth.speak(u);
    });
  });
}

/** One piece from the server as audio, or an Error carrying the server's sentence. */
async function fetchSpeech(text: string, signal: AbortSignal): Promise<Blob> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  const token = csrfToken();
  if (token) headers["x-hermes-csrf-token"] = token;
  const res = await fetch("/api/tts", {
    method: "POST",
    headers,
    body: JSON.stringify({ engine: "agent", text }),
    credentials: "same-origin",
    signal,
  });
  if (!res.ok) {
    const body = await res.json().catch(() => null) as { error?: unknown } | null;
    throw new Error(
      typeof body?.error === "string" ? body.error : t("voice.speakFailed", { status: res.status }),
    );
  }
  return await res.blob();
}

/** Play `blob`; resolves when it ends (or is stopped through `own`). */
function play(blob: Blob, own: Own): Promise<void> {
  const url = URL.createObjectURL(blob);
  const audio = new Audio(url);
  own.audio = audio;
  return new Promise<void>((resolve, reject) => {
    const finish = (err?: Error) => {
      URL.revokeObjectURL(url);
      audio.onended = audio.onerror = audio.onpause = null;
      if (err && !own.stopped) reject(err);
      else resolve();
    };
    audio.onended = () => finish();
    audio.onpause = () => own.stopped && finish();
    audio.onerror = () => finish(new Error(t("voice.playbackFailed")));
    audio.play().catch((err) => finish(err instanceof Error ? err : new Error(String(err))));
  });
}

/** Speak through the server, piece by piece (the next piece loads while one plays). */
async function speakOnServer(
  text: string,
  own: Own,
  signal: AbortSignal,
): Promise<void> {
  const pieces = speechPieces(text, 3000);
  let next = pieces.length ? fetchSpeech(pieces[0], signal) : null;
  for (let i = 0; i < pieces.length && next && !own.stopped; i++) {
    const blob = await next;
    next = i + 1 < pieces.length ? fetchSpeech(pieces[i + 1], signal) : null;
    next?.catch(() => {}); // awaited (and reported) in its turn
    if (own.stopped) break;
    await play(blob, own);
  }
}

/**
 * Read `text` aloud, marking `btn` (if any) while it reads; a reading already going is stopped
 * first. Resolves when the reading ends; rejects with a sentence for the person on failure.
 */
export async function readAloud(text: string, btn: HTMLElement | null): Promise<void> {
  stopReading();
  if (!text.trim()) return;
  const own: Own = { stopped: false };
  const abort = new AbortController();
  const mine = {
    btn,
    stop() {
      own.stopped = true;
      abort.abort();
      own.audio?.pause();
      globalThis.speechSynthesis?.cancel();
      own.release?.();
    },
  };
  active = mine;
  mark(btn, true);
  try {
    const prefs = await voicePrefs();
    if (own.stopped) return;
    if (prefs.engine === "agent") await speakOnServer(text, own, abort.signal);
    else await speakInBrowser(text, prefs, own);
  } catch (err) {
    if (!own.stopped && (err as Error).name !== "AbortError") throw err;
  } finally {
    if (active === mine) {
      active = null;
      mark(btn, false);
    }
  }
}

/** The Read aloud button was pressed: stop if it is reading, else read its answer. */
export function toggleReadAloud(btn: HTMLElement): Promise<void> {
  if (active?.btn === btn) return Promise.resolve(stopReading());
  const turn = btn.closest(".turn");
  const parts = turn ? turn.querySelectorAll(":scope > .msg-assistant") : [];
  return readAloud(proseText(parts), btn);
}

/** Read the newest answer on the page (auto-read after a run ends). */
export function readLatestAnswer(): Promise<void> {
  const turns = document.querySelectorAll(".turn");
  const turn = turns[turns.length - 1];
  if (!turn) return Promise.resolve();
  return readAloud(proseText(turn.querySelectorAll(":scope > .msg-assistant")), null);
}

/** After a run: read its answer when `tts_auto_read` is on (quietly: nobody pressed anything). */
export async function autoRead(): Promise<void> {
  const prefs = await voicePrefs();
  if (!prefs.autoRead) return;
  await new Promise((r) => requestAnimationFrame(r)); // the last words are on the page
  await readLatestAnswer();
}
