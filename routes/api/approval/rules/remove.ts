// POST /api/approval/rules/remove {id} → {ok: true, removed: rule}. The rule ends at once: the
// next call it would have allowed asks again (lib/approvals/standing_rules.ts). A body without a
// string `id` → 400; an id no rule has → 404.
import { z } from "zod";
import type { Handlers } from "../../../../lib/server/file_router.ts";
import { json, readBody } from "../../../../lib/server/http.ts";
import { removeStandingRule } from "../../../../lib/approvals/standing_rules.ts";

const Body = z.object({ id: z.string().min(1).max(512) });

export const handler: Handlers = {
  async POST(req, { app }) {
    const { id } = await readBody(req, Body);
    return json({ ok: true, removed: await removeStandingRule(app, id) });
  },
};
