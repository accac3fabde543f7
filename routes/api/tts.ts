// POST /api/tts {text, engine?: "agent"} → the spoken text as raw audio (Content-Type audio/mpeg,
// audio/wav, audio/ogg…; Content-Length; no-store, nosniff) — the original's shape (api/routes.py
// _handle_tts: the server engine is "agent"; "browser" speaks in the page). The text goes to the
// configured provider's speech model (lib/voice). Errors are {error}: 400 empty or over 4,096
// characters or another engine, 415 not JSON, 429 too many, 502 the provider failed or answered
// something that is not audio, 409 no usable provider or model (code voice_not_configured), 504 the provider did not answer.
import type { Handlers } from "../../lib/server/file_router.ts";
import { UnsupportedMediaTypeError, ValidationError } from "../../lib/errors.ts";
import { readJsonObject } from "../../lib/server/http.ts";
import { speak, speechText } from "../../lib/voice/speech.ts";
import { checkVoiceRate, voiceSetup } from "../../lib/voice/voice_provider.ts";

/** A spoken answer is a few kilobytes of JSON text at most. */
const MAX_BODY_BYTES = 64 * 1024;

export const handler: Handlers = {
  async POST(req, { app, remoteAddr }) {
    if (!/^application\/json\b/i.test(req.headers.get("content-type") ?? "")) {
      throw new UnsupportedMediaTypeError('Send {"text": "…"} as application/json');
    }
    await checkVoiceRate(app, "speech", remoteAddr);
    const body = await readJsonObject(req, MAX_BODY_BYTES);
    if (body.engine !== undefined && body.engine !== "agent") {
      throw new ValidationError(
        `Engine "${String(body.engine)}" does not speak on the server: only "agent" does ` +
          '("browser" speaks in the page)',
        "engine",
      );
    }
    const text = speechText(body.text);
    await voiceSetup(app, "speech");
    const { audio, type } = await speak(app, text, req.signal);
    return new Response(audio as Uint8Array<ArrayBuffer>, {
      status: 200,
      headers: {
        "content-type": type,
        "content-length": String(audio.byteLength),
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  },
};
