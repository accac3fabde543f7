// One assistant turn's internals (thinking, plan, tool calls) behind a single quiet disclosure,
// collapsed by default, in history and during live runs alike. The open/closed choice is kept
// per chat and per turn in localStorage and read as the island hydrates, so switching chats or
// reloading shows each turn the way it was left. Failures and approvals are never only in
// here: the turn repeats them outside (components/TurnView.tsx).
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { activitySummary, type TodoItem, type ToolView } from "../lib/shared/transcript_model.ts";
import { ToolCard } from "../components/ToolCard.tsx";
import { ActivitySteps } from "../components/ActivitySteps.tsx";
import { liveStatus } from "../lib/shared/live_status.ts";
import { FilesChanged } from "../components/transcript/FilesChanged.tsx";
import type { ActivityStep } from "../lib/shared/transcript_order.ts";
import { RollbackButton } from "../components/RollbackButton.tsx";
import { offersTurnRollback } from "../lib/shared/turn_rollback.ts";
import { t } from "../lib/i18n/t.ts";
import { onHermesEvent } from "../lib/shared/ui_events.ts";
import { type IslandDisplay, islandDisplay } from "../lib/browser/transcript_display.ts";

export interface ActivityGroupProps {
  sessionId: string;
  /** Stable key of the turn within the chat (its turn id, else its user message idx). */
  turnKey: string;
  thinking: string[];
  tools: ToolView[];
  todos?: TodoItem[] | null;
  /** The run is still going (a quiet spinner on the summary). */
  live?: boolean;
  /** Thinking, tools and interim narration in the order they happened (else grouped). */
  steps?: ActivityStep[];
  /** The turn's checkpoints recorded file changes (unknown when absent: lib/shared/turn_rollback.ts). */
  changedFiles?: boolean;
}

/** Storage key of one turn's disclosure state. */
export function activityStorageKey(sessionId: string, turnKey: string): string {
  return `hermes:activity:${sessionId}:${turnKey}`;
}

/**
 * Whether the user left this turn's activity open: `byDefault` unless they chose otherwise
 * (and it, too, when storage is unavailable).
 */
export function readActivityOpen(sessionId: string, turnKey: string, byDefault = false): boolean {
  try {
    const v = globalThis.localStorage?.getItem(activityStorageKey(sessionId, turnKey));
    return v === "open" ? true : v === "closed" ? false : byDefault;
  } catch {
    return byDefault;
  }
}

/** Keep only a choice that differs from the default: back at the default, the turn is forgotten. */
function writeOpen(key: string, open: boolean, byDefault: boolean): void {
  try {
    if (open === byDefault) globalThis.localStorage?.removeItem(key);
    else globalThis.localStorage?.setItem(key, open ? "open" : "closed");
  } catch { /* storage disabled or full: the choice lasts for this page only */ }
}

/** What the server renders with (it does not know the page's preferences). */
const SERVER_DISPLAY: IslandDisplay = {
  activityMode: "compact_worklog",
  expandedTools: false,
  terminalAutoExpand: false,
};

/** A terminal call whose output arrived: it opens with its card when the setting asks. */
const terminalOutput = (tools: ToolView[]) =>
  tools.some((x) => x.name === "terminal" && x.result !== null);

const TODO_MARK: Record<string, string> = {
  completed: "✓",
  in_progress: "›",
  cancelled: "–",
  pending: "·",
};

export default function ActivityGroup(
  { sessionId, turnKey, thinking, tools, todos = null, live = false, steps, changedFiles }:
    ActivityGroupProps,
) {
  const key = activityStorageKey(sessionId, turnKey);
  // Rolled back here: nothing is left to roll back (as a reload reads the checkpoints).
  const [rolledBack, setRolledBack] = useState(false);
  useEffect(() =>
    onHermesEvent("hermes:turn-rolled-back", (d) => {
      if (d.session_id === sessionId && d.turn_id === turnKey) setRolledBack(true);
    }), []);
  // Hydration keeps the server's attributes: the preferences apply from the render after it.
  const [hydrated, setHydrated] = useState(false);
  useLayoutEffect(() => setHydrated(true), []);
  const painted = islandDisplay.value;
  const display = hydrated ? painted : SERVER_DISPLAY;
  // The Compact tool activity switch off (`simplified_tool_calling`): every turn starts open.
  const byDefault = display.expandedTools;
  const [choice, setChoice] = useState<boolean | null>(null);
  // Before the browser paints the hydrated island: open what the user left open.
  useLayoutEffect(() => {
    setChoice(readActivityOpen(sessionId, turnKey, byDefault));
  }, [key, byDefault]);
  // Terminal output that arrives while this turn runs opens it, once (the setting's promise).
  const hadOutput = useRef(terminalOutput(tools));
  useEffect(() => {
    if (hadOutput.current || !terminalOutput(tools)) return;
    hadOutput.current = true;
    if (display.terminalAutoExpand) setChoice(true);
  });
  // Transparent stream shows every step in the flow: the disclosure is always open.
  const transparent = display.activityMode === "transparent_stream";
  const open = transparent || (choice ?? byDefault);

  const toggle = (now: boolean) => {
    setChoice(now);
    writeOpen(key, now, byDefault);
  };

  // The "files changed" note sits beside the row, not in <summary>: a button may not be nested
  // in another control (axe nested-interactive).
  return (
    <div class="activity-row">
      <details
        class="activity"
        open={open}
        data-turn={turnKey}
        data-mode={transparent ? "transparent" : undefined}
        data-live={live ? "" : undefined}
        onToggle={(e) => {
          // Opened by the browser itself (find in page): keep state and storage in step.
          const now = e.currentTarget.open;
          if (now !== open && !transparent) toggle(now);
        }}
      >
        <summary
          onClick={(e) => {
            // Toggle through state and remember the choice at once (the native toggle event
            // comes a task later, after a quick reload could already have dropped it).
            e.preventDefault();
            if (!transparent) toggle(!open);
          }}
        >
          <span class="activity-label">{activitySummary(thinking.length > 0, tools.length)}</span>
          {live ? <span class="activity-status">{liveStatus(tools, live)}</span> : null}
          {live ? <span class="spinner" aria-label={t("activity.running")} /> : null}
        </summary>
        <div class="activity-body">
          {steps ? null : thinking.map((text, i) => (
            <div class="activity-thinking" key={`r${i}`}>
              <span class="activity-kicker">{t("activity.thinking")}</span>
              <p>{text}</p>
            </div>
          ))}
          {todos?.length
            ? (
              <ol class="plan" aria-label={t("activity.plan")}>
                {todos.map((todo) => (
                  <li key={todo.id} data-status={todo.status}>
                    <span class="plan-mark" aria-hidden="true">
                      {TODO_MARK[todo.status] ?? "·"}
                    </span>
                    <span class="plan-text">{todo.content}</span>
                  </li>
                ))}
              </ol>
            )
            : null}
          {steps
            ? (
              <ActivitySteps
                sessionId={sessionId}
                steps={steps}
                thinking={thinking}
                tools={tools}
              />
            )
            : tools.map((x) => <ToolCard key={x.id} tool={x} sessionId={sessionId} />)}
          {!live && !rolledBack && !/^[ir]\d+$/.test(turnKey) &&
              offersTurnRollback({ changedFiles, tools })
            ? (
              <div class="activity-footer">
                <RollbackButton
                  sessionId={sessionId}
                  turnId={turnKey}
                  label={t("activity.rollbackTurn")}
                />
              </div>
            )
            : null}
        </div>
      </details>
      {live ? null : <FilesChanged sessionId={sessionId} tools={tools} />}
    </div>
  );
}
