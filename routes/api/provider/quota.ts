// GET /api/provider/quota?provider=<id> → {ok, provider, display_name, supported, status,
// source:"metering", quota:{today, last_7_days, last_30_days}, message}: what this install has
// used of the provider, from our own metering (never the provider's billing API). 404: unknown.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { json, requireParam } from "../../../lib/server/http.ts";
import { getProvider } from "../../../lib/providers/provider_admin.ts";
import { sumUsage, usageByDay } from "../../../lib/providers/usage_history.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const row = getProvider(app.config, requireParam(url, "provider"));
    const days = await usageByDay(app.db, row.id, 30, app.clock());
    return json({
      ok: true,
      provider: row.id,
      display_name: row.display_name,
      supported: true,
      status: "available",
      source: "metering",
      label: "Metered by this console",
      quota: {
        today: sumUsage(days.slice(-1)),
        last_7_days: sumUsage(days.slice(-7)),
        last_30_days: sumUsage(days),
        limit: null,
      },
      message: `${row.display_name} usage metered by this console (costs are estimates).`,
    });
  },
};
