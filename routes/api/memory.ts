// GET /api/memory → {memory, user, budget}: the text of MEMORY.md and USER.md ("" when absent)
// and how many characters of each reach the system prompt.
import type { Handlers } from "../../lib/server/file_router.ts";
import { json } from "../../lib/server/http.ts";
import { PROMPT_BUDGET, readMemory } from "../../lib/agent/memory.ts";

export const handler: Handlers = {
  async GET(_req, { app }) {
    const [memory, user] = await Promise.all([
      readMemory(app.config.stateDir, "memory"),
      readMemory(app.config.stateDir, "user"),
    ]);
    return json({ memory, user, budget: PROMPT_BUDGET });
  },
};
