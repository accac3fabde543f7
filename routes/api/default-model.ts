// POST /api/default-model {model, provider?} → {ok, model, provider, default_model}: sets the
// config file's `model.default` (and `model.provider` when given) through the comment-keeping
// config writer (lib/settings/default_model.ts). The default model is not a setting (POST
// /api/settings ignores it). Empty → 400.
import type { Handlers } from "../../lib/server/file_router.ts";
import { json, readBody } from "../../lib/server/http.ts";
import { defaultModelSchema, setDefaultModel } from "../../lib/settings/default_model.ts";

export const handler: Handlers = {
  async POST(req, { app }) {
    return json(await setDefaultModel(app, await readBody(req, defaultModelSchema)));
  },
};
