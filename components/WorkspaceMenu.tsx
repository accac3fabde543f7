// The composer's workspace switcher: the registered workspaces (`GET /api/workspaces`) with the
// chat's current one marked, and "Add workspace…" (POST /api/workspaces/add) that registers a
// directory and switches to it (its field suggests recent folders and git repos: GET
// /api/workspaces/suggest), and "Manage workspaces…" (rename, reorder, remove:
// WorkspaceManage.tsx). Loaded on demand by the Composer island (dynamic import).
import { useEffect, useRef, useState } from "preact/hooks";
import { api, ApiError } from "../lib/browser/api_client.ts";
import { shortPath } from "../lib/browser/composer_state.ts";
import { Icon } from "./Icon.tsx";
import { t } from "../lib/i18n/t.ts";
import { WorkspaceManage } from "./WorkspaceManage.tsx";

interface Workspace {
  path: string;
  name: string;
}

export interface WorkspaceMenuProps {
  /** The chat's workspace (absolute path). */
  current: string | null;
  home: string | null;
  /** Switch to `path` (a registered or just-added workspace). Rejects with a sentence. */
  onPick(path: string): Promise<void>;
  onClose(): void;
}

export function WorkspaceMenu({ current, home, onPick, onClose }: WorkspaceMenuProps) {
  const [list, setList] = useState<Workspace[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [managing, setManaging] = useState(false);
  const [busy, setBusy] = useState(false);
  const [active, setActive] = useState(0);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const ctrl = new AbortController();
    api<{ workspaces: Workspace[] }>("GET", "/api/workspaces", undefined, { signal: ctrl.signal })
      .then((res) => {
        setList(res.workspaces);
        const at = res.workspaces.findIndex((w) => w.path === current);
        setActive(at < 0 ? 0 : at);
      })
      .catch((err) => {
        if ((err as Error).name !== "AbortError") {
          setError(err instanceof ApiError ? err.message : String(err));
        }
      });
    return () => ctrl.abort();
  }, []);

  useEffect(() => {
    if (!adding && !managing) {
      root.current?.querySelector<HTMLElement>(`#ws-opt-${active}`)?.focus();
    }
  }, [adding, managing, list, active]);

  const choose = async (target: string) => {
    setBusy(true);
    setError(null);
    try {
      await onPick(target);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String((err as Error).message ?? err));
    } finally {
      setBusy(false);
    }
  };

  const add = async (typed: string) => {
    const raw = typed.trim();
    if (!raw) return;
    setBusy(true);
    setError(null);
    try {
      const res = await api<{ workspace: Workspace }>("POST", "/api/workspaces/add", { path: raw });
      setBusy(false);
      await choose(res.workspace.path);
    } catch (err) {
      setBusy(false);
      setError(err instanceof ApiError ? err.message : String(err));
    }
  };

  const count = (list?.length ?? 0) + 2; // + "Add workspace…", "Manage workspaces…"

  return (
    <div
      ref={root}
      class="composer-pop workspace-menu"
      data-popover="workspace"
      data-busy={busy ? "" : undefined}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.preventDefault();
          e.stopPropagation();
          if (adding) setAdding(false);
          else onClose();
        } else if (!adding && e.key === "ArrowDown") {
          e.preventDefault();
          setActive((a) => Math.min(count - 1, a + 1));
        } else if (!adding && e.key === "ArrowUp") {
          e.preventDefault();
          setActive((a) => Math.max(0, a - 1));
        }
      }}
    >
      <p class="pop-heading">{t("workspace.workspace")}</p>
      {error ? <p class="pop-error" role="alert">{error}</p> : null}
      {!list && !error ? <p class="pop-empty">{t("workspace.loadingList")}</p> : null}
      {managing && list
        ? (
          <WorkspaceManage
            list={list}
            home={home}
            onChanged={setList}
            onDone={() => setManaging(false)}
          />
        )
        : null}
      <ul class="pop-list" role="menu" aria-label={t("workspace.workspaces")} hidden={managing}>
        {(list ?? []).map((w, i) => (
          <li role="none" key={w.path}>
            <button
              type="button"
              id={`ws-opt-${i}`}
              role="menuitemradio"
              aria-checked={w.path === current}
              class="pop-option workspace-option"
              data-path={w.path}
              tabIndex={i === active ? 0 : -1}
              disabled={busy}
              onClick={() => choose(w.path)}
            >
              <span class="workspace-name">{w.name}</span>
              <span class="workspace-path mono">{shortPath(w.path, home)}</span>
              {w.path === current ? <Icon name="check" size={13} class="icon model-check" /> : null}
            </button>
          </li>
        ))}
        <li role="none">
          {adding ? <WorkspaceAdd busy={busy} onSubmit={add} /> : (
            <button
              type="button"
              id={`ws-opt-${list?.length ?? 0}`}
              role="menuitem"
              class="pop-option workspace-add-open"
              tabIndex={active === (list?.length ?? 0) ? 0 : -1}
              onClick={() => setAdding(true)}
            >
              <Icon name="plus" size={13} />
              <span>{t("workspace.addWorkspace")}</span>
            </button>
          )}
        </li>
        <li role="none">
          <button
            type="button"
            role="menuitem"
            class="pop-option workspace-manage-open"
            id={`ws-opt-${(list?.length ?? 0) + 1}`}
            tabIndex={active === (list?.length ?? 0) + 1 ? 0 : -1}
            data-workspace-manage-open
            onClick={() => setManaging(true)}
          >
            <span>{t("workspace.manageWorkspaces")}</span>
          </button>
        </li>
      </ul>
    </div>
  );
}

/** The "Add workspace…" field, with suggestions (GET /api/workspaces/suggest?prefix=). */
function WorkspaceAdd({ busy, onSubmit }: { busy: boolean; onSubmit(path: string): void }) {
  const [path, setPath] = useState("");
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);
  useEffect(() => {
    const ctrl = new AbortController();
    const timer = setTimeout(() => {
      api<{ suggestions: string[] }>(
        "GET",
        `/api/workspaces/suggest?prefix=${encodeURIComponent(path.trim())}`,
        undefined,
        { signal: ctrl.signal },
      ).then((r) => setSuggestions(r.suggestions), () => {});
    }, path ? 150 : 0);
    return () => (clearTimeout(timer), ctrl.abort());
  }, [path]);
  return (
    <form
      class="workspace-add"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(path);
      }}
    >
      <input
        ref={field}
        class="pop-filter"
        type="text"
        placeholder={t("workspace.pathPlaceholder")}
        aria-label={t("workspace.pathLabel")}
        value={path}
        spellcheck={false}
        autocomplete="off"
        list="workspace-suggestions"
        onInput={(e) => setPath(e.currentTarget.value)}
      />
      <datalist id="workspace-suggestions" data-workspace-suggestions>
        {suggestions.map((s) => <option key={s} value={s} />)}
      </datalist>
      <button type="submit" class="pop-button" disabled={busy || !path.trim()}>
        {t("common.add")}
      </button>
    </form>
  );
}
