// Which session a rollback request acts on: its workspace (a real path), the checkpoint store of
// this app and the protected-path guard. The browser names a session, never a directory.
import type { AppContext } from "../server/app_context.ts";
import { NotFoundError } from "../errors.ts";
import { getSession } from "../sessions/sessions.ts";
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
  if (typeof sessionId !== "string" || sessionId === "") throw new NotFoundError("Unknown session");
  const session = getSession(app.db, sessionId);
  let workspace: string;
  try {
    workspace = await Deno.realPath(session.workspace);
  } catch {
    throw new NotFoundError("The session's workspace is gone");
  }
  return {
    sessionId: session.session_id,
    workspace,
    store: checkpointStore(app.config.stateDir),
    guard: await makeGuard(app.config),
  };
}
