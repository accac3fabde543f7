// Browser-safe: imports nothing from Deno or the database.
// The rollback dialog, loaded on demand by components/RollbackButton.tsx: it previews what undoing
// one tool call (or a whole turn) would do — files, a warning for any changed since, the diff —
// and restores on confirmation (/api/rollback/{diff,restore}). Text only via textContent.
import { api, ApiError } from "./api_client.ts";
import { el } from "./ui_menu.ts";
import { emitHermesEvent } from "../shared/ui_events.ts";
import { t } from "../i18n/t.ts";

const STYLESHEET = "/static/rollback.css";

interface Preview {
  diff: string;
  files_changed: Array<{ file: string; status: string; changed_since: boolean; binary: boolean }>;
  total_changes: number;
}

/** What happens to each file, by the preview's status (message keys, read when shown). */
const STATUS_TEXT: Record<string, string> = {
  restore: "workspace.rollbackRestore",
  delete: "workspace.rollbackDelete",
  recreate: "workspace.rollbackRecreate",
  unchanged: "workspace.rollbackUnchanged",
  not_restorable: "workspace.rollbackNotRestorable",
};

function ensureStyles() {
  if (document.querySelector(`link[rel="stylesheet"][href="${STYLESHEET}"]`)) return;
  const link = el("link", { rel: "stylesheet", href: STYLESHEET });
  document.head.append(link);
}

/** Open the dialog for one call (`toolCallId`) or one turn (`turnId`). */
export async function openRollbackDialog(
  sel: { sessionId: string; toolCallId?: string; turnId?: string },
): Promise<void> {
  ensureStyles();
  const what = sel.toolCallId ? t("workspace.rollbackUndoCall") : t("workspace.rollbackTurn");
  const dialog = el("dialog", { class: "rollback-dialog", "aria-label": what });
  const title = el("h2", { class: "dialog-title rollback-title" }, what);
  const body = el("div", { class: "rollback-body" });
  body.append(el("p", { class: "rollback-note" }, t("workspace.rollbackLoading")));
  const error = el("p", { class: "rollback-error", role: "alert" });
  error.hidden = true;
  const actions = el("div", { class: "dialog-actions rollback-actions" });
  const cancel = el(
    "button",
    { type: "button", class: "btn btn-secondary rollback-cancel" },
    t("common.cancel"),
  );
  const restore = el(
    "button",
    { type: "button", class: "btn btn-primary rollback-restore" },
    t("workspace.rollbackRestoreFiles"),
  );
  restore.disabled = true;
  actions.append(cancel, restore);
  dialog.append(title, body, error, actions);
  document.body.append(dialog);
  const close = () => {
    dialog.close();
    dialog.remove();
  };
  cancel.addEventListener("click", close);
  dialog.addEventListener("cancel", (e) => {
    e.preventDefault();
    close();
  });
  dialog.showModal();

  const q = new URLSearchParams({ session_id: sel.sessionId });
  if (sel.toolCallId) q.set("tool_call_id", sel.toolCallId);
  else if (sel.turnId) q.set("turn_id", sel.turnId);
  let preview: Preview;
  try {
    preview = await api<Preview>("GET", `/api/rollback/diff?${q}`);
  } catch (err) {
    body.replaceChildren(
      el(
        "p",
        { class: "rollback-note" },
        err instanceof ApiError && err.status === 404
          ? t("workspace.rollbackNothingRecorded")
          : (err as Error).message,
      ),
    );
    return;
  }
  const list = el("ul", { class: "rollback-files" });
  for (const f of preview.files_changed) {
    const li = el("li", { "data-status": f.status });
    li.append(
      el("code", {}, f.file),
      el(
        "span",
        { class: "rollback-status" },
        ` ${STATUS_TEXT[f.status] ? t(STATUS_TEXT[f.status]) : f.status}`,
      ),
    );
    if (f.changed_since) {
      li.append(
        el("span", { class: "rollback-warn" }, ` · ${t("workspace.rollbackChangedSince")}`),
      );
    }
    list.append(li);
  }
  const pre = el("pre", { class: "rollback-diff" });
  for (const line of preview.diff.split("\n")) {
    const kind = line.startsWith("+++") || line.startsWith("---")
      ? "file"
      : line[0] === "+"
      ? "add"
      : line[0] === "-"
      ? "del"
      : line.startsWith("@@")
      ? "hunk"
      : "ctx";
    pre.append(el("span", { class: "rollback-line", "data-kind": kind }, line + "\n"));
  }
  body.replaceChildren(
    el(
      "p",
      { class: "rollback-note" },
      preview.total_changes ? t("workspace.rollbackWillRestore") : t("workspace.rollbackNothing"),
    ),
    list,
    ...(preview.diff ? [pre] : []),
  );
  restore.disabled = preview.total_changes === 0;
  restore.addEventListener("click", async () => {
    restore.disabled = true;
    error.hidden = true;
    try {
      const out = await api<
        { ok: boolean; files_restored: string[]; errors: Array<{ file: string; error: string }> }
      >(
        "POST",
        "/api/rollback/restore",
        {
          session_id: sel.sessionId,
          ...(sel.toolCallId ? { tool_call_id: sel.toolCallId } : { turn_id: sel.turnId }),
        },
      );
      emitHermesEvent("hermes:git-changed", { session_id: sel.sessionId });
      if (sel.turnId && out.files_restored.length) {
        emitHermesEvent("hermes:turn-rolled-back", {
          session_id: sel.sessionId,
          turn_id: sel.turnId,
        });
      }
      const done = el(
        "p",
        { class: "rollback-note", role: "status" },
        t("workspace.rollbackRestored", { count: out.files_restored.length }),
      );
      body.replaceChildren(done);
      for (const e of out.errors) {
        body.append(el("p", { class: "rollback-error" }, `${e.file}: ${e.error}`));
      }
      cancel.textContent = t("common.close");
      restore.remove();
    } catch (err) {
      error.textContent = (err as Error).message;
      error.hidden = false;
      restore.disabled = false;
    }
  });
}
