// One turn of the conversation in DESIGN.md's rhythm: the user's message as a compact
// right-aligned bubble, the agent's internals folded into ONE Activity disclosure, then the
// answer as serif prose. What needs attention is never only inside the collapsed activity:
// failed or refused tools, run errors, stops and lasting warnings are repeated below it.
// Rendered on the server for history and by the Transcript island for live and older turns.
import type { ComponentChildren } from "preact";
import ActivityGroup from "../islands/ActivityGroup.tsx";
import {
  failedTools,
  hasActivity,
  type Segment,
  type TurnModel,
} from "../lib/shared/transcript_model.ts";
import { toolLabel } from "./ToolCard.tsx";
import { AllowedByRule } from "./AllowedByRule.tsx";
import { withoutAllowedNote } from "../lib/shared/allowed_by_rule.ts";
import { AnswerActions, UserActions } from "./transcript/MessageActions.tsx";
import { TurnNotice } from "./transcript/TurnNotice.tsx";
import { orderTurn } from "../lib/shared/transcript_order.ts";
import { AttachmentChips } from "./transcript/AttachmentChips.tsx";
import { t } from "../lib/i18n/t.ts";

export interface TurnViewProps {
  sessionId: string;
  turn: TurnModel;
  /** The run is still going. */
  live?: boolean;
  /** The live-only compression divider (omitted once the answer is settled). */
  compression?: "compressing" | "compressed" | null;
  /** Render a prose segment (the live transcript streams into elements of its own). */
  renderSegment?: (seg: Segment) => ComponentChildren;
  /** Cards and status lines that belong at the end of this turn. */
  children?: ComponentChildren;
  /** The conversation's last turn (an interrupted one offers Retry). */
  last?: boolean;
}

/** Tool statuses of a call still in flight (the activity shows a quiet spinner). */
const OPEN = new Set(["pending", "running", "awaiting_approval"]);

function firstLine(s: string | null): string {
  const line = (s ?? "").split("\n").find((l) => l.trim()) ?? "";
  return line.length > 140 ? line.slice(0, 139) + "…" : line;
}

/** Settled prose: HTML rendered by lib/markdown/render.ts (raw HTML in it is text, URLs vetted). */
export function Prose({ seg }: { seg: Segment }) {
  return (
    <div
      class="msg msg-assistant prose"
      data-seg={seg.key}
      // deno-lint-ignore react-no-danger
      dangerouslySetInnerHTML={{ __html: seg.html ?? "" }}
    />
  );
}

export function TurnView(
  { sessionId, turn, live = false, compression = null, renderSegment, children, last = false }:
    TurnViewProps,
) {
  const failed = failedTools(turn);
  const ordered = orderTurn(turn); // the Activity in order; narration inside once answered
  return (
    <div class="turn" data-turn={turn.key} data-live={live ? "" : undefined}>
      {turn.user
        ? (
          <div class="msg msg-user" data-idx={turn.user.idx ?? undefined}>
            <div class="msg-user-bubble" dir="auto">
              {/* Its own element: `render_user_markdown` renders it (lib/browser/user_markdown.ts). */}
              <div class="msg-user-text">{turn.user.text}</div>
              <AttachmentChips
                sessionId={sessionId}
                files={turn.userFiles ??
                  turn.user.attachments.map((name) => ({ name, image: false }))}
              />
            </div>
            {live ? null : <UserActions turn={turn} />}
          </div>
        )
        : null}
      {compression
        ? (
          <div class="compress-divider" role="status" data-state={compression}>
            <span>
              {compression === "compressing"
                ? t("transcript.compressing")
                : t("transcript.compressed")}
            </span>
          </div>
        )
        : null}
      {hasActivity(turn)
        ? (
          <ActivityGroup
            sessionId={sessionId}
            turnKey={turn.key}
            thinking={turn.thinking}
            tools={turn.tools}
            todos={turn.todos}
            steps={ordered.steps}
            changedFiles={turn.changedFiles}
            live={live && turn.tools.some((x) => OPEN.has(x.status))}
          />
        )
        : null}
      {failed.length
        ? (
          <ul class="turn-attention">
            {failed.map((f) => (
              <li class="attention-row" data-status={f.status} key={f.id}>
                <span class="attention-label">
                  {f.status === "denied" ? t("transcript.notRun") : t("transcript.failed")}
                </span>
                <span class="attention-tool">{toolLabel(f.name).tool}</span>
                <span class="attention-target" dir="auto">{f.target}</span>
                {/* What went wrong, never the grant's note in its place: that sits beside it. */}
                {f.result
                  ? (
                    <span class="attention-detail" dir="auto">
                      {firstLine(withoutAllowedNote(f.result))}
                    </span>
                  )
                  : null}
                <AllowedByRule result={f.result} />
              </li>
            ))}
          </ul>
        )
        : null}
      {ordered.answer.map((s) => renderSegment ? renderSegment(s) : <Prose key={s.key} seg={s} />)}
      {turn.notices.map((n, i) => <TurnNotice key={`n${i}`} notice={n} last={last} />)}
      {!live && turn.user && turn.segments.length ? <AnswerActions turn={turn} /> : null}
      {children}
    </div>
  );
}
