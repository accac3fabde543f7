// The diffs of one turn in a dialog (opened from FilesChanged.tsx): each write_file/patch call's
// FileDiff (GET /api/session/tool_diff) drawn by DiffView.tsx, in the order the calls ran.
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import type { FileDiff } from "../../lib/shared/chat_events.ts";
import DiffView from "./DiffView.tsx";
import { t } from "../../lib/i18n/t.ts";

async function loadDiff(sessionId: string, id: string): Promise<FileDiff | null> {
  const q = `session_id=${encodeURIComponent(sessionId)}&tool_call_id=${encodeURIComponent(id)}`;
  const res = await fetch(`/api/session/tool_diff?${q}`, {
    headers: { accept: "application/json" },
    credentials: "same-origin",
  });
  return res.ok ? ((await res.json()) as { diff: FileDiff | null }).diff : null;
}

function Diffs({ sessionId, ids, close }: { sessionId: string; ids: string[]; close(): void }) {
  const [diffs, setDiffs] = useState<FileDiff[] | null>(null);
  useEffect(() => {
    void Promise.all(ids.map((id) => loadDiff(sessionId, id).catch(() => null)))
      .then((all) => setDiffs(all.filter((d): d is FileDiff => d !== null)));
  }, []);
  return (
    <>
      <header class="files-changed-head">
        <h2 class="dialog-title">{t("activity.turnChanges")}</h2>
        <button type="button" class="btn btn-ghost btn-sm" onClick={close}>
          {t("common.close")}
        </button>
      </header>
      {diffs === null
        ? <p class="dialog-text">{t("common.loading")}</p>
        : diffs.length
        ? diffs.map((d, i) => <DiffView key={i} diff={d} />)
        : <p class="dialog-text">{t("activity.turnChangesGone")}</p>}
    </>
  );
}

/** Open the dialog for the calls `ids` of `sessionId`. */
export function openFilesChanged(sessionId: string, ids: string[]): void {
  if (!document.querySelector('link[href="/static/diff.css"]')) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = "/static/diff.css";
    document.head.append(link);
  }
  const dialog = document.createElement("dialog");
  dialog.className = "dialog files-changed-dialog";
  dialog.setAttribute("aria-label", t("activity.turnChanges"));
  document.body.append(dialog);
  const close = () => dialog.close();
  dialog.addEventListener("close", () => (render(null, dialog), dialog.remove()));
  dialog.addEventListener("click", (e) => e.target === dialog && close());
  render(<Diffs sessionId={sessionId} ids={ids} close={close} />, dialog);
  dialog.showModal();
}
