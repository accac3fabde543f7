// Two model choices kept in config.yaml beside the default model: the auxiliary model
// (`model.auxiliary`, read by lib/goals/evaluator.ts; used for titles, goals, compression and
// side questions) and the reasoning effort (`agent.reasoning_effort`, read by
// lib/engine/engine_options.ts). Invariants: written through the comment-keeping writer under
// the keys their readers use; clearing removes the legacy spelling too so it cannot win back.
import { type Document, isMap, isScalar } from "yaml";
import { z } from "zod";
import { type ConfigHost, detachAliases, editConfig } from "../settings/config_writer.ts";
import { ValidationError } from "../errors.ts";
import { auxiliaryModel } from "../goals/evaluator.ts";
import { reasoningEffort } from "../engine/engine_options.ts";
import { REASONING_EFFORTS } from "./model_stream.ts";
import { resolveProviders } from "./provider_config.ts";
import type { AppConfig } from "../settings/config.ts";

/** The side tasks the auxiliary model runs (shown by the picker; one model serves them all). */
export const AUXILIARY_TASKS = ["title", "goal", "compression", "side_question"] as const;

/** A model id: one line of text without control characters. */
const modelId = z.string().trim().min(1).max(200).refine(
  (s) => ![...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f),
  "a model id is one line of text",
);

export const auxiliaryBodySchema = z.strictObject({ model: modelId.nullable() });
export const reasoningBodySchema = z.strictObject({
  effort: z.string().trim().toLowerCase().max(40).nullable(),
});

type Obj = Record<string, unknown>;
const asObj = (
  v: unknown,
): Obj => (v && typeof v === "object" && !Array.isArray(v) ? v as Obj : {});

/** `GET /api/model/auxiliary`: the main model and the auxiliary one (null: the main is used). */
export function auxiliaryStatus(config: AppConfig) {
  const resolved = resolveProviders(config);
  const aux = auxiliaryModel(config.file);
  const m = asObj(config.file.model);
  return {
    main: { provider: resolved.activeProviderId, model: resolved.defaultModel },
    auxiliary: aux
      ? {
        model: aux,
        source: typeof m.auxiliary === "string" ? "model.auxiliary" : "auxiliary_model",
      }
      : null,
    effective_model: aux ?? resolved.defaultModel,
    tasks: [...AUXILIARY_TASKS],
  };
}

/** Make `model` a mapping (a bare `model: <id>` becomes `{default: <id>}`). */
function ensureModelMap(doc: Document, path: string): void {
  const node = doc.get("model", true);
  if (node === undefined || node === null || (isScalar(node) && node.value === null)) {
    doc.set("model", doc.createNode({}));
  } else if (isScalar(node) && typeof node.value === "string") {
    doc.set("model", doc.createNode({ default: node.value }));
  } else if (!isMap(node)) {
    throw new ValidationError(`"model" in ${path} must be a mapping; it was not changed`);
  }
  detachAliases(doc, ["model"]);
}

/** Set (or, with null, clear) the auxiliary model. */
export async function setAuxiliaryModel(host: ConfigHost, model: string | null): Promise<void> {
  await editConfig(host, (doc) => {
    if (model === null) {
      if (isMap(doc.get("model", true))) doc.deleteIn(["model", "auxiliary"]);
      doc.delete("auxiliary_model");
      return;
    }
    ensureModelMap(doc, host.config.configPath);
    doc.setIn(["model", "auxiliary"], model);
    doc.delete("auxiliary_model");
  });
}

/** `GET /api/reasoning`: the configured effort (null: the provider's default) and the choices. */
export function reasoningStatus(config: AppConfig) {
  const agent = asObj(config.file.agent);
  const effort = reasoningEffort(
    agent.reasoning_effort ?? asObj(config.file.model).reasoning_effort,
  );
  return {
    reasoning_effort: effort ?? null,
    supported_efforts: [...REASONING_EFFORTS],
    supports_reasoning_effort: true,
  };
}

/** Set the effort (`agent.reasoning_effort`); null, "" or "default" clears it. */
export async function setReasoningEffort(host: ConfigHost, effort: string | null): Promise<void> {
  const clear = effort === null || effort === "" || effort === "default";
  if (!clear && reasoningEffort(effort) === undefined) {
    throw new ValidationError(
      `Invalid field "effort": "${effort}" is not one of ${REASONING_EFFORTS.join(", ")} (or null)`,
      "effort",
    );
  }
  await editConfig(host, (doc) => {
    if (isMap(doc.get("model", true))) doc.deleteIn(["model", "reasoning_effort"]);
    if (clear) {
      if (isMap(doc.get("agent", true))) doc.deleteIn(["agent", "reasoning_effort"]);
      return;
    }
    const agent = doc.get("agent", true);
    if (agent === undefined || agent === null || (isScalar(agent) && agent.value === null)) {
      doc.set("agent", doc.createNode({}));
    } else if (!isMap(agent)) {
      throw new ValidationError(
        `"agent" in ${host.config.configPath} must be a mapping; it was not changed`,
      );
    }
    detachAliases(doc, ["agent"]);
    doc.setIn(["agent", "reasoning_effort"], effort);
  });
}
