// "Manage workspaces" inside the composer's workspace switcher (components/WorkspaceMenu.tsx):
// rename (POST /api/workspaces/rename), move up/down (POST /api/workspaces/reorder) and remove
// (POST /api/workspaces/remove) the registered workspaces. The default workspace stays first and
// cannot be removed (the server says so). Loaded with the switcher, on demand.
import { useState } from "preact/hooks";
import { api, ApiError } from "../lib/browser/api_client.ts";
import { shortPath } from "../lib/browser/composer_state.ts";
import { t } from "../lib/i18n/t.ts";

export interface ManagedWorkspace {
  path: string;
  name: string;
}

export interface WorkspaceManageProps {
  list: ManagedWorkspace[];
  home: string | null;
  /** The list as the server now has it. */
  onChanged(list: ManagedWorkspace[]): void;
  onDone(): void;
}

export function WorkspaceManage({ list, home, onChanged, onDone }: WorkspaceManageProps) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (fn: () => Promise<{ workspaces: ManagedWorkspace[] }>) => {
    setBusy(true);
    setError(null);
    try {
      onChanged((await fn()).workspaces);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  const rename = (w: ManagedWorkspace, name: string) => {
    if (name.trim() === w.name) return;
    void run(() => api("POST", "/api/workspaces/rename", { path: w.path, name }));
  };
  const move = (i: number, by: number) => {
    const rest = list.slice(1).map((w) => w.path);
    const [item] = rest.splice(i - 1, 1);
    rest.splice(i - 1 + by, 0, item);
    void run(() => api("POST", "/api/workspaces/reorder", { paths: rest }));
  };
  const remove = (w: ManagedWorkspace) =>
    void run(() => api("POST", "/api/workspaces/remove", { path: w.path }));

  return (
    <div class="workspace-manage" data-workspace-manage data-busy={busy ? "" : undefined}>
      {error ? <p class="pop-error" role="alert">{error}</p> : null}
      <ul class="workspace-manage-list" aria-label={t("workspace.manageList")}>
        {list.map((w, i) => (
          <li key={w.path} class="workspace-manage-row" data-path={w.path}>
            <input
              class="pop-filter workspace-manage-name"
              type="text"
              value={w.name}
              aria-label={t("workspace.nameOf", { path: shortPath(w.path, home) })}
              title={w.path}
              disabled={busy}
              onChange={(e) => rename(w, e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter") rename(w, e.currentTarget.value);
              }}
            />
            <span class="workspace-path mono">{shortPath(w.path, home)}</span>
            <span class="workspace-manage-actions">
              <button
                type="button"
                class="pop-button"
                aria-label={t("workspace.moveUpNamed", { name: w.name })}
                title={t("workspace.moveUp")}
                data-move-up
                disabled={busy || i < 2}
                onClick={() => move(i, -1)}
              >
                ↑
              </button>
              <button
                type="button"
                class="pop-button"
                aria-label={t("workspace.moveDownNamed", { name: w.name })}
                title={t("workspace.moveDown")}
                data-move-down
                disabled={busy || i === 0 || i === list.length - 1}
                onClick={() => move(i, 1)}
              >
                ↓
              </button>
              <button
                type="button"
                class="pop-button"
                aria-label={t("workspace.removeNamed", { name: w.name })}
                title={i === 0 ? t("workspace.defaultStays") : t("workspace.removeFromList")}
                data-remove
                disabled={busy || i === 0}
                onClick={() => remove(w)}
              >
                ×
              </button>
            </span>
          </li>
        ))}
      </ul>
      <button type="button" class="pop-option workspace-manage-open" onClick={onDone}>
        {t("common.done")}
      </button>
    </div>
  );
}
