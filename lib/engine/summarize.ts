// Summaries for context compression, run inside a turn: the model is asked (without tools,
// without streaming tokens to the page) to summarize the turns before the cut; the result is
// stored as the session's compression and `compressing`/`compressed` bracket the work.
import { listMessages, type StoredMessage } from "../sessions/messages.ts";
import { contextWindowFor } from "../models/known_models.ts";
import { estimateTokens } from "./compression.ts";
import { streamModelStepWithRetry } from "../providers/model_stream.ts";
import {
  chunksForSummary,
  type CompressionState,
  getCompression,
  messagesToSummarize,
  planCut,
  saveCompression,
  SUMMARY_SYSTEM_PROMPT,
  summaryRequest,
} from "./compression.ts";
import { retryWarning, type Turn } from "./turn.ts";

/** Stream one model step without showing it (summaries). Returns the text. */
async function collectText(c: Turn, system: string, user: string): Promise<string> {
  let text = "";
  for await (
    const part of streamModelStepWithRetry(
      {
        endpoint: c.endpoint,
        model: c.model,
        system,
        messages: [{ role: "user", content: user }],
        tools: [],
        signal: c.run.signal,
        idleTimeoutMs: c.plan.opts.idleTimeoutMs,
        configPath: c.plan.app.config.configPath,
        fetch: c.plan.opts.fetch,
      },
      c.plan.opts.retry,
      retryWarning(c.run),
    )
  ) {
    if (part.type === "text") text += part.text;
    else if (part.type === "finish") {
      c.meter.endStep(
        c.model,
        part.usage.reported ? part.usage : {
          inputTokens: estimateTokens(system + user),
          outputTokens: estimateTokens(text),
          cachedTokens: 0,
          reported: false,
        },
        c.plan.opts.pricing,
      );
    }
  }
  return text.trim();
}

/**
 * Summarize the turns before the cut and store the summary. Returns the new state, or the
 * current one when there is nothing (new) to compress.
 */
export async function compress(
  c: Turn,
  stored: StoredMessage[],
  current: CompressionState | null,
  keepTurns: number,
  focus?: string,
): Promise<CompressionState | null> {
  const cut = planCut(stored, current, keepTurns);
  if (cut === null) return current;
  const batch = messagesToSummarize(stored, current, cut);
  c.run.emit({
    event: "compressing",
    data: { session_id: c.run.sessionId, message: `Compressing ${batch.length} earlier messages…` },
  });
  const before = c.meter.usage();
  // A history bigger than half the window is summarized in chunks, each request carrying the
  // summary so far (a rolling summary), so the summary request itself never overflows.
  const window = contextWindowFor(c.model, c.plan.opts.contextWindows);
  let summary: string | null = current?.summary ?? null;
  for (const chunk of chunksForSummary(batch, Math.floor(window / 2))) {
    summary = await collectText(c, SUMMARY_SYSTEM_PROMPT, summaryRequest(summary, chunk, focus));
    if (c.run.finished || !summary) break;
  }
  if (c.run.finished) return current;
  if (!summary) {
    c.run.emit({
      event: "warning",
      data: {
        type: "compression_failed",
        message: "The model returned an empty summary; the conversation was not compressed.",
      },
    });
    return current;
  }
  const state = { uptoIdx: cut, summary };
  await saveCompression(c.plan.app.db, c.plan.app.clock, c.run.sessionId, state, stored);
  const after = c.meter.usage();
  c.run.emit({
    event: "compressed",
    data: {
      session_id: c.run.sessionId,
      message: `Context compressed: ${cut} earlier messages are now a summary`,
      usage: {
        input_tokens: after.input_tokens - before.input_tokens,
        output_tokens: after.output_tokens - before.output_tokens,
      },
    },
  });
  return state;
}

/** The whole of a manual compression run (POST /api/session/compress). */
export async function compressOnly(c: Turn): Promise<void> {
  const stored = await listMessages(c.plan.app.db, c.run.sessionId);
  const current = await getCompression(c.plan.app.db, c.run.sessionId, stored);
  const next = await compress(c, stored, current, 1, c.plan.focus);
  if (next === current && !c.run.finished) {
    c.run.emit({
      event: "warning",
      data: { type: "nothing_to_compress", message: "There are no earlier turns to compress yet." },
    });
  }
}
