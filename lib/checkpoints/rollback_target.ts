// Which session a rollback request acts on: its workspace (a real path), the checkpoint store of
// this app and the protected-path guard. The browser names a session, never a directory.
import type { AppContext } from "../server/app_context.ts";
import { sessionWorkspace } from "../sessions/session_workspace.ts";
import { type CheckpointStore, checkpointStore } from "./checkpoint_store.ts";
import { type Guard, makeGuard } from "./workspace_io.ts";

export interface RollbackTarget {
  sessionId: string;
  workspace: string;
  store: CheckpointStore;
  guard: Guard;
}

export async function rollbackTargetFor(
  app: AppContext,
  sessionId: unknown,
): Promise<RollbackTarget> {
  const { session, workspace } = await sessionWorkspace(app.db, sessionId);
  return {
    sessionId: session.session_id,
    workspace,
    store: checkpointStore(app.config.stateDir),
    guard: await makeGuard(app.config),
  };
}
