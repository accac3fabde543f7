// POST /api/model/set {scope, model, provider?, task?}: the original's one route for both model
// choices. scope "main" → the default model (as POST /api/default-model: {ok, model, provider,
// default_model}); scope "auxiliary" → the model for side tasks (as POST /api/model/auxiliary:
// {ok, main, auxiliary, effective_model, tasks}; an empty model clears it; one model serves every
// task, so `task` must be one of them or absent). Any other scope is a 400.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readJsonObject, validate } from "../../../lib/server/http.ts";
import { defaultModelSchema, setDefaultModel } from "../../../lib/settings/default_model.ts";
import {
  AUXILIARY_TASKS,
  auxiliaryBodySchema,
  auxiliaryStatus,
  setAuxiliaryModel,
} from "../../../lib/providers/model_settings.ts";
import { ValidationError } from "../../../lib/errors.ts";

const Scope = z.object({ scope: z.string().max(40).optional() });
const AuxiliaryBody = z.object({
  task: z.string().trim().max(40).optional(),
  model: z.string().max(200).nullable().optional(),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readJsonObject(req, 64 * 1024);
    const scope = String(validate(Scope, body).scope ?? "").trim();
    if (scope === "main") {
      const { model, provider } = validate(defaultModelSchema, body);
      return json(await setDefaultModel(app, { model, provider }));
    }
    if (scope === "auxiliary") {
      const { task, model } = validate(AuxiliaryBody, body);
      if (task && !(AUXILIARY_TASKS as readonly string[]).includes(task)) {
        throw new ValidationError(
          `Invalid field "task": "${task}" is not one of ${AUXILIARY_TASKS.join(", ")}`,
          "task",
        );
      }
      const wanted = validate(auxiliaryBodySchema, { model: model?.trim() ? model : null });
      await setAuxiliaryModel(app, wanted.model);
      return json({ ok: true, ...auxiliaryStatus(app.config) });
    }
    throw new ValidationError(
      `Invalid field "scope": ${scope ? `unknown scope "${scope}"` : "required"}; ` +
        `use "main" or "auxiliary"`,
      "scope",
    );
  },
};
