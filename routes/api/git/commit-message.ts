// POST /api/git/commit-message {session_id} → {ok, message, truncated}: the configured model
// (auxiliary, else the session's) writes a commit message from the staged diff (at most 64 KiB
// of it: truncated says it was cut). 400 code nothing_staged when nothing is staged; 409 code
// no_model without a model; 502 when the model fails. Nothing is committed.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { getSession } from "../../../lib/sessions/sessions.ts";
import { gitTargetFor } from "../../../lib/workspace/git_target.ts";
import {
  stagedMessagePrompt,
  writeCommitMessage,
} from "../../../lib/workspace/git_commit_message.ts";

const Body = z.object({ session_id: z.string().min(1) });

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    const t = await gitTargetFor(app, body.session_id);
    const prompt = await stagedMessagePrompt(t);
    return json(
      await writeCommitMessage(prompt, {
        config: app.config,
        log: app.log,
        session: await getSession(app.db, body.session_id),
        fetch: app.runs.options(app.config).fetch,
        signal: req.signal,
      }),
    );
  },
};
