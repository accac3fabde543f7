// Browser-safe: imports nothing from Deno or the database.
// Dictation into the composer, loaded on the first press of the microphone button
// (components/composer/DictateButton.tsx). Two engines behind one toggle:
// - the browser's own speech recognition (SpeechRecognition / webkitSpeechRecognition) where it
//   exists and works; a recognizer that cannot reach its service ("network",
//   "service-not-allowed": e.g. Chromium builds without Google's keys) falls back, for the rest
//   of the page's life, to
// - recording with MediaRecorder and sending the audio to POST /api/transcribe (the server's
//   voice provider). A pause longer than `voice_silence_ms` ends the recording unless
//   `voice_continuous` is on; five minutes is the most one recording holds.
// The transcript is handed to `events.text`; where it goes in the draft is insertDictation's.
import { ApiError, apiRequest } from "../api_client.ts";
import { currentLocale, t } from "../../i18n/t.ts";
import { type VoicePrefs, voicePrefs, voicePrefsFrom } from "./voice_prefs.ts";

export type DictationPhase = "idle" | "listening" | "transcribing";

export interface DictationEvents {
  phase(phase: DictationPhase): void;
  /** The words heard (trimmed, never empty). */
  text(text: string): void;
  error(message: string): void;
}

export interface Dictation {
  /** Start listening, or (while listening) stop and use what was heard. */
  toggle(): void;
  /** Stop and throw away what was heard (the composer went away). */
  cancel(): void;
}

/** The longest recording, in ms. */
const MAX_RECORDING_MS = 5 * 60_000;
/** Louder than this (RMS of the signal, 0..1) counts as speech for the pause detector. */
const SPEECH_RMS = 0.02;

/**
 * `text` put into `draft` in place of the selection [start, end), with a space on either side
 * where it would otherwise run into a word; `caret` is where typing continues.
 */
export function insertDictation(
  draft: string,
  start: number,
  end: number,
  text: string,
): { text: string; caret: number } {
  const s = Math.max(0, Math.min(start, draft.length));
  const e = Math.max(s, Math.min(end, draft.length));
  const before = draft.slice(0, s);
  const after = draft.slice(e);
  const lead = before && !/\s$/.test(before) ? " " : "";
  const trail = after && !/^\s/.test(after) ? " " : "";
  const head = before + lead + text + trail;
  return { text: head + after, caret: head.length };
}

/** The recognizer's language for the page's locale (Chinese scripts name a region). */
export function recognitionLang(locale: string): string {
  return locale === "zh-Hans" ? "zh-CN" : locale === "zh-Hant" ? "zh-TW" : locale;
}

/** The first MediaRecorder type this browser records (Chromium/Firefox: WebM; Safari: MP4). */
function recordingType(): string | undefined {
  const types = ["audio/webm;codecs=opus", "audio/webm", "audio/ogg;codecs=opus", "audio/mp4"];
  return types.find((type) => MediaRecorder.isTypeSupported?.(type));
}

const extensionOf = (type: string) =>
  type.includes("ogg")
    ? "ogg"
    : type.includes("mp4")
    ? "m4a"
    : type.includes("wav")
    ? "wav"
    : "webm";

/** Why the microphone could not start, in words. */
function micError(err: unknown): string {
  const name = (err as { name?: string } | null)?.name ?? "";
  if (name === "NotAllowedError" || name === "SecurityError") return t("voice.micDenied");
  if (name === "NotFoundError" || name === "OverconstrainedError") return t("voice.noMic");
  return t("voice.micFailed", { reason: (err as Error)?.message || name || String(err) });
}

