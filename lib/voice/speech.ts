// POST /api/tts's work: check the text, speak it through the configured provider
// (voice_provider.ts) and make sure what came back is audio (by its bytes, not by the
// provider's word). Invariants: empty text or text over MAX_SPEECH_CHARS is a 400 (the browser
// reads long answers in pieces); an answer that is not audio is a 502, never passed on.
import type { AppContext } from "../server/app_context.ts";
import { ValidationError } from "../errors.ts";
import { type AudioType, sniffAudio } from "./audio_format.ts";
import { garbageAnswer, providerSpeak, voiceSetup } from "./voice_provider.ts";

/** OpenAI's limit for one /audio/speech input. */
export const MAX_SPEECH_CHARS = 4096;

/** Check the text to speak: a 400 naming what is wrong. */
export function speechText(raw: unknown): string {
  if (typeof raw !== "string" || raw.trim() === "") {
    throw new ValidationError('Nothing to read aloud: "text" is empty', "text");
  }
  const text = raw.trim();
  const chars = [...text].length;
  if (chars > MAX_SPEECH_CHARS) {
    throw new ValidationError(
      `The text to read aloud is ${chars} characters; at most ${MAX_SPEECH_CHARS} are read at ` +
        "once, so send it in pieces",
      "text",
    );
  }
  return text;
}

/** Speak `text`: audio bytes and their real type. */
export async function speak(
  app: Pick<AppContext, "clock" | "config" | "db" | "log">,
  text: string,
  signal?: AbortSignal,
): Promise<{ audio: Uint8Array; type: AudioType }> {
  const { audio } = await providerSpeak(app, text, signal);
  const type = sniffAudio(audio);
  if (!type) throw garbageAnswer(await voiceSetup(app, "speech"), "speech");
  return { audio, type };
}
