// GET /api/personalities → {personalities: [{name, description}]}: the presets in config.yaml
// (`agent.personalities`), read fresh so an edit shows without a restart; with none configured,
// the built-in presets (lib/agent/builtin_personalities.ts), as the original offers.
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
