// POST /api/git/commit-message-selected {session_id, paths} → {ok, message, truncated}: as
// commit-message, from the diff a commit of just those files would make (staged or not, new
// files included). Path errors as commit-selected (400 code path_outside_workspace).
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { getSession } from "../../../lib/sessions/sessions.ts";
import { gitTargetFor } from "../../../lib/workspace/git_target.ts";
import {
  selectedMessagePrompt,
  writeCommitMessage,
} from "../../../lib/workspace/git_commit_message.ts";

const Body = z.object({ session_id: z.string().min(1), paths: z.array(z.string()) });

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    const t = await gitTargetFor(app, body.session_id);
    const prompt = await selectedMessagePrompt(t, body.paths);
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
