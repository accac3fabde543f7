// The Activity body in the order the turn happened (lib/shared/transcript_order.ts): thinking
// blocks, tool cards and the quiet interim narration between them. Rendered inside the
// ActivityGroup island, so its props are plain data.
import type { ActivityStep } from "../lib/shared/transcript_order.ts";
import type { ToolView } from "../lib/shared/transcript_turns.ts";
import { ToolCard } from "./ToolCard.tsx";
import { t } from "../lib/i18n/t.ts";

export interface ActivityStepsProps {
  sessionId: string;
  steps: ActivityStep[];
  thinking: string[];
  tools: ToolView[];
}

export function ActivitySteps({ sessionId, steps, thinking, tools }: ActivityStepsProps) {
  const byId = new Map(tools.map((x) => [x.id, x]));
  return (
    <>
      {steps.map((s) => {
        if (s.kind === "thinking") {
          return thinking[s.i] === undefined
            ? null
            : (
              <div class="activity-thinking" key={`r${s.i}`}>
                <span class="activity-kicker">{t("activity.thinking")}</span>
                <p dir="auto">{thinking[s.i]}</p>
              </div>
            );
        }
        if (s.kind === "tool") {
          const tool = byId.get(s.id);
          return tool ? <ToolCard key={tool.id} tool={tool} sessionId={sessionId} /> : null;
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
