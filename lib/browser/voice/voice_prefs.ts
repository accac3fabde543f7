// Browser-safe: imports nothing from Deno or the database.
// The voice preferences as the browser needs them (GET /api/settings, read once per page and
// kept current by `hermes:settings-changed`): the read-aloud engine, the browser voice, rate
// and pitch, auto-read, and dictation's continuous mode and silence limit.
import { api } from "../api_client.ts";
import { onHermesEvent } from "../../shared/ui_events.ts";

export interface VoicePrefs {
  /** "browser" (speechSynthesis) or "agent" (the server, POST /api/tts). */
  engine: "browser" | "agent";
  /** A browser voice's name ("" = the browser's default). */
  voice: string;
  rate: number;
  pitch: number;
  autoRead: boolean;
  /** Dictation keeps listening until stopped (else it stops after a pause). */
  continuous: boolean;
  /** The pause that ends a recording, in ms. */
  silenceMs: number;
}

const num = (v: unknown, d: number) => typeof v === "number" && Number.isFinite(v) ? v : d;

/** The preferences out of a settings object (GET or POST /api/settings's answer). */
export function voicePrefsFrom(s: Record<string, unknown>): VoicePrefs {
  return {
    engine: s.tts_engine === "agent" ? "agent" : "browser",
    voice: typeof s.tts_voice === "string" ? s.tts_voice : "",
    rate: num(s.tts_rate, 1),
    pitch: num(s.tts_pitch, 1),
    autoRead: s.tts_auto_read === true,
    continuous: s.voice_continuous === true,
    silenceMs: num(s.voice_silence_ms, 1800),
  };
}

let cached: Promise<VoicePrefs> | undefined;
let following = false;

/** The current preferences (fetched on first use; a failed fetch is retried next time). */
export function voicePrefs(): Promise<VoicePrefs> {
  if (!following) {
    following = true;
    onHermesEvent("hermes:settings-changed", ({ settings }) => {
      cached = Promise.resolve(voicePrefsFrom(settings));
    });
  }
  cached ??= api<Record<string, unknown>>("GET", "/api/settings").then(voicePrefsFrom);
  cached.catch(() => (cached = undefined));
  return cached;
}
