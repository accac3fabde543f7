// POST /api/chat {message, session_id?, model?, workspace?} → {ok, session_id, stream_id,
// status, answer}: the original's legacy synchronous chat. It runs one turn like
// /api/chat/start and answers when the run has ended, with the assistant's final text. A
// workspace outside the trusted roots (home, default, registered) is a 400 before anything is
// created; no message → 400; unknown session → 404; a session already running → 409.
import { z } from "zod";
import type { Handlers } from "../../lib/server/file_router.ts";
import { json, readBody } from "../../lib/server/http.ts";
import { createSession, getSession } from "../../lib/sessions/sessions.ts";
import { contentText, listMessages } from "../../lib/sessions/messages.ts";
import { resolveTrustedWorkspace } from "../../lib/workspace/workspaces.ts";
import { getStream } from "../../lib/engine/journal.ts";
import { BusyError } from "../../lib/errors.ts";
import { SHUTTING_DOWN } from "../../lib/server/live_responses.ts";

const Body = z.object({
  message: z.string().trim().min(1, "must not be empty").max(1_000_000),
  session_id: z.string().min(1).nullable().optional(),
  model: z.string().min(1).max(256).nullable().optional(),
  workspace: z.string().min(1).max(4096).nullable().optional(),
});

/** How often the caller re-reads the run's status while it waits. */
const POLL_MS = 50;

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    const workspace = body.workspace
      ? await resolveTrustedWorkspace(app, body.workspace)
      : undefined;
    const sessionId = body.session_id
      ? (await getSession(app.db, body.session_id)).session_id
      : (await createSession(app.db, app.clock, {
        workspace: workspace ?? await resolveTrustedWorkspace(app, app.config.defaultWorkspace),
        model: body.model || app.config.defaultModel || null,
        model_provider: null,
        project_id: null,
      })).session_id;
    const started = await app.runs.start(app, {
      sessionId,
      message: body.message,
      ...(body.model ? { model: body.model } : {}),
      ...(workspace ? { workspace } : {}),
    });
    while ((await getStream(app.db, started.stream_id))?.status === "running") {
      if (req.signal.aborted || app.live.signal.aborted) break;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    // A long poll must not hold a shutdown (lib/server/live_responses.ts).
    if (app.live.signal.aborted) throw new BusyError(SHUTTING_DOWN);
    const status = (await getStream(app.db, started.stream_id))?.status ?? "running";
    const last = (await listMessages(app.db, sessionId, { limit: 1 })).at(0);
    return json({
      ok: status === "done",
      session_id: sessionId,
      stream_id: started.stream_id,
      status,
      answer: last?.role === "assistant" ? contentText(last.content) : "",
    });
  },
};
