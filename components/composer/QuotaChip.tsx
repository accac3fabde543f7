// The composer footer's quota chip (`show_quota_chip`): what this console has used today of the
// chat's provider (tokens and estimated cost, GET /api/provider/quota; the last 7 and 30 days in
// its tooltip). Read only while the setting is on, again when a run ends; a failed read hides
// it. Rendered inside the Composer island; static/page_prefs.css shows it.
import { useEffect, useState } from "preact/hooks";
import type { ComposerModel } from "../../lib/browser/composer/composer_model.ts";
import { formatCost, formatTokens } from "../../lib/browser/composer_state.ts";
import { onHermesEvent } from "../../lib/shared/ui_events.ts";
import { Icon } from "../Icon.tsx";
import { t } from "../../lib/i18n/t.ts";

interface Totals {
  input_tokens: number;
  output_tokens: number;
  cost: number | null;
}
interface Quota {
  quota: { today: Totals; last_7_days: Totals; last_30_days: Totals };
}

const tokens = (x: Totals) => formatTokens(x.input_tokens + x.output_tokens);

/** Whether the setting is on: painted on <html> from the first frame, then followed live. */
function useQuotaSetting(): boolean {
  const [on, setOn] = useState(false);
  useEffect(() => {
    setOn(document.documentElement.hasAttribute("data-quota-chip"));
    return onHermesEvent("hermes:settings-changed", ({ settings }) => {
      if ("show_quota_chip" in settings) setOn(settings.show_quota_chip === true);
    });
  }, []);
  return on;
}

export function QuotaChip({ model: m }: { model: ComposerModel }) {
  const on = useQuotaSetting();
  const [quota, setQuota] = useState<Quota["quota"] | null>(null);
  const provider = m.model.value.provider;
  const idle = m.run.value === null;
  useEffect(() => {
    if (!on || !idle) return;
    let live = true;
    (async () => {
      const id = provider ??
        (await m.api<{ active_provider: string | null }>("GET", "/api/providers"))
          .active_provider;
      if (!id) return null;
      const q = await m.api<Quota>(
        "GET",
        `/api/provider/quota?provider=${encodeURIComponent(id)}`,
      );
      return q.quota;
    })().then((q) => live && setQuota(q), () => live && setQuota(null));
    return () => void (live = false);
  }, [on, provider, idle]);
  if (!on || !quota) return null;
  const { today, last_7_days: week, last_30_days: month } = quota;
  return (
    <span
      class="composer-chip composer-chip-quiet composer-quota"
      data-chip="quota"
      title={t("prefs.quotaTitle", {
        week: tokens(week),
        weekCost: formatCost(week.cost),
        month: tokens(month),
        monthCost: formatCost(month.cost),
      })}
    >
      <Icon name="cpu" size={13} />
      <span class="chip-label">
        {today.cost === null
          ? t("prefs.quotaTodayTokens", { tokens: tokens(today) })
          : t("prefs.quotaToday", { tokens: tokens(today), cost: formatCost(today.cost) })}
      </span>
    </span>
  );
}
