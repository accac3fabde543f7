// GET /api/approval/rules → {rules: [...]}: every standing approval ("Always allow" on a card),
// newest first. A rule is `{id, kind: "category", pattern_key, description, created_at}` or
// `{id, kind: "command", command, workspace, created_at}`; `created_at` (seconds) is null for a
// rule written into config.yaml by hand. New beside the original, which has no such list.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json } from "../../../lib/server/http.ts";
import { listStandingRules } from "../../../lib/approvals/standing_rules.ts";

export const handler: Handlers = {
  async GET(_req, { app }) {
    return json({ rules: await listStandingRules(app) });
  },
};
