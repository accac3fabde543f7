// Which repository a Git panel request acts on: the session's workspace (as a real path) and the
// app's sandbox for runGit. Invariant: the browser names a session, never a directory.
import type { AppContext } from "../server/app_context.ts";
import { NotFoundError } from "../errors.ts";
import { getSession } from "../sessions/sessions.ts";
import type { GitTarget } from "./git_panel.ts";
import { realSecretPaths } from "./protected_paths.ts";

/** The git target of session `sessionId`; 404 when the session or its workspace is gone. */
export async function gitTargetFor(app: AppContext, sessionId: unknown): Promise<GitTarget> {
  if (typeof sessionId !== "string" || sessionId === "") throw new NotFoundError("Unknown session");
  const session = getSession(app.db, sessionId);
  let workspace: string;
  try {
    workspace = await Deno.realPath(session.workspace);
  } catch {
    throw new NotFoundError("The session's workspace is gone");
  }
  return {
    workspace,
    run: { sandbox: app.tools.commands, path: app.config.env.PATH },
    protect: await realSecretPaths(app.config),
  };
}
