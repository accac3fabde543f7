// GET /api/model/auxiliary → {main:{provider, model}, auxiliary:{model, source}|null,
// effective_model, tasks}. POST {model: "<id>"|null} → the same, after writing (or clearing)
// `model.auxiliary` in config.yaml: the model for titles, goals, compression, side questions.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import {
  auxiliaryBodySchema,
  auxiliaryStatus,
  setAuxiliaryModel,
} from "../../../lib/providers/model_settings.ts";

export const handler: Handlers = {
  GET(_req, { app }) {
    return json(auxiliaryStatus(app.config));
  },
  async POST(req, { app }) {
    const { model } = await readBody(req, auxiliaryBodySchema);
    await setAuxiliaryModel(app, model);
    return json({ ok: true, ...auxiliaryStatus(app.config) });
  },
};
