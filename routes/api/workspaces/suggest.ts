// GET /api/workspaces/suggest?prefix= → {suggestions:[path…], prefix}: recent session folders
// and git repositories under home (bounded scan), or completions of a typed path; protected
// paths and system folders are never suggested.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json } from "../../../lib/server/http.ts";
import { suggestWorkspaces } from "../../../lib/workspace/workspace_suggest.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const prefix = (url.searchParams.get("prefix") ?? "").slice(0, 4096);
    return json({ suggestions: await suggestWorkspaces(app, prefix), prefix });
  },
};