interface RecognitionResultList {
  length: number;
  [i: number]: { isFinal: boolean; 0: { transcript: string } };
}
interface Recognizer {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  maxAlternatives: number;
  onresult: ((e: { resultIndex: number; results: RecognitionResultList }) => void) | null;
  onerror: ((e: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}
type RecognizerClass = new () => Recognizer;

/** The browser's recognizer, unless it was found not to work on this page. */
let recognitionBroken = false;
function recognizerClass(): RecognizerClass | null {
  if (recognitionBroken) return null;
  const g = globalThis as {
    SpeechRecognition?: RecognizerClass;
    webkitSpeechRecognition?: RecognizerClass;
  };
  return g.SpeechRecognition ?? g.webkitSpeechRecognition ?? null;
}

/**
 * Errors after which the recognizer is given up for recording on the server: its service is
 * out of reach or refuses, or it cannot open the microphone itself (headless and some Linux
 * builds) — the recorder then finds out whether there is a microphone at all.
 */
const FALL_BACK = new Set([
  "network",
  "service-not-allowed",
  "language-not-supported",
  "audio-capture",
]);

/** Call `onPause` once speech was heard and then `silenceMs` passed without any. */
function watchPauses(stream: MediaStream, silenceMs: number, onPause: () => void): () => void {
  const Ctx = (globalThis as { AudioContext?: typeof AudioContext }).AudioContext;
  if (!Ctx) return () => {};
  const ctx = new Ctx();
  const analyser = ctx.createAnalyser();
  analyser.fftSize = 1024;
  ctx.createMediaStreamSource(stream).connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  let spoke = false;
  let lastLoud = performance.now();
  const timer = setInterval(() => {
    analyser.getFloatTimeDomainData(samples);
    let sum = 0;
    for (const v of samples) sum += v * v;
    const now = performance.now();
    if (Math.sqrt(sum / samples.length) > SPEECH_RMS) (spoke = true, lastLoud = now);
    else if (spoke && now - lastLoud > silenceMs) onPause();
  }, 100);
  return () => (clearInterval(timer), void ctx.close().catch(() => {}));
}

/** A dictation session for the composer; `events` hears its phases, text and errors. */
export function createDictation(events: DictationEvents): Dictation {
  let phase: DictationPhase = "idle";
  let stopNow: (() => void) | null = null;
  let cancelNow: (() => void) | null = null;
  /** Pressed again (or cancelled) while the microphone was still opening. */
  let pending: "stop" | "cancel" | null = null;
  const set = (p: DictationPhase) => (phase = p, events.phase(p));
  const done = () => (stopNow = cancelNow = null, pending = null, set("idle"));
  /** The engine is running: honour a press that came while it started. */
  const started = (stop: () => void, cancel: () => void) => {
    stopNow = stop;
    cancelNow = cancel;
    const was = pending;
    pending = null;
    if (was === "stop") stop();
    else if (was === "cancel") cancel();
  };

  function listen(prefs: VoicePrefs, Recognition: RecognizerClass): void {
    const rec = new Recognition();
    rec.lang = recognitionLang(currentLocale());
    rec.continuous = prefs.continuous;
    rec.interimResults = false;
    rec.maxAlternatives = 1;
    let heard = "";
    let fellBack = false;
    let failed = false;
    rec.onresult = (e) => {
      for (let i = e.resultIndex; i < e.results.length; i++) {
        if (e.results[i].isFinal) {
          heard += `${heard ? " " : ""}${e.results[i][0].transcript.trim()}`;
        }
      }
    };
    rec.onerror = (e) => {
      if (FALL_BACK.has(e.error)) {
        recognitionBroken = true;
        fellBack = true;
        void record(prefs);
        return;
      }
      failed = e.error !== "aborted";
      if (e.error === "not-allowed") events.error(t("voice.micDenied"));
      else if (e.error === "no-speech") events.error(t("voice.nothingHeard"));
      else if (failed) events.error(t("voice.micFailed", { reason: e.error }));
    };
    rec.onend = () => {
      if (fellBack) return; // the recorder owns the session now
      if (heard.trim()) events.text(heard.trim());
      else if (!failed) events.error(t("voice.nothingHeard"));
      done();
    };
    rec.start();
    started(() => rec.stop(), () => (rec.onend = null, rec.abort(), done()));
  }

  async function record(prefs: VoicePrefs): Promise<void> {
    const media = globalThis.navigator?.mediaDevices;
    if (!media?.getUserMedia || typeof MediaRecorder === "undefined") {
      events.error(t("voice.unsupported"));
      return done();
    }
    let stream: MediaStream;
    try {
      stream = await media.getUserMedia({ audio: true });
    } catch (err) {
      events.error(micError(err));
      return done();
    }
    const type = recordingType();
    // Speech needs little: 32 kbit/s keeps an upload small (25 MB is over an hour of it).
    const recorder = new MediaRecorder(stream, {
      audioBitsPerSecond: 32_000,
      ...(type ? { mimeType: type } : {}),
    });
    const chunks: Blob[] = [];
    let cancelled = false;
    const unwatch = prefs.continuous
      ? () => {}
      : watchPauses(stream, prefs.silenceMs, () => stop());
    const limit = setTimeout(() => stop(), MAX_RECORDING_MS);
    function stop() {
      if (recorder.state !== "inactive") recorder.stop();
    }
    const release = () => {
      clearTimeout(limit);
      unwatch();
      for (const track of stream.getTracks()) track.stop();
    };
    recorder.ondataavailable = (e) => void (e.data.size && chunks.push(e.data));
    recorder.onstop = async () => {
      release();
      if (cancelled) return;
      const blobType = recorder.mimeType || type || "audio/webm";
      const blob = new Blob(chunks, { type: blobType });
      if (blob.size === 0) return (events.error(t("voice.nothingHeard")), done());
      set("transcribing");
      try {
        const form = new FormData();
        form.append("file", blob, `dictation.${extensionOf(blobType)}`);
        form.append("language", currentLocale());
        const res = await apiRequest<{ transcript?: string }>("POST", "/api/transcribe", {
          body: form,
        });
        const text = (res?.transcript ?? "").trim();
        if (text) events.text(text);
        else events.error(t("voice.nothingHeard"));
      } catch (err) {
        events.error(err instanceof ApiError ? err.message : String(err));
      }
      done();
    };
    recorder.start(250);
    started(stop, () => {
      cancelled = true;
      stop();
      release();
      done();
    });
  }

  async function start(): Promise<void> {
    set("listening"); // at once; a press while the microphone opens is kept for then
    const prefs = await voicePrefs().catch(() => voicePrefsFrom({}));
    if (pending === "cancel") return done();
    const Recognition = recognizerClass();
    if (Recognition) listen(prefs, Recognition);
    else await record(prefs);
  }

  return {
    toggle() {
      if (phase === "idle") void start();
      else if (phase === "listening") stopNow ? stopNow() : (pending = "stop");
    },
    cancel() {
      if (cancelNow) cancelNow();
      else if (phase === "listening") pending = "cancel";
    },
  };
}
