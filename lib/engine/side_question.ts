// Side questions (`/btw <question>`): the model answers with the session's context in a hidden
// side child (lib/sessions/side_sessions.ts), so the parent's transcript never changes.
// Invariants: the child gets a copy of the parent's settled messages and no tools (tool_hooks.ts);
// it uses the auxiliary model when config.yaml names one; earlier finished side questions of the
// same parent are dropped when a new one starts, so hidden children do not pile up.
import { sharedFilesDir } from "../settings/config.ts";
import { ValidationError } from "../errors.ts";
import { randomHex } from "../ids.ts";
import { deleteSession, getSession } from "../sessions/sessions.ts";
import { createSideSession, listSideChildren } from "../sessions/side_sessions.ts";
import type { EngineHost } from "./engine_host.ts";
import type { RunManager } from "./run_manager.ts";

export const MAX_BTW_QUESTION = 20_000;

/** POST /api/btw: start the answer; the caller streams it from /api/chat/stream?stream_id=. */
export async function askSideQuestion(
  app: EngineHost & { runs: RunManager },
  parentId: string,
  question: string,
): Promise<
  { stream_id: string; session_id: string; parent_session_id: string; model: string | null }
> {
  const text = question.trim();
  if (!text) throw new ValidationError("question is required", "question");
  await getSession(app.db, parentId);
  for (const old of await listSideChildren(app.db, parentId, "btw")) {
    if (!old.active_stream_id) {
      await deleteSession(app.db, sharedFilesDir(app.config), old.session_id);
    }
  }
  const child = await createSideSession(app.db, app.clock, {
    parentId,
    kind: "btw",
    id: randomHex(8),
    title: `btw: ${text.slice(0, 60)}`,
    withContext: true,
  });
  // Loaded on use: the evaluator module pulls in the provider stack.
  const { auxiliaryModel } = await import("../goals/evaluator.ts");
  const aux = auxiliaryModel(app.config.file);
  try {
    const started = await app.runs.start(app, {
      sessionId: child.session_id,
      message: text,
      ...(aux ? { model: aux } : {}),
    });
    return {
      stream_id: started.stream_id,
      session_id: child.session_id,
      parent_session_id: parentId,
      model: aux ?? child.model,
    };
  } catch (err) {
    await deleteSession(app.db, sharedFilesDir(app.config), child.session_id);
    throw err;
  }
}
