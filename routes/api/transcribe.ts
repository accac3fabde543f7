// POST /api/transcribe (multipart: `file` = the recording, optional `language` = "de", "en-US"…)
// → {ok: true, transcript} — the original's shape (api/upload.py handle_transcribe). The audio
// goes to the configured provider's transcription model (lib/voice). Errors are {error}: 400 no
// or empty file, 413 over 25 MB, 415 not multipart or not audio, 429 too many, 502 the provider
// failed or answered garbage, 409 no usable provider or model (code voice_not_configured), 504 the provider did not answer.
import type { Handlers } from "../../lib/server/file_router.ts";
import { json } from "../../lib/server/http.ts";
import { readAudioUpload } from "../../lib/voice/transcription.ts";
import { checkVoiceRate, providerTranscribe, voiceSetup } from "../../lib/voice/voice_provider.ts";

export const handler: Handlers = {
  async POST(req, { app, remoteAddr }) {
    await checkVoiceRate(app, "transcription", remoteAddr);
    // Bad input is the sender's fault whatever the setup: check the upload (capped) first, then
    // say (409) when no provider can transcribe it.
    const upload = await readAudioUpload(req);
    await voiceSetup(app, "transcription");
    const transcript = await providerTranscribe(app, upload.audio, upload.language, req.signal);
    return json({ ok: true, transcript });
  },
};
