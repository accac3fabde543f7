// Where a write_file/patch card shows its diff: fetches the call's FileDiff (GET
// /api/session/tool_diff) when the card opens and loads DiffView.tsx (and its CSS) only then, so neither is in the first
// load. Renders nothing for a call without a diff.
import { useEffect, useState } from "preact/hooks";
import type { ComponentType } from "preact";
import type { FileDiff } from "../../lib/shared/chat_events.ts";
import { t } from "../../lib/i18n/t.ts";

type View = ComponentType<{ diff: FileDiff }>;
let viewModule: Promise<View> | undefined;
const STYLESHEET = "/static/diff.css";

function loadView(): Promise<View> {
  if (!document.querySelector(`link[href="${STYLESHEET}"]`)) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = STYLESHEET;
    document.head.append(link);
  }
  return viewModule ??= import("./DiffView.tsx").then((m) => m.default);
}

/** One call's diff (GET /api/session/tool_diff); null when it changed no text file. */
async function loadDiff(sessionId: string, toolCallId: string): Promise<FileDiff | null> {
  const q = `session_id=${encodeURIComponent(sessionId)}&tool_call_id=${
    encodeURIComponent(toolCallId)
  }`;
  const res = await fetch(`/api/session/tool_diff?${q}`, {
    headers: { accept: "application/json" },
    credentials: "same-origin",
  });
  return res.ok ? ((await res.json()) as { diff: FileDiff | null }).diff : null;
}

export function DiffSlot({ sessionId, toolCallId }: { sessionId: string; toolCallId: string }) {
  const [state, setState] = useState<{ View: View; diff: FileDiff } | null>(null);
  useEffect(() => {
    let live = true;
    (async () => {
      const diff = await loadDiff(sessionId, toolCallId);
      if (!diff || !live) return;
      const View = await loadView();
      if (live) setState({ View, diff });
    })().catch(() => {/* no diff shown: the result text still says what happened */});
    return () => {
      live = false;
    };
  }, [sessionId, toolCallId]);
  if (!state) return null;
  return (
    <div class="tool-section">
      <div class="tool-label">{t("activity.changes")}</div>
      <state.View diff={state.diff} />
    </div>
  );
}
