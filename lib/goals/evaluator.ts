// The goal evaluator: after a turn, the session's model (or the auxiliary model) is asked, with
// structured output through the AI SDK (streamObject + a zod schema), whether the standing goal
// is met, should continue, or is blocked and needs the user, whether the turn made progress, and
// which subgoals remain. Invariants: it sees the goal and the latest exchange only (bounded
// text), never tools; a malformed or failed answer is an error the caller counts, never a verdict.
import { z } from "zod";
import type { EngineHost } from "../engine/engine_host.ts";
import { createLanguageModel } from "../providers/model_stream.ts";
import { pickEndpoint, resolveProviders } from "../providers/provider_config.ts";
import { contentText, listMessages } from "../sessions/messages.ts";
import { sql } from "../storage/db.ts";
import type { Goal } from "./goal_store.ts";

export const VerdictSchema = z.object({
  verdict: z.enum(["met", "continue", "blocked"]),
  reason: z.string().max(2000),
  progress: z.boolean(),
  subgoals: z.array(z.object({ title: z.string().max(200), done: z.boolean() })).max(12),
});

export type Verdict = z.infer<typeof VerdictSchema>;

/** How much of the latest exchange the evaluator reads. */
const TAIL_CHARS = 12_000;

const SYSTEM =
  "You judge whether an autonomous coding agent has reached a standing goal. Answer only with " +
  'the JSON object asked for. verdict: "met" when the goal is fully achieved; "blocked" when ' +
  "the agent cannot go on without the user (missing information, a decision, permissions, or " +
  'repeated failure); otherwise "continue". progress: whether the latest turn moved toward the ' +
  "goal. subgoals: a short checklist of the goal's parts and whether each is done.";

/** The session's last user message and everything after it, as plain text, bounded. */
export async function latestExchange(host: EngineHost, sessionId: string): Promise<string> {
  const msgs = await listMessages(host.db, sessionId);
  let from = msgs.length - 1;
  while (from > 0 && msgs[from].role !== "user") from--;
  const text = msgs.slice(Math.max(0, from)).map((m) => {
    const body = contentText(m.content);
    const calls = m.tool_calls?.length
      ? `\n[called ${m.tool_calls.map((c) => c.function.name).join(", ")}]`
      : "";
    return `${m.role.toUpperCase()}: ${body}${calls}`;
  }).join("\n\n");
  return text.length > TAIL_CHARS ? "[…]\n" + text.slice(-TAIL_CHARS) : text;
}

export interface EvaluateOptions {
  fetch?: typeof fetch;
  signal?: AbortSignal;
}

/** Ask the model for a verdict on `goal` after the latest turn of `sessionId`. */
export async function evaluateGoal(
  host: EngineHost,
  sessionId: string,
  goal: Goal,
  opts: EvaluateOptions = {},
): Promise<{ verdict: Verdict; tokens: number }> {
  const session = await host.db.get<{ model: string | null; model_provider: string | null }>(
    sql`SELECT model, model_provider FROM sessions WHERE session_id = ${sessionId}`,
  );
  const resolved = resolveProviders(host.config, host.log);
  const endpoint = pickEndpoint(resolved, session?.model_provider);
  const aux = auxiliaryModel(host.config.file);
  const model = aux ?? session?.model ?? resolved.defaultModel ?? endpoint?.models[0];
  if (!endpoint || !model) throw new Error("no model is configured to evaluate the goal");
  const done = goal.subgoals.length
    ? `\nSubgoals so far:\n${
      goal.subgoals.map((s) => `- [${s.done ? "x" : " "}] ${s.title}`).join("\n")
    }`
    : "";
  // The AI SDK loads on first use: a console that never sets a goal never pays for it.
  const { streamObject } = await import("ai");
  const result = streamObject({
    model: await createLanguageModel(endpoint, model, opts.fetch),
    schema: VerdictSchema,
    system: SYSTEM,
    prompt:
      `Goal: ${goal.goal}${done}\nTurns used: ${goal.turns_used + 1} of ${goal.max_turns}\n\n` +
      `Latest exchange:\n${await latestExchange(host, sessionId)}`,
    ...(opts.signal ? { abortSignal: opts.signal } : {}),
    maxRetries: 1,
  });
  // The stream must be read for its promises to settle.
  for await (const _ of result.partialObjectStream) { /* the final object is what counts */ }
  const verdict = VerdictSchema.parse(await result.object);
  const usage = await result.usage;
  return { verdict, tokens: (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0) };
}

/** `model.auxiliary` (or `auxiliary_model`) in config.yaml: a cheaper model for side work. */
export function auxiliaryModel(file: Record<string, unknown>): string | null {
  const m = file.model && typeof file.model === "object"
    ? file.model as Record<string, unknown>
    : {};
  const v = m.auxiliary ?? file.auxiliary_model;
  return typeof v === "string" && v.trim() ? v.trim() : null;
}
