// The first-run wizard at `/onboarding` (components/OnboardingWizard.tsx): `/` sends a
// console with no usable provider here until setup is completed or skipped. Visiting it
// later re-runs setup (the Control Center's Providers tab links here).
import type { Handlers, PageProps } from "../lib/server/file_router.ts";
import { type OnboardingStatus, onboardingStatus } from "../lib/settings/onboarding.ts";
import { usePageScripts } from "../lib/server/page_scripts.ts";
import { OnboardingWizard } from "../components/OnboardingWizard.tsx";
import { t, withLocale } from "../lib/i18n/t.ts";
import { isLocale, SOURCE_LOCALE } from "../lib/i18n/locales.ts";

interface OnboardingData {
  status: OnboardingStatus;
  passwordFromEnv: boolean;
}

export const handler: Handlers<OnboardingData> = {
  async GET(_req, ctx) {
    const locale = isLocale(ctx.state.locale) ? ctx.state.locale : SOURCE_LOCALE;
    ctx.state.title = withLocale(locale, () => t("onboarding.pageTitle"));
    const status = await onboardingStatus(ctx.app);
    return ctx.render(
      { status, passwordFromEnv: !!ctx.app.config.password },
      { headers: { "cache-control": "no-store" } },
    );
  },
};

export default function Onboarding({ data }: PageProps<OnboardingData>) {
  usePageScripts();
  return (
    <main class="ob-page">
      <OnboardingWizard status={data.status} passwordFromEnv={data.passwordFromEnv} />
    </main>
  );
}
