// The Activity body in the order the turn happened (lib/shared/transcript_order.ts): thinking
// blocks, tool cards and the quiet interim narration between them. Rendered inside the
// ActivityGroup island, so its props are plain data.
import type { ActivityStep } from "../lib/shared/transcript_order.ts";
import type { ToolView } from "../lib/shared/transcript_turns.ts";
import { ToolCard } from "./ToolCard.tsx";

export interface ActivityStepsProps {
  sessionId: string;
  steps: ActivityStep[];
  thinking: string[];
  tools: ToolView[];
}

export function ActivitySteps({ sessionId, steps, thinking, tools }: ActivityStepsProps) {
  const byId = new Map(tools.map((t) => [t.id, t]));
  return (
    <>
      {steps.map((s) => {
        if (s.kind === "thinking") {
          return thinking[s.i] === undefined
            ? null
            : (
              <div class="activity-thinking" key={`r${s.i}`}>
                <span class="activity-kicker">Thinking</span>
                <p>{thinking[s.i]}</p>
              </div>
            );
        }
        if (s.kind === "tool") {
          const t = byId.get(s.id);
          return t ? <ToolCard key={t.id} tool={t} sessionId={sessionId} /> : null;
        }
        return s.html
          ? (
            <div
              class="activity-note prose"
              key={`n${s.key}`}
              // deno-lint-ignore react-no-danger
              dangerouslySetInnerHTML={{ __html: s.html }}
            />
          )
          : <p class="activity-note" key={`n${s.key}`}>{s.text}</p>;
      })}
    </>
  );
}
