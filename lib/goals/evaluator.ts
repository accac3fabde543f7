// The goal evaluator: after a turn, the session's model (or the auxiliary model) is asked whether
// the standing goal is met, should continue, or is blocked and needs the user, whether the turn
// made progress, and which subgoals remain. The schema travels in the prompt for every model and,
// on chat-completions endpoints, as `response_format: json_schema` too; the answer is read
// leniently (lib/goals/verdict.ts), because OpenAI-compatible servers differ in what they honour.
// Invariants: it sees the goal and the latest exchange only (bounded text), never tools; an answer
// that names no verdict, or a failed call, is an error the caller counts, never a verdict.
import type { EngineHost } from "../engine/engine_host.ts";
import { createLanguageModel } from "../providers/model_stream.ts";
import { pickEndpoint, resolveProviders } from "../providers/provider_config.ts";
import { contentText, listMessages } from "../sessions/messages.ts";
import { sql } from "../storage/db.ts";
import type { Goal } from "./goal_store.ts";
import { parseVerdict, type Verdict, VERDICT_JSON_SCHEMA } from "./verdict.ts";

export { type Verdict, VerdictSchema } from "./verdict.ts";

/** How much of the latest exchange the evaluator reads. */
const TAIL_CHARS = 12_000;

const SYSTEM = "You judge whether an autonomous coding agent has reached a standing goal. " +
  'verdict: "met" when the goal is fully achieved; "blocked" when the agent cannot go on ' +
  "without the user (missing information, a decision, permissions, or repeated failure); " +
  'otherwise "continue". reason: one or two sentences saying why. progress: whether the latest ' +
  "turn moved toward the goal. subgoals: a short checklist of the goal's parts and whether each " +
  "is done.\n\nAnswer with exactly one JSON object and nothing else, matching this JSON Schema:\n" +
  JSON.stringify(VERDICT_JSON_SCHEMA) +
  '\nFor example: {"verdict":"continue","reason":"The tests do not pass yet.","progress":true,' +
  '"subgoals":[{"title":"write the code","done":true},{"title":"make the tests pass","done":false}]}';

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

/** A request the endpoint refused as malformed: it may not know `response_format: json_schema`. */
function refusedAsMalformed(err: unknown): boolean {
  const status = (err as { statusCode?: unknown })?.statusCode;
  return status === 400 || status === 422;
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
  const prompt =
    `Goal: ${goal.goal}${done}\nTurns used: ${goal.turns_used + 1} of ${goal.max_turns}\n\n` +
    `Latest exchange:\n${await latestExchange(host, sessionId)}`;
  // The AI SDK loads on first use: a console that never sets a goal never pays for it.
  const { jsonSchema, Output, streamText } = await import("ai");
  const languageModel = await createLanguageModel(endpoint, model, opts.fetch);
  const ask = async (structured: boolean) => {
    let failure: unknown;
    const result = streamText({
      model: languageModel,
      system: SYSTEM,
      prompt,
      // Only the request format is taken from `output`; the answer is parsed here, leniently.
      ...(structured
        ? {
          output: Output.object({
            schema: jsonSchema<Verdict>(VERDICT_JSON_SCHEMA),
            name: "goal_verdict",
            description: "The verdict on the standing goal after the latest turn",
          }),
        }
        : {}),
      ...(opts.signal ? { abortSignal: opts.signal } : {}),
      maxRetries: 1,
      onError: ({ error }) => void (failure ??= error),
    });
    let text = "";
    for await (const part of result.fullStream) {
      if (part.type === "text-delta") text += part.text;
      else if (part.type === "error") failure ??= part.error;
    }
    if (failure) throw failure;
    const usage = await result.usage;
    return { text, tokens: (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0) };
  };
  // Anthropic's structured output turns into a tool call: there the schema in the prompt is enough.
  const structured = endpoint.protocol !== "anthropic";
  let answer: { text: string; tokens: number };
  try {
    answer = await ask(structured);
  } catch (err) {
    if (!structured || !refusedAsMalformed(err) || opts.signal?.aborted) throw err;
    answer = await ask(false);
  }
  return { verdict: parseVerdict(answer.text), tokens: answer.tokens };
}

/** `model.auxiliary` (or `auxiliary_model`) in config.yaml: a cheaper model for side work. */
export function auxiliaryModel(file: Record<string, unknown>): string | null {
  const m = file.model && typeof file.model === "object"
    ? file.model as Record<string, unknown>
    : {};
  const v = m.auxiliary ?? file.auxiliary_model;
  return typeof v === "string" && v.trim() ? v.trim() : null;
}
