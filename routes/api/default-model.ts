// POST /api/default-model {model, provider?} → {ok, model, provider, default_model}: sets the
// config file's `model.default` (and `model.provider` when given) through the comment-keeping
// config writer, drops any older override stored in the settings, and reloads the provider
// config. The default model is not a setting (POST /api/settings ignores it). Empty → 400.
import { z } from "zod";
import { isMap, isScalar } from "yaml";
import type { Handlers } from "../../lib/server/file_router.ts";
import { json, readBody } from "../../lib/server/http.ts";
import { editConfig } from "../../lib/settings/config_writer.ts";
import { getSettings, updateSettings } from "../../lib/settings/settings.ts";

const Body = z.object({
  model: z.string().trim().min(1, "must name a model").max(256)
    .refine((v) => !/[\0\r\n]/.test(v), "must be one line"),
  provider: z.string().trim().max(64).regex(/^[A-Za-z0-9._-]*$/).nullable().optional(),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    // A stored override would shadow the file's default.
    await updateSettings(app, { default_model: null });
    await editConfig(app, (doc) => {
      const node = doc.get("model", true);
      if (isMap(node)) {
        node.set("default", body.model);
        if (body.provider) node.set("provider", body.provider);
      } else if (isScalar(node) && !body.provider) {
        node.value = body.model;
      } else {
        doc.set(
          "model",
          doc.createNode(
            body.provider
              ? { provider: body.provider, default: body.model }
              : { default: body.model },
          ),
        );
      }
    });
    return json({
      ok: true,
      model: body.model,
      provider: body.provider ?? null,
      default_model: (await getSettings(app.db, app.config)).default_model,
    });
  },
};
