// Browser-safe: imports nothing from Deno or the database.
// A turn's Activity in the order it happened: think → tool → think → tool, with the interim
// narration between tool calls ("Found it. Patching.") kept in its place as a quiet note.
// Invariants: narration moves into the Activity only when the turn has a final answer (prose
// after its last tool call); until then it stays visible as prose. Live and stored turns give
// the same steps because both folds record `order` the same way.
import type { Segment, TurnModel } from "./transcript_turns.ts";

/** One row of the Activity body: references into the turn (props stay small). */
export type ActivityStep =
  | { kind: "thinking"; i: number }
  | { kind: "tool"; id: string }
  | { kind: "note"; key: string; text: string; html?: string };

export interface OrderedTurn {
  /** The Activity rows in order. */
  steps: ActivityStep[];
  /** The prose shown outside the Activity: the answer (and narration while there is none). */
  answer: Segment[];
}

/** Split a turn into its ordered Activity steps and the prose shown as the answer. */
export function orderTurn(
  turn: Pick<TurnModel, "order" | "thinking" | "tools" | "segments">,
): OrderedTurn {
  const order = turn.order ?? [];
  if (order.length === 0) {
    return {
      steps: [
        ...turn.thinking.map((_, i) => ({ kind: "thinking" as const, i })),
        ...turn.tools.map((t) => ({ kind: "tool" as const, id: t.id })),
      ],
      answer: turn.segments,
    };
  }
  let lastTool = -1;
  order.forEach((o, i) => {
    if (o.kind === "tool") lastTool = i;
  });
  const hasAnswer = lastTool >= 0 && order.slice(lastTool + 1).some((o) => o.kind === "text");
  const byKey = new Map(turn.segments.map((s) => [s.key, s]));
  const steps: ActivityStep[] = [];
  const notes = new Set<string>();
  order.forEach((o, i) => {
    if (o.kind === "thinking") steps.push(o);
    else if (o.kind === "tool") steps.push(o);
    else if (hasAnswer && i < lastTool) {
      const seg = byKey.get(o.key);
      if (!seg || !seg.text.trim()) return;
      notes.add(o.key);
      steps.push({
        kind: "note",
        key: o.key,
        text: seg.text,
        ...(seg.html ? { html: seg.html } : {}),
      });
    }
  });
  return { steps, answer: turn.segments.filter((s) => !notes.has(s.key)) };
}
