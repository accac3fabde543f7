// GET /api/crons/delivery-options → {platforms: [{value, label}…]}: where a task's output can go,
// as the original answers it (its task form fills the Output picker from it).
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json } from "../../../lib/server/http.ts";
import { deliveryOptions } from "../../../lib/tasks/jobs.ts";

export const handler: Handlers = {
  GET() {
    return json({ platforms: deliveryOptions() });
  },
};
