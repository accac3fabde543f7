// Which repository a Git panel request acts on: the session's workspace (as a real path) and the
// app's sandbox for runGit. Invariant: the browser names a session, never a directory.
import type { AppContext } from "../server/app_context.ts";
import { sessionWorkspace } from "../sessions/session_workspace.ts";
import type { GitTarget } from "./git_panel.ts";
import { realSecretPaths } from "./protected_paths.ts";

/** The git target of session `sessionId`; 404 when the session or its workspace is gone. */
export async function gitTargetFor(app: AppContext, sessionId: unknown): Promise<GitTarget> {
  const { workspace } = await sessionWorkspace(app.db, sessionId);
  return {
    workspace,
    run: { sandbox: app.tools.commands, path: app.config.env.PATH },
    protect: await realSecretPaths(app.config),
    // fetch/pull/push use the user's own git setup and ssh agent (lib/workspace/git_remote.ts).
    credentials: {
      home: app.config.env.HOME ?? "/nonexistent",
      sshAuthSock: app.config.env.SSH_AUTH_SOCK,
    },
  };
}
