// The evaluator's verdict: its shape, the JSON Schema sent to the model, and the lenient reading
// of what a real model answers (a bare object, an object inside prose or a code fence, or only a
// verdict word). Invariants: whatever is read comes out as a valid `Verdict` with bounded text,
// and an answer that names no verdict is an error, never a guess.
import { z } from "zod";

export const VERDICTS = ["met", "continue", "blocked"] as const;

export const VerdictSchema = z.object({
  verdict: z.enum(VERDICTS),
  reason: z.string().max(2000),
  progress: z.boolean(),
  subgoals: z.array(z.object({ title: z.string().max(200), done: z.boolean() })).max(12),
});

export type Verdict = z.infer<typeof VerdictSchema>;

/**
 * The schema as the model is asked for it. Written out rather than derived from the zod schema:
 * strict structured-output modes refuse length bounds, and every field must be required.
 */
export const VERDICT_JSON_SCHEMA = {
  type: "object",
  properties: {
    verdict: { type: "string", enum: [...VERDICTS] },
    reason: { type: "string" },
    progress: { type: "boolean" },
    subgoals: {
      type: "array",
      items: {
        type: "object",
        properties: { title: { type: "string" }, done: { type: "boolean" } },
        required: ["title", "done"],
        additionalProperties: false,
      },
    },
  },
  required: ["verdict", "reason", "progress", "subgoals"],
  additionalProperties: false,
} as const;

/** Words models use for each verdict, beyond the three asked for. */
const SYNONYMS: Record<string, Verdict["verdict"]> = {
  met: "met",
  done: "met",
  achieved: "met",
  complete: "met",
  completed: "met",
  success: "met",
  continue: "continue",
  continuing: "continue",
  "in progress": "continue",
  in_progress: "continue",
  "in-progress": "continue",
  ongoing: "continue",
  "not met": "continue",
  not_met: "continue",
  incomplete: "continue",
  blocked: "blocked",
  stuck: "blocked",
  needs_user: "blocked",
  "needs user": "blocked",
};

function verdictWord(value: unknown): Verdict["verdict"] | null {
  if (typeof value !== "string") return null;
  const key = value.trim().toLowerCase().replace(/[.!"'`*]+$/g, "").replace(/^["'`*]+/, "");
  return SYNONYMS[key] ?? null;
}

/** Every balanced `{…}` span in `text` (string-aware), outermost first, in order. */
function objectSpans(text: string): string[] {
  const spans: string[] = [];
  for (let start = text.indexOf("{"); start >= 0; start = text.indexOf("{", start + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === "\\") i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === "{") depth++;
      else if (c === "}" && --depth === 0) {
        spans.push(text.slice(start, i + 1));
        break;
      }
    }
  }
  return spans;
}

/** The first JSON object in `text` that carries a verdict (code fences count as text). */
function findVerdictObject(text: string): Record<string, unknown> | null {
  for (const span of objectSpans(text)) {
    try {
      const value = JSON.parse(span);
      if (value && typeof value === "object" && !Array.isArray(value) && "verdict" in value) {
        return value as Record<string, unknown>;
      }
    } catch { /* not JSON: try the next span */ }
  }
  return null;
}

function asBoolean(value: unknown): boolean | null {
  if (typeof value === "boolean") return value;
  if (typeof value === "string") {
    const v = value.trim().toLowerCase();
    if (["true", "yes"].includes(v)) return true;
    if (["false", "no"].includes(v)) return false;
  }
  return null;
}

function asSubgoals(value: unknown): Verdict["subgoals"] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((s) => {
    if (typeof s === "string" && s.trim()) return [{ title: s.trim(), done: false }];
    if (!s || typeof s !== "object") return [];
    const o = s as Record<string, unknown>;
    const title = String(o.title ?? o.name ?? o.task ?? "").trim();
    return title ? [{ title: title.slice(0, 200), done: asBoolean(o.done) ?? false }] : [];
  }).slice(0, 12);
}

/** A verdict named in prose: "Verdict: continue", or a lone verdict word, never "not met". */
function verdictInProse(text: string): Verdict["verdict"] | null {
  const labelled = /\bverdict\b[\s"'`*:=\-]*([a-z_-]+(?: [a-z]+)?)/i.exec(text);
  if (labelled) {
    const word = verdictWord(labelled[1]) ?? verdictWord(labelled[1].split(" ")[0]);
    if (word) return word;
  }
  const found = new Set<Verdict["verdict"]>();
  const unnegated = text.replace(/\bnot (?:yet )?(?:met|done|achieved|complete(?:d)?)\b/gi, " ");
  if (unnegated !== text) found.add("continue");
  for (const m of unnegated.matchAll(/\b(met|continue|blocked|achieved)\b/gi)) {
    found.add(verdictWord(m[1])!);
  }
  return found.size === 1 ? [...found][0] : null;
}

/** The model's answer as a `Verdict`; throws when it names no verdict. */
export function parseVerdict(answer: string): Verdict {
  const text = answer.trim();
  const obj = findVerdictObject(text);
  if (obj) {
    const verdict = verdictWord(obj.verdict);
    if (verdict) {
      const reason = typeof obj.reason === "string" && obj.reason.trim()
        ? obj.reason.trim()
        : `the evaluator answered "${verdict}"`;
      return VerdictSchema.parse({
        verdict,
        reason: reason.slice(0, 2000),
        // An answer that omits it is not a stall: only an explicit "no progress" counts.
        progress: asBoolean(obj.progress) ?? true,
        subgoals: asSubgoals(obj.subgoals),
      });
    }
  }
  const verdict = verdictInProse(text);
  if (!verdict) {
    throw new Error(
      `the evaluator's answer names no verdict: ${JSON.stringify(text.slice(0, 200))}`,
    );
  }
  return {
    verdict,
    reason: text.replace(/\s+/g, " ").slice(0, 2000),
    progress: true,
    subgoals: [],
  };
}
