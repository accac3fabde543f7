// The composer's workspace switcher: the registered workspaces (`GET /api/workspaces`) with the
// chat's current one marked, and "Add workspace…" (POST /api/workspaces/add) that registers a
// directory and switches to it. Loaded on demand by the Composer island (dynamic import).
import { useEffect, useRef, useState } from "preact/hooks";
import { api, ApiError } from "../lib/browser/api_client.ts";
import { shortPath } from "../lib/browser/composer_state.ts";
import { Icon } from "./Icon.tsx";

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
  const [path, setPath] = useState("");
  const [busy, setBusy] = useState(false);
  const [active, setActive] = useState(0);
  const root = useRef<HTMLDivElement>(null);
  const field = useRef<HTMLInputElement>(null);

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
    if (adding) field.current?.focus();
    else root.current?.querySelector<HTMLElement>(`#ws-opt-${active}`)?.focus();
  }, [adding, list, active]);

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

  const add = async () => {
    const raw = path.trim();
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

  const count = (list?.length ?? 0) + 1; // + "Add workspace…"

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
      <p class="pop-heading">Workspace</p>
      {error ? <p class="pop-error" role="alert">{error}</p> : null}
      {!list && !error ? <p class="pop-empty">Loading workspaces…</p> : null}
      <ul class="pop-list" role="menu" aria-label="Workspaces">
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
          {adding
            ? (
              <form
                class="workspace-add"
                onSubmit={(e) => {
                  e.preventDefault();
                  add();
                }}
              >
                <input
                  ref={field}
                  class="pop-filter"
                  type="text"
                  placeholder="/path/to/project or ~/project"
                  aria-label="Workspace path"
                  value={path}
                  spellcheck={false}
                  autocomplete="off"
                  onInput={(e) => setPath(e.currentTarget.value)}
                />
                <button type="submit" class="pop-button" disabled={busy || !path.trim()}>
                  Add
                </button>
              </form>
            )
            : (
              <button
                type="button"
                id={`ws-opt-${list?.length ?? 0}`}
                role="menuitem"
                class="pop-option workspace-add-open"
                tabIndex={active === (list?.length ?? 0) ? 0 : -1}
                onClick={() => setAdding(true)}
              >
                <Icon name="plus" size={13} />
                <span>Add workspace…</span>
              </button>
            )}
        </li>
      </ul>
    </div>
  );
}
