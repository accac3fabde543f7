// POST /api/session/regenerate {session_id} → {stream_id, session_id, turn_id, title, variants}:
// like retry, but the answer it replaces is kept as a variant of the last turn
// (lib/engine/variants.ts) that POST /api/session/variant can show again. 409 while streaming.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { regenerate, variantInfo } from "../../../lib/engine/variants.ts";

const Body = z.object({ session_id: z.string().min(1) });

export const handler: Handlers = {
  async POST(req, { app }) {
    const { session_id } = await readBody(req, Body);
    const started = await regenerate(app, session_id);
    return json({ ...started, variants: await variantInfo(app.db, session_id) });
  },
};
