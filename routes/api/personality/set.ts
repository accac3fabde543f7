// POST /api/personality/set {session_id, name} → {ok, personality, prompt}. An empty name
// clears it (the default voice). 400 without either field, 404 for an unknown session or name.
import { z } from "zod";
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, readBody } from "../../../lib/server/http.ts";
import { getPersonality, setSessionPersonality } from "../../../lib/agent/personalities.ts";

const Body = z.object({
  session_id: z.string().min(1).max(128),
  name: z.string().max(128),
});

export const handler: Handlers = {
  async POST(req, { app }) {
    const { session_id, name } = await readBody(req, Body);
    const wanted = name.trim();
    if (!wanted) {
      await setSessionPersonality(app.db, session_id, null);
      return json({ ok: true, personality: null, prompt: null });
    }
    const p = getPersonality(app.config.file, wanted);
    await setSessionPersonality(app.db, session_id, p.name);
    return json({ ok: true, personality: p.name, prompt: p.prompt });
  },
};
