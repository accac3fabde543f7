// The workspace a request acts on, found through its session: the browser names a session,
// never a directory. The path is the real one (symlinks resolved), so guards compare like with
// like; an unknown session or a workspace that is gone is a 404.
import type { AsyncQueries } from "../storage/db.ts";
import { NotFoundError } from "../errors.ts";
import { getSession, type SessionRow } from "./sessions.ts";

/** Session `sessionId` (as the request sent it) and the real path of its workspace. */
export async function sessionWorkspace(
  db: AsyncQueries,
  sessionId: unknown,
): Promise<{ session: SessionRow; workspace: string }> {
  if (typeof sessionId !== "string" || sessionId === "") throw new NotFoundError("Unknown session");
  const session = await getSession(db, sessionId);
  try {
    return { session, workspace: await Deno.realPath(session.workspace) };
  } catch {
    throw new NotFoundError("The session's workspace is gone");
  }
}
