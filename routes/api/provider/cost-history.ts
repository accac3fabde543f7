// GET /api/provider/cost-history?provider=<id>&days=N (1-365, default 7) → {ok, provider,
// display_name, window_days, snapshots:[{date, used, delta, input_tokens, output_tokens,
// turns}], total_cost}: one row per UTC day from our own metering; `used` is the running
// total over the window, `delta` that day's cost. 404: unknown provider; 400: bad days.
import type { Handlers } from "../../../lib/server/file_router.ts";
import { ValidationError } from "../../../lib/errors.ts";
import { json, requireParam } from "../../../lib/server/http.ts";
import { getProvider } from "../../../lib/providers/provider_admin.ts";
import { sumUsage, usageByDay } from "../../../lib/providers/usage_history.ts";

export const handler: Handlers = {
  async GET(_req, { app, url }) {
    const row = getProvider(app.config, requireParam(url, "provider"));
    const raw = url.searchParams.get("days");
    const days = raw === null || raw === "" ? 7 : Number(raw);
    if (!Number.isInteger(days) || days < 1 || days > 365) {
      throw new ValidationError(
        `Invalid parameter "days": "${raw}" is not a whole number from 1 to 365`,
        "days",
      );
    }
    const history = await usageByDay(app.db, row.id, days, app.clock());
    let used = 0;
    const snapshots = history.map((d) => {
      used += d.cost ?? 0;
      return {
        date: d.date,
        used: Math.round(used * 1e6) / 1e6,
        delta: d.cost,
        input_tokens: d.input_tokens,
        output_tokens: d.output_tokens,
        turns: d.turns,
      };
    });
    return json({
      ok: true,
      provider: row.id,
      display_name: row.display_name,
      supported: true,
      status: "available",
      source: "metering",
      window_days: days,
      snapshots,
      total_cost: sumUsage(history).cost,
      limit: null,
    });
  },
};
