// GET /api/transcribe/capability → {ok: true, available, provider, model?, reason?}: the cheap
// probe the original's page makes before offering server transcription (POST /api/transcribe).
// It asks the same question that route asks before it sends audio (lib/voice voiceSetup), and
// sends nothing anywhere: available is true exactly when a recording would reach a provider.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json } from "../../../lib/server/http.ts";
import { voiceSetup } from "../../../lib/voice/voice_provider.ts";
import { ConflictError } from "../../../lib/errors.ts";

export const handler: Handlers = {
  async GET(_req, { app }) {
    try {
      const setup = await voiceSetup(app, "transcription");
      return json({
        ok: true,
        available: true,
        provider: setup.endpoint.id,
        model: setup.model,
      });
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err;
      return json({ ok: true, available: false, provider: "none", reason: err.message });
    }
  },
};
