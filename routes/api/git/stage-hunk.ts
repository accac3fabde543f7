// POST /api/git/stage-hunk {session_id, path, hunk, header?} → {ok, git: the new status}. The hunk (index and
// `@@` header of the file's unstaged diff) goes to the index alone via `git apply --cached`.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { gitTargetFor } from "../../../lib/workspace/git_target.ts";
import { applyHunk } from "../../../lib/workspace/git_panel.ts";

const Body = z.object({
  session_id: z.string().min(1),
  path: z.string().min(1),
  hunk: z.number().int().min(0).max(100_000),
  header: z.string().max(10_000).optional(),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    const t = await gitTargetFor(app, body.session_id);
    return json({ ok: true, git: await applyHunk(t, { ...body, action: "stage" }) });
  },
};
