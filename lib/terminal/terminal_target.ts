// Which terminal a request means, and where a session's new terminal runs. Invariants: a
// terminal is found only through its own session; omitting terminal_id (the original's one
// terminal per session) means the session's oldest; the workspace is the session's real path.
import type { AppContext } from "../server/app_context.ts";
import { getSession } from "../sessions/sessions.ts";
import { TOOL_HOOKS } from "../engine/tool_hooks.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import type { StartTerminal } from "./terminal_manager.ts";

/** The terminal_id a request names, or the session's oldest terminal. */
export function targetTerminal(app: AppContext, sessionId: string, terminalId?: string): string {
  if (terminalId) return terminalId;
  const [first] = app.terminals.list(sessionId).sort((a, b) => a.created_at - b.created_at);
  if (!first) throw new NotFoundError(`Session "${sessionId}" has no terminal running`);
  return first.terminal_id;
}

/** Where a new terminal of `sessionId` runs: its workspace, with its network switch. */
export async function terminalPlace(
  app: AppContext,
  sessionId: string,
): Promise<Omit<StartTerminal, "rows" | "cols">> {
  const session = await getSession(app.db, sessionId);
  let workspace: string;
  try {
    workspace = await Deno.realPath(session.workspace);
  } catch {
    throw new ValidationError(`The workspace "${session.workspace}" of this session is gone`);
  }
  return { sessionId, workspace, allowNetwork: TOOL_HOOKS.allowNetwork(app, session) };
}
