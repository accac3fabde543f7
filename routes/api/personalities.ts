// GET /api/personalities → {personalities: [{name, description}]}: the presets in config.yaml
// (`agent.personalities`), read fresh so an edit shows without a restart.
import type { Handlers } from "../../lib/server/file_router.ts";
import { json } from "../../lib/server/http.ts";
import { listPersonalities } from "../../lib/agent/personalities.ts";

export const handler: Handlers = {
  GET(_req, { app }) {
    return json({
      personalities: listPersonalities(app.config.file).map(({ name, description }) => ({
        name,
        description,
      })),
    });
  },
};
