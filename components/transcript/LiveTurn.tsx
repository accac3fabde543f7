// One run followed live: its turn (prose streamed into LiveSegments) with the run's status lines
// under it: a retry in progress, a dropped connection, and the spinner while the model works
// with no tool in flight; above it, a quiet divider when a standing goal started the run by
// itself (`goal_continue`). Rendered inside the Transcript island.
import type { LiveRun } from "../../lib/shared/transcript_live.ts";
import type { TurnModel } from "../../lib/shared/transcript_turns.ts";
import { sinkKey } from "../../lib/browser/live_transcript.ts";
import type { LiveProse } from "../../lib/browser/live_prose.ts";
import { TurnView } from "../TurnView.tsx";
import { LiveSegment } from "./LiveSegment.tsx";
import { t } from "../../lib/i18n/t.ts";

/**
 * The turn as the view should see it: the run grows its turn in place, and a component with
 * hook state (ActivityGroup, ToolCard) is not rendered again for props equal by identity once
 * @preact/signals is loaded, so each render hands them fresh copies. Segments stay the run's own
 * objects: LiveProse streams from them, and LiveSegment never re-renders.
 */
function viewOf(turn: TurnModel): TurnModel {
  return {
    ...turn,
    thinking: [...turn.thinking],
    // A delegate card's nested child calls are grown in place too.
    tools: turn.tools.map((x) => ({ ...x, children: x.children?.map((c) => ({ ...c })) })),
    todos: turn.todos?.map((x) => ({ ...x })) ?? null,
    notices: [...turn.notices],
  };
}

/** A tool in flight shows its own spinner (on the Activity row): no second one below. */
const IN_FLIGHT = new Set(["pending", "running", "awaiting_approval"]);

/**
 * Plain props on purpose: the run is grown in place, and a component that reads no signal is
 * rendered again with its parent (a signal-reading one with equal props would be skipped).
 */
export interface LiveTurnProps {
  sessionId: string;
  prose: LiveProse;
  run: LiveRun;
  /** The connection dropped and this is the newest run (the one it is about). */
  reconnecting: boolean;
  /** The page's newest run: its turn is the conversation's last. */
  last?: boolean;
}

export function LiveTurn({ sessionId, prose, run, reconnecting, last }: LiveTurnProps) {
  const running = !run.ended;
  const compression = running || run.phase === "error" ? run.compression : null;
  return (
    <>
      {run.goal ? <GoalDivider goal={run.goal} /> : null}
      <LiveTurnView
        sessionId={sessionId}
        prose={prose}
        run={run}
        reconnecting={reconnecting}
        running={running}
        compression={compression}
        last={last}
      />
    </>
  );
}

/** "Continuing toward the goal — turn 3/20: <reason>". */
export function GoalDivider({ goal }: { goal: NonNullable<LiveRun["goal"]> }) {
  return (
    <div class="goal-divider" role="note" data-goal-turn={goal.turn}>
      <span class="goal-divider-text">
        {goal.reason
          ? t("transcript.goalContinueReason", {
            turn: goal.turn,
            max: goal.max_turns,
            reason: goal.reason,
          })
          : t("transcript.goalContinue", { turn: goal.turn, max: goal.max_turns })}
      </span>
    </div>
  );
}

function LiveTurnView(
  { sessionId, prose, run, reconnecting, running, compression, last }: LiveTurnProps & {
    running: boolean;
    compression: LiveRun["compression"];
  },
) {
  return (
    <TurnView
      sessionId={sessionId}
      turn={viewOf(run.turn)}
      live={running}
      compression={compression}
      last={last}
      renderSegment={(seg) => (
        <LiveSegment
          key={seg.key}
          seg={seg}
          sinkKey={sinkKey(run, seg)}
          prose={prose}
          streaming={running}
        />
      )}
    >
      {running && run.retrying ? <p class="turn-status" role="status">{run.retrying}</p> : null}
      {running && reconnecting
        ? (
          <p class="turn-status" role="status" data-reconnecting="">
            {t("transcript.reconnecting")}
          </p>
        )
        : null}
      {running && !run.turn.tools.some((x) => IN_FLIGHT.has(x.status))
        ? (
          <p class="turn-pending" role="status" aria-label={t("transcript.working")}>
            <span class="spinner" />
          </p>
        )
        : null}
    </TurnView>
  );
}
