// GET /api/reasoning → {reasoning_effort (null: the provider's default), supported_efforts,
// supports_reasoning_effort}. POST {effort: "low"|…|null} → the same, after writing
// `agent.reasoning_effort` in config.yaml (null, "" or "default" clears it). The next run reads it.
import type { Handlers } from "../../lib/server/file_router.ts";
import { json, readBody } from "../../lib/server/http.ts";
import {
  reasoningBodySchema,
  reasoningStatus,
  setReasoningEffort,
} from "../../lib/providers/model_settings.ts";

export const handler: Handlers = {
  GET(_req, { app }) {
    return json(reasoningStatus(app.config));
  },
  async POST(req, { app }) {
    const { effort } = await readBody(req, reasoningBodySchema);
    await setReasoningEffort(app, effort);
    return json({ ok: true, ...reasoningStatus(app.config) });
  },
};
