// GET /api/session/variant?session_id= → {turn_id, count, current}: the answers of the last
// turn. POST /api/session/variant {session_id, variant} (1-based) → {ok, variants, session}:
// show that answer instead (the model sees it from the next turn on). Unknown variant → 404;
// 409 while streaming.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody, requireParam } from "../../../lib/server/http.ts";
import { selectVariant, variantInfo } from "../../../lib/engine/variants.ts";
import { fullSession } from "../../../lib/sessions/sessions.ts";

const Body = z.object({ session_id: z.string().min(1), variant: z.number().int().min(1) });

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    return json(await variantInfo(app.db, requireParam(url, "session_id")));
  },
  async POST(req, { app }) {
    const body = await readBody(req, Body);
    const variants = await selectVariant(app.db, app.clock, body.session_id, body.variant);
    return json({ ok: true, variants, session: await fullSession(app.db, body.session_id) });
  },
};
