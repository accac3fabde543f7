// Browser-safe: imports nothing from Deno or the database.
// The composer's link to its chat session: created once, on first need (a message, an upload, a
// switch, a workspace choice), with the model and workspace chosen before it existed; later
// choices update it. Invariants: at most one creation is in flight; the server's answer is what
// the composer shows (`hermes:session-updated` tells the rest of the page).
import { batch, type Signal } from "@preact/signals";
import { emitHermesEvent } from "../../shared/ui_events.ts";
import type { CommandDeps } from "./composer_commands.ts";

/** The session fields the composer keeps (POST /api/session/new and /update answer them). */
export interface SessionInfo {
  session_id: string;
  workspace: string;
  model: string | null;
  model_provider: string | null;
}

export interface ChosenModel {
  id: string | null;
  provider: string | null;
}

export interface SessionLink {
  /** The chat's session, created now (with the choices made so far) if there is none yet. */
  ensure(): Promise<SessionInfo>;
  /** Use this model: kept for the new chat, or set on the existing one. */
  chooseModel(id: string, provider: string | null): Promise<void>;
  /** Use this workspace; a new chat is created in it at once, so a bad path is refused now. */
  chooseWorkspace(path: string): Promise<SessionInfo>;
}

export function createSessionLink(state: {
  sid: Signal<string | null>;
  model: Signal<ChosenModel>;
  workspace: Signal<string | null>;
  projectId: string | null;
  api: CommandDeps["api"];
}): SessionLink {
  const { sid, model, workspace, api } = state;
  let creating: Promise<SessionInfo> | null = null;
  let pending: { model?: { id: string; provider: string | null }; workspace?: string } = {};

  function ensure(): Promise<SessionInfo> {
    const id = sid.value;
    if (id) {
      return Promise.resolve({
        session_id: id,
        workspace: workspace.value ?? "",
        model: model.value.id,
        model_provider: model.value.provider,
      });
    }
    if (!creating) {
      const body: Record<string, unknown> = {};
      if (state.projectId) body.project_id = state.projectId;
      if (pending.model) {
        (body.model = pending.model.id, body.model_provider = pending.model.provider);
      }
      if (pending.workspace) body.workspace = pending.workspace;
      creating = api<{ session: SessionInfo }>("POST", "/api/session/new", body)
        .then(({ session }) => {
          batch(() => {
            sid.value = session.session_id;
            workspace.value = session.workspace;
            model.value = { id: session.model, provider: session.model_provider };
          });
          pending = {};
          return session;
        })
        .finally(() => (creating = null));
    }
    return creating;
  }

  /** The session id once any creation in flight has settled (null: still a new chat). */
  async function settledId(): Promise<string | null> {
    if (!sid.value && creating) await creating.catch(() => {});
    return sid.value;
  }

  function updated(s: SessionInfo) {
    batch(() => {
      model.value = { id: s.model, provider: s.model_provider };
      workspace.value = s.workspace;
    });
    emitHermesEvent("hermes:session-updated", {
      session_id: s.session_id,
      model: s.model,
      model_provider: s.model_provider,
      workspace: s.workspace,
    });
  }

  async function chooseModel(id: string, provider: string | null) {
    const current = await settledId();
    if (current) {
      const { session } = await api<{ session: SessionInfo }>("POST", "/api/session/update", {
        session_id: current,
        model: id,
        model_provider: provider,
      });
      updated(session);
    } else {
      pending.model = { id, provider };
      model.value = { id, provider };
    }
  }

  async function chooseWorkspace(path: string): Promise<SessionInfo> {
    const current = await settledId();
    let session: SessionInfo;
    if (current) {
      ({ session } = await api<{ session: SessionInfo }>("POST", "/api/session/update", {
        session_id: current,
        workspace: path,
      }));
    } else {
      pending.workspace = path;
      try {
        session = await ensure();
      } catch (err) {
        delete pending.workspace;
        throw err;
      }
    }
    updated(session);
    return session;
  }

  return { ensure, chooseModel, chooseWorkspace };
}
