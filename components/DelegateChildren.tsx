// The nested cards of a `delegate` call: the child run's tool calls under the parent's card,
// indented like quiet metadata. Live runs fill them from `tool_progress` events; a settled turn
// fetches them from the hidden child session the first time the delegate card is opened.
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import type { ToolCallStatus } from "../lib/shared/chat_events.ts";
import {
  clipResult,
  formatArgs,
  STATUSES,
  toolTarget,
  type ToolView,
} from "../lib/shared/transcript_turns.ts";
import { t } from "../lib/i18n/t.ts";

interface ChildCallRow {
  tool_call_id: string;
  name: string;
  args: Record<string, unknown>;
  status: string;
  result: string | null;
  duration: number | null;
}

/** A recorded child call as a card view. */
export function childView(r: ChildCallRow): ToolView {
  const formatted = formatArgs(r.args);
  return {
    id: r.tool_call_id,
    name: r.name,
    target: toolTarget(r.name, r.args),
    args: formatted.text,
    argsClipped: formatted.clipped,
    status: STATUSES.has(r.status) ? r.status as ToolCallStatus : "error",
    ...(r.result === null ? { result: null, resultChars: 0 } : clipResult(r.result)),
    duration: r.duration,
  };
}

async function loadChildren(sessionId: string, callId: string) {
  const res = await fetch(
    `/api/session/delegate?session_id=${encodeURIComponent(sessionId)}&tool_call_id=${
      encodeURIComponent(callId)
    }`,
    { headers: { accept: "application/json" }, credentials: "same-origin" },
  );
  if (res.status === 404) return null;
  if (!res.ok) {
    throw new Error(t("activity.subtaskLoadFailed", { status: String(res.status) }));
  }
  const body = await res.json() as { child_session_id: string; tool_calls: ChildCallRow[] };
  return { sessionId: body.child_session_id, tools: body.tool_calls.map(childView) };
}

type CardComponent = (p: { tool: ToolView; sessionId: string }) => JSX.Element;

export function DelegateChildren(
  { tool, sessionId, open, Card }: {
    tool: ToolView;
    sessionId: string;
    /** The delegate card is expanded (a settled turn loads its children then). */
    open: boolean;
    /** The card component (passed in so the two files do not import each other). */
    Card: CardComponent;
  },
) {
  const [loaded, setLoaded] = useState<{ sessionId: string; tools: ToolView[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const live = tool.children !== undefined;
  useEffect(() => {
    if (!open || live || loaded || error) return;
    loadChildren(sessionId, tool.id)
      .then((r) => setLoaded(r ?? { sessionId: "", tools: [] }))
      .catch((err) => setError((err as Error).message));
  }, [open, live]);

  const children = tool.children ?? loaded?.tools ?? [];
  const childSession = tool.childSessionId ?? loaded?.sessionId ?? sessionId;
  if (error) return <p class="tool-error tool-children-note" role="alert">{error}</p>;
  if (!children.length) {
    return open && loaded
      ? <p class="tool-empty tool-children-note">{t("activity.subtaskNoTools")}</p>
      : null;
  }
  return (
    <div class="tool-children" role="group" aria-label={t("activity.subtaskCalls")}>
      {children.map((c) => <Card key={c.id} tool={c} sessionId={childSession} />)}
    </div>
  );
}
