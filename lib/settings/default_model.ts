// The default model as config.yaml keeps it (`model.default`, and `model.provider` when one is
// named): written by POST /api/default-model and by the original's POST /api/model/set
// {scope: "main"}. Invariants: written through the comment-keeping config writer (other keys,
// comments and `${ENV}` strings survive); an older override stored in the settings is dropped
// first, so the file's value is the one that counts; the provider config is reloaded after.
import { isMap, isScalar } from "yaml";
import { z } from "zod";
import { type ConfigHost, editConfig } from "./config_writer.ts";
import { getSettings, type SettingsDeps, updateSettings } from "./settings.ts";

export const defaultModelSchema = z.object({
  model: z.string().trim().min(1, "must name a model").max(256)
    .refine((v) => !/[\0\r\n]/.test(v), "must be one line"),
  provider: z.string().trim().max(64).regex(/^[A-Za-z0-9._-]*$/).nullable().optional(),
});

export type DefaultModelInput = z.infer<typeof defaultModelSchema>;

/** Write the default model (and provider) to config.yaml; answers what the console now uses. */
export async function setDefaultModel(
  app: SettingsDeps & ConfigHost,
  input: DefaultModelInput,
): Promise<{ ok: true; model: string; provider: string | null; default_model: string | null }> {
  // "auto" is the original's word for "no provider pinned".
  const provider = input.provider && input.provider.toLowerCase() !== "auto"
    ? input.provider
    : null;
  // A stored override would shadow the file's default.
  await updateSettings(app, { default_model: null });
  await editConfig(app, (doc) => {
    const node = doc.get("model", true);
    if (isMap(node)) {
      node.set("default", input.model);
      if (provider) node.set("provider", provider);
    } else if (isScalar(node) && !provider) {
      node.value = input.model;
    } else {
      doc.set(
        "model",
        doc.createNode(provider ? { provider, default: input.model } : { default: input.model }),
      );
    }
  });
  return {
    ok: true,
    model: input.model,
    provider,
    default_model: (await getSettings(app.db, app.config)).default_model,
  };
}
